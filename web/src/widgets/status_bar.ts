// The status bar: pointer time, visible window, selection, measured range.
import { formatDuration, formatTime } from '../base/format';
import { h } from './dom';

export interface StatusInfo {
  pointer: number | null;
  window: { from: number; to: number };
  range: { from: number; to: number } | null;
  selection: string;
  loading: boolean;
}

export class StatusBar {
  readonly el: HTMLElement;
  private readonly pointer: HTMLElement;
  private readonly window: HTMLElement;
  private readonly range: HTMLElement;
  private readonly selection: HTMLElement;
  private readonly loading: HTMLElement;
  private readonly extra: HTMLElement;

  constructor() {
    this.pointer = h('span', { class: 'status-pointer', 'data-testid': 'status-pointer' });
    this.window = h('span', { class: 'status-window', 'data-testid': 'status-window' });
    this.range = h('span', { class: 'status-range', 'data-testid': 'status-range' });
    this.selection = h('span', { class: 'status-selection', 'data-testid': 'status-selection' });
    this.loading = h('span', { class: 'status-loading' });
    this.extra = h('span', { class: 'status-extra' });
    this.el = h(
      'div',
      { class: 'status-bar', 'data-testid': 'status' },
      this.pointer, this.window, this.range, this.selection, this.loading, this.extra,
    );
  }

  update(s: StatusInfo): void {
    this.pointer.textContent = s.pointer === null ? '' : `at ${formatTime(s.pointer)}`;
    this.window.textContent = `window ${formatTime(s.window.from)} – ${formatTime(s.window.to)} (${formatDuration(s.window.to - s.window.from)})`;
    this.range.textContent = s.range && s.range.to !== s.range.from
      ? `measured ${formatDuration(Math.abs(s.range.to - s.range.from))}`
      : '';
    this.selection.textContent = s.selection;
    this.loading.textContent = s.loading ? 'loading…' : '';
  }

  /** Free text at the end (trace size, server version). */
  setExtra(text: string): void {
    this.extra.textContent = text;
  }
}
