// The animation view's controls: the layout select (built-in layouts and the
// loaded setup files), tree arity, what a built-in node is, the setup file
// input, traffic lights and messages, and a time slider on the replay cursor.
// They only report choices; the view acts on them.
import { formatTime } from '../common/format';
import { el } from '../common/dom';
import { BUILTIN_LAYOUTS, type BuiltinLayout } from './layouts';
import type { ModuleUnit } from './modules';
import type { LayoutChoice, SetupLibrary } from './setup_library';

const TITLES: Record<BuiltinLayout, string> = { ring: 'Ring', mesh: 'Mesh', tree: 'Tree', hypercube: 'Hypercube' };

export interface ControlHandlers {
  layout(choice: LayoutChoice): void;
  arity(k: number): void;
  unit(unit: ModuleUnit): void;
  files(files: File[]): void;
  traffic(on: boolean): void;
  messages(on: boolean): void;
  seek(t: number): void;
}

export class AnimationControls {
  readonly element: HTMLElement;
  private readonly layout: HTMLSelectElement;
  private readonly arity: HTMLSelectElement;
  private readonly unit: HTMLSelectElement;
  private readonly slider: HTMLInputElement;
  private readonly timeLabel: HTMLSpanElement;

  constructor(lib: SetupLibrary, duration: number, h: ControlHandlers) {
    this.layout = el('select', { 'data-testid': 'animation-layout', title: 'Layout' });
    this.layout.addEventListener('change', () => h.layout(this.layout.value as LayoutChoice));
    this.arity = el('select', { 'data-testid': 'animation-arity', title: 'Children per tree node' });
    for (const k of [2, 3, 4, 8]) this.arity.append(el('option', { value: k }, `${k}-ary`));
    this.arity.value = String(lib.arity);
    this.arity.addEventListener('change', () => h.arity(Number(this.arity.value)));
    this.unit = el('select', { 'data-testid': 'animation-modules', title: 'What a node of a built-in layout is' });
    this.unit.append(el('option', { value: 'process' }, 'processes'), el('option', { value: 'row' }, 'threads'));
    this.unit.value = lib.unit ?? 'process';
    this.unit.addEventListener('change', () => h.unit(this.unit.value === 'row' ? 'row' : 'process'));
    const file = el('input', { type: 'file', accept: '.json,application/json', multiple: true, 'data-testid': 'animation-file' });
    file.addEventListener('change', () => {
      h.files([...(file.files ?? [])]);
      file.value = '';
    });
    this.slider = el('input', { type: 'range', min: 0, max: duration, step: 'any', 'data-testid': 'animation-time', title: 'Replay cursor' });
    this.slider.style.flex = '1';
    this.slider.addEventListener('input', () => h.seek(Number(this.slider.value)));
    this.timeLabel = el('span', { class: 'label', 'data-testid': 'animation-time-label' });
    const row1 = el(
      'div',
      { class: 'view-controls' },
      el('span', { class: 'label' }, 'Layout '),
      this.layout,
      ' ',
      this.arity,
      el('span', { class: 'label' }, ' nodes: '),
      this.unit,
      el('span', { class: 'label' }, ' Load setup: '),
      file,
      ' ',
      checkbox('animation-traffic', 'traffic lights', lib.traffic, h.traffic),
      ' ',
      checkbox('animation-messages', 'messages', lib.messages, h.messages),
    );
    const row2 = el('div', { class: 'view-controls' }, this.slider, ' ', this.timeLabel);
    row2.style.display = 'flex';
    row2.style.alignItems = 'center';
    this.element = el('div', {}, row1, row2);
    this.fillLayouts(lib);
  }

  /** Lists the built-in layouts and the loaded setups; selects the library's choice. */
  fillLayouts(lib: SetupLibrary): void {
    const options = BUILTIN_LAYOUTS.map((b) => el('option', { value: `builtin:${b}` }, TITLES[b]));
    lib.setups.forEach((s, i) => options.push(el('option', { value: `setup:${i}` }, `${s.name} (${s.source})`)));
    this.layout.replaceChildren(...options);
    this.layout.value = lib.choice;
  }

  /** Arity only for the tree, the node unit only for built-in layouts. */
  showLayout(choice: LayoutChoice, builtin: boolean, unit: ModuleUnit): void {
    this.arity.hidden = choice !== 'builtin:tree';
    this.unit.disabled = !builtin;
    this.unit.value = unit;
  }

  showTime(t: number): void {
    this.slider.value = String(t);
    this.timeLabel.textContent = formatTime(t);
  }

  setDuration(duration: number): void {
    this.slider.max = String(duration);
  }
}

function checkbox(testid: string, label: string, on: boolean, change: (on: boolean) => void): HTMLLabelElement {
  const box = el('input', { type: 'checkbox', 'data-testid': testid });
  box.checked = on;
  box.addEventListener('change', () => change(box.checked));
  const l = el('label', {}, box, ` ${label}`);
  l.style.whiteSpace = 'nowrap';
  return l;
}

/** Setup files dropped on `target` go to `onFiles`. */
export function bindDrop(target: HTMLElement, onFiles: (files: File[]) => void): void {
  target.addEventListener('dragover', (ev) => ev.preventDefault());
  target.addEventListener('drop', (ev) => {
    ev.preventDefault();
    const files = [...((ev as DragEvent).dataTransfer?.files ?? [])];
    if (files.length) onFiles(files);
  });
}
