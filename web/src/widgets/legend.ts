// The legend: every state with a checkbox to hide or show it and a colour
// input to recolour it, and the switch that colours states by paradigm (with
// the paradigms' key). Collapsible; drives the shared StateStyles.
import { paradigmColoring, setParadigmColoring, type StateStyles } from '../app/state_style';
import { PARADIGMS } from '../views/paradigm/paradigms';
import { h } from './dom';

export class Legend {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private readonly unsubscribe: () => void;
  private readonly boxes: HTMLInputElement[] = [];
  private readonly pickers: HTMLInputElement[] = [];
  private readonly paradigmBox: HTMLInputElement;
  private readonly paradigmKey: HTMLElement;

  constructor(private readonly styles: StateStyles) {
    const toggle = h('button', { class: 'legend-toggle', 'aria-expanded': 'true', title: 'Show or hide the legend' }, 'States');
    const filter = h('input', { type: 'search', class: 'legend-filter', placeholder: 'filter', 'aria-label': 'Filter states' });
    const reset = h('button', { class: 'legend-reset', title: 'Recorded colours, all visible' }, 'Reset');
    this.paradigmBox = h('input', { type: 'checkbox', 'data-testid': 'legend-paradigm' });
    const paradigmSwitch = h(
      'label',
      { class: 'legend-paradigm', title: 'Colour every state by what the thread is doing: computing, point-to-point, collective, …' },
      this.paradigmBox,
      'by paradigm',
    );
    this.paradigmKey = h(
      'ul',
      { class: 'legend-paradigm-key', 'data-testid': 'legend-paradigm-key' },
      ...PARADIGMS.map((p) => {
        const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
        swatch.style.cssText = `display:inline-block;width:10px;height:10px;margin-right:4px;background:${p.color}`;
        const li = h('li', { 'data-paradigm': p.id }, swatch, p.title);
        li.style.cssText = 'display:inline-block;margin-right:10px;white-space:nowrap';
        return li;
      }),
    );
    // Inline, as style.css is shared; `hidden` still hides it (no display set here).
    this.paradigmKey.style.cssText = 'list-style:none;margin:4px 0 0;padding:0';
    this.body = h('ul', { class: 'legend-list' });
    this.el = h(
      'section',
      { class: 'legend', 'data-testid': 'legend' },
      h('div', { class: 'legend-head' }, toggle, filter, reset, paradigmSwitch),
      this.paradigmKey,
      this.body,
    );
    this.paradigmBox.addEventListener('change', () => setParadigmColoring(this.paradigmBox.checked));
    toggle.addEventListener('click', () => {
      const collapsed = this.el.classList.toggle('collapsed');
      toggle.setAttribute('aria-expanded', String(!collapsed));
    });
    reset.addEventListener('click', () => styles.reset());
    filter.addEventListener('input', () => {
      const q = filter.value.toLowerCase();
      for (const li of Array.from(this.body.children) as HTMLElement[]) {
        li.hidden = q !== '' && !(li.dataset['state'] ?? '').toLowerCase().includes(q);
      }
    });

    styles.states.forEach((s, i) => {
      const box = h('input', { type: 'checkbox', title: 'Show this state' });
      box.checked = styles.visible(i);
      const picker = h('input', { type: 'color', title: 'Colour' });
      picker.value = styles.color(i);
      box.addEventListener('change', () => styles.setVisible(i, box.checked));
      picker.addEventListener('input', () => styles.setColor(i, picker.value));
      const label = h('label', { class: 'legend-name', title: s.category ? `${s.name} (${s.category})` : s.name }, box, s.name);
      this.boxes.push(box);
      this.pickers.push(picker);
      this.body.append(h('li', { 'data-state': s.name, class: 'legend-entry' }, picker, label));
    });
    this.unsubscribe = styles.onChange(() => this.sync());
    this.sync();
  }

  private sync(): void {
    const byParadigm = paradigmColoring();
    this.paradigmBox.checked = byParadigm;
    this.paradigmKey.hidden = !byParadigm;
    this.styles.states.forEach((_, i) => {
      this.boxes[i]!.checked = this.styles.visible(i);
      // The pickers set a state's own colour: off while states show their paradigm's.
      this.pickers[i]!.disabled = byParadigm;
      if (this.pickers[i]!.value !== this.styles.color(i)) this.pickers[i]!.value = this.styles.color(i);
      this.boxes[i]!.closest('li')?.classList.toggle('hidden-state', !this.styles.visible(i));
    });
  }

  destroy(): void {
    this.unsubscribe();
  }
}
