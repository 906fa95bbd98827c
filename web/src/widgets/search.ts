// The search box: typing asks the server for states by name and lists their
// slices; choosing one (click, or Enter / Shift+Enter / the arrow buttons for
// the next and previous) goes there and folds the list away so that it does
// not cover the timeline; the count "3 of 120" stays in the top bar.
import { formatDuration, formatTime } from '../base/format';
import type { TimeWindow } from '../base/time_scale';
import type { SearchResult, SliceRef, TraceSummary } from '../protocol/api.gen';
import type { ApiClient } from '../views/context';
import { rowLabel } from './details';
import { h } from './dom';

const LIMIT = 100;
const DEBOUNCE_MS = 200;
/** A match keeps the zoom when it takes at most this share of the window (the rest is context). */
const FIT_SHARE = 0.5;
/** Else the window zooms out to this many times the match's length. */
export const MATCH_CONTEXT = 10;

/**
 * The window that shows a search match: the same width centred on it when it
 * fits with context around it, else one MATCH_CONTEXT times its length (a
 * jump never zooms in, so the user keeps the picture around the match).
 */
export function matchWindow(w: TimeWindow, match: { begin: number; end: number }): TimeWindow {
  const span = w.to - w.from;
  const length = Math.max(match.end - match.begin, 0);
  const width = length <= span * FIT_SHARE ? span : length * MATCH_CONTEXT;
  const mid = (match.begin + match.end) / 2;
  return { from: mid - width / 2, to: mid + width / 2 };
}

export class SearchBox {
  readonly el: HTMLElement;
  readonly input: HTMLInputElement;
  private readonly list: HTMLElement;
  private readonly count: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private seq = 0;
  private query = '';
  private result: SearchResult | null = null;
  private slices: SliceRef[] = [];
  private index = -1;

  constructor(
    private readonly api: ApiClient,
    private readonly summary: TraceSummary,
    private readonly onChoose: (s: SliceRef) => void,
  ) {
    this.input = h('input', {
      type: 'search', class: 'search-input', placeholder: 'Search states…', 'aria-label': 'Search', autocomplete: 'off',
    });
    this.count = h('span', { class: 'search-count', 'data-testid': 'search-count' });
    this.list = h('ul', { class: 'search-results', 'data-testid': 'search-results', hidden: true });
    const step = (label: string, title: string, by: 1 | -1): HTMLButtonElement => {
      const b = h('button', { type: 'button', class: 'search-step', title, 'data-testid': `search-${by > 0 ? 'next' : 'prev'}` }, label);
      b.addEventListener('click', () => void this.next(by));
      return b;
    };
    this.el = h(
      'div',
      { class: 'search', 'data-testid': 'search' },
      this.input,
      this.count,
      step('‹', 'Previous match (Shift+Enter)', -1),
      step('›', 'Next match (Enter)', 1),
      this.list,
    );
    this.input.addEventListener('input', () => this.schedule());
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        void this.next(e.shiftKey ? -1 : 1);
      } else if (e.key === 'Escape') {
        this.list.hidden = true;
        this.input.blur();
      } else if (e.key === 'ArrowDown') {
        e.preventDefault();
        this.list.hidden = false;
        (this.list.querySelector('button') as HTMLButtonElement | null)?.focus();
      }
    });
    // Once a match is chosen the list stays folded (ArrowDown opens it again).
    this.input.addEventListener('focus', () => {
      if (this.slices.length && this.index < 0) this.list.hidden = false;
    });
    this.el.addEventListener('focusout', (e) => {
      if (!this.el.contains(e.relatedTarget as Node | null)) this.list.hidden = true;
    });
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), DEBOUNCE_MS);
  }

  /** Searches now for what is typed (the debounce calls this). */
  async run(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const q = this.input.value.trim();
    this.query = q;
    const seq = ++this.seq;
    if (q === '') {
      this.result = null;
      this.slices = [];
      this.index = -1;
      this.render();
      return;
    }
    let r: SearchResult;
    try {
      r = await this.api.get('search', { q, limit: LIMIT });
    } catch {
      return; // shown by the error banner
    }
    if (seq !== this.seq) return;
    this.result = r;
    this.slices = [...r.slices];
    this.index = -1;
    this.render();
    this.list.hidden = this.slices.length === 0;
  }

  /** Jumps to the next (or previous) match, fetching more when at the end. */
  async next(step: 1 | -1 = 1): Promise<void> {
    if (this.timer || this.input.value.trim() !== this.query) await this.run();
    if (!this.slices.length) return;
    let i = this.index + step;
    if (i >= this.slices.length && this.result && this.slices.length < this.result.total) {
      const last = this.slices[this.slices.length - 1]!;
      try {
        const more = await this.api.get('search', { q: this.query, from: last.begin + 1, limit: LIMIT });
        const seen = new Set(this.slices.map((s) => s.id));
        for (const s of more.slices) if (!seen.has(s.id)) this.slices.push(s);
        this.render();
      } catch {
        return;
      }
    }
    if (i >= this.slices.length) i = 0;
    if (i < 0) i = this.slices.length - 1;
    this.choose(i);
  }

  private choose(i: number): void {
    const s = this.slices[i];
    if (!s) return;
    this.index = i;
    for (const [j, li] of Array.from(this.list.children).entries()) li.classList.toggle('current', j === i);
    this.updateCount();
    if (this.el.contains(document.activeElement) && document.activeElement !== this.input) this.input.focus();
    this.list.hidden = true;
    this.onChoose(s);
  }

  private updateCount(): void {
    const r = this.result;
    if (!r) {
      this.count.textContent = '';
      return;
    }
    const pos = this.index >= 0 ? `${this.index + 1} of ` : '';
    this.count.textContent = r.total === 0 ? 'no match' : `${pos}${r.total}`;
  }

  private render(): void {
    this.updateCount();
    const items = this.slices.map((s, i) => {
      const name = this.summary.states[s.state]?.name ?? `state ${s.state}`;
      const b = h(
        'button',
        { type: 'button', class: 'search-hit', 'data-slice': s.id },
        h('span', { class: 'search-name' }, name),
        h('span', { class: 'search-where' }, `${formatTime(s.begin)} · ${formatDuration(s.end - s.begin)} · ${rowLabel(this.summary, s.row)}`),
      );
      b.addEventListener('click', () => this.choose(i));
      b.addEventListener('keydown', (e) => {
        if (e.key === 'ArrowDown') (b.parentElement?.nextElementSibling?.firstElementChild as HTMLElement | null)?.focus();
        else if (e.key === 'ArrowUp') {
          const prev = b.parentElement?.previousElementSibling?.firstElementChild as HTMLElement | null;
          (prev ?? this.input).focus();
        } else return;
        e.preventDefault();
      });
      return h('li', { class: i === this.index ? 'current' : '' }, b);
    });
    this.list.replaceChildren(...items);
    if (items.length === 0) this.list.hidden = true;
  }
}
