// Shows every failed request's message (errors are never swallowed). Repeats of
// the same message are counted rather than stacked.
import { h } from './dom';

export class ErrorBanner {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly entries = new Map<string, { el: HTMLElement; count: number; countEl: HTMLElement }>();

  constructor() {
    this.list = h('ul', { class: 'error-list' });
    const clear = h('button', { class: 'error-clear', title: 'Dismiss all' }, 'Dismiss');
    clear.addEventListener('click', () => this.clear());
    this.el = h('div', { class: 'error-banner', 'data-testid': 'error', role: 'alert', hidden: true }, this.list, clear);
  }

  /** The messages shown, oldest first. */
  messages(): string[] {
    return [...this.entries.keys()];
  }

  show(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const known = this.entries.get(message);
    if (known) {
      known.count++;
      known.countEl.textContent = ` (×${known.count})`;
    } else {
      const countEl = h('span', { class: 'error-count' });
      const close = h('button', { class: 'error-close', title: 'Dismiss', 'aria-label': 'Dismiss' }, '×');
      const el = h('li', {}, h('span', { class: 'error-text' }, message), countEl, close);
      close.addEventListener('click', () => {
        el.remove();
        this.entries.delete(message);
        this.el.hidden = this.entries.size === 0;
      });
      this.entries.set(message, { el, count: 1, countEl });
      this.list.append(el);
      // Keep the banner short: the oldest go first.
      while (this.entries.size > 8) {
        const [oldest, entry] = this.entries.entries().next().value as [string, { el: HTMLElement }];
        entry.el.remove();
        this.entries.delete(oldest);
      }
    }
    this.el.hidden = false;
  }

  clear(): void {
    this.entries.clear();
    this.list.replaceChildren();
    this.el.hidden = true;
  }
}
