// The keyboard and mouse help: an overlay listing the keys and gestures the
// viewer handles, opened with "?" (or the top bar's ? button) and closed with
// "?" or Escape. The lists follow the handlers: views/timeline/input.ts
// (timeline wheel, drags, ctrl-drag areas, clicks, W/A/S/D/F/Escape, ] [ P, C, Enter),
// widgets/replay_bar.ts (space , .), widgets/search.ts (Enter, arrows, Escape) and
// views/lamport/lamport_view.ts (its own wheel and drag); change them together.
import { h, typesText } from './dom';

export interface HelpSection {
  title: string;
  /** [keys or gesture, what it does] */
  entries: ReadonlyArray<readonly [string, string]>;
}

export const HELP_SECTIONS: readonly HelpSection[] = [
  {
    title: 'Timeline: mouse',
    entries: [
      ['Wheel', 'zoom around the pointer'],
      ['Shift+wheel, horizontal wheel', 'pan left / right'],
      ['Drag', 'pan (sideways in time, up / down through the rows)'],
      ['Wheel over the row labels', 'scroll the rows'],
      ['Drag on the ruler, Shift+drag', 'zoom to the dragged range'],
      ['Alt+drag', 'measure elapsed time (kept until a click or Escape)'],
      ['Ctrl+drag (⌘+drag on macOS)', 'select an area: the time range and the rows covered; the Statistics tab shows just that area (a click or Escape clears it)'],
      ['Click on the ruler', 'move the replay cursor there'],
      ['Double-click on the ruler', 'show the whole trace'],
      ['Click a bar, arrow or marker', 'select it and show its details'],
      ['Click a merged bar', 'zoom into it'],
      ['Click a group header', 'fold or unfold the group'],
      ['Click a thread label', 'pin the row to the top, or unpin it'],
      ['Drag the label column\'s edge', 'make the labels wider or narrower'],
      ['Click empty space', 'clear the selection'],
      ['Double-click a band (compact mode)', 'leave the compact mode at the first row of that band'],
    ],
  },
  {
    title: 'Timeline: keys',
    entries: [
      ['W / S', 'zoom in / out (around the pointer)'],
      ['A / D', 'pan left / right'],
      ['F', 'show the whole trace'],
      ['C', 'compact mode on / off: every thread row a thin strip, all ranks on one screen'],
      ['Enter', 'compact mode: leave it at the first row of the band under the pointer'],
      ['Escape', 'clear the measurement, the area and the selection'],
    ],
  },
  {
    title: 'Timeline: following messages',
    entries: [
      ['Click an arrow', 'select the message: its send and receive ends are marked'],
      ['] / [', 'next / previous message end on the selected row'],
      ['P', "jump to the selected message's other end"],
      ['Links in the details', 'go to the send or receive slice, or to a message the slice sent or received'],
    ],
  },
  {
    title: 'Replay',
    entries: [
      ['Space', 'play / pause'],
      [', / .', 'step one event back / forward'],
    ],
  },
  {
    title: 'Search box',
    entries: [
      ['Enter / Shift+Enter', 'next / previous match'],
      ['↓ / ↑', 'walk the list of matches'],
      ['Escape', 'close the list'],
    ],
  },
  {
    title: 'Logical time panel',
    entries: [
      ['Wheel', 'zoom around the pointer'],
      ['Shift+wheel, horizontal wheel, drag', 'pan'],
      ['Click a bar', 'show that slice in the timeline'],
    ],
  },
  {
    title: 'This help',
    entries: [['?', 'open / close'], ['Escape', 'close']],
  },
];

export class HelpOverlay {
  readonly el: HTMLElement;
  private readonly onKey = (e: KeyboardEvent): void => this.key(e);

  constructor(private readonly keyTarget: Window = window) {
    const close = h('button', { type: 'button', class: 'help-close', title: 'Close (Escape)', 'data-testid': 'help-close' }, '×');
    close.addEventListener('click', () => this.close());
    const sections = HELP_SECTIONS.map((s) =>
      h('section', { class: 'help-section' },
        h('h3', {}, s.title),
        h('dl', { class: 'help-list' }, ...s.entries.flatMap(([k, what]) => [h('dt', {}, k), h('dd', {}, what)]))),
    );
    const box = h('div', { class: 'help-box', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Keys and mouse' },
      h('header', { class: 'help-head' }, h('h2', {}, 'Keys and mouse'), close),
      h('div', { class: 'help-body' }, ...sections));
    this.el = h('div', { class: 'help-overlay', 'data-testid': 'help', hidden: true }, box);
    // A click beside the box closes it.
    this.el.addEventListener('click', (e) => {
      if (e.target === this.el) this.close();
    });
    // Capture: Escape closing the help must not also clear the timeline's
    // selection (its key handler listens on the window too).
    keyTarget.addEventListener('keydown', this.onKey, { capture: true });
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  toggle(): void {
    if (this.open) this.close();
    else this.el.hidden = false;
  }

  close(): void {
    this.el.hidden = true;
  }

  destroy(): void {
    this.keyTarget.removeEventListener('keydown', this.onKey, { capture: true });
  }

  private key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === '?' && !typesText(e.target)) this.toggle();
    else if (e.key === 'Escape' && this.open) this.close();
    else return;
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}
