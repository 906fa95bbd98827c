// The details panel: the selected slice, instant event or message, and below
// them what links it to other events (widgets/details_links.ts), added once
// they are known. A call site's file:line is a link that sends
// OPEN_SOURCE_EVENT (the Source tab, views/source, shows it).
import { formatDuration, formatTime, formatTimeSpan } from '../base/format';
import type { Details, TraceSummary } from '../protocol/api.gen';
import { h } from './dom';

/** The DOM event a call-site link sends (bubbling), with an OpenSourceDetail. */
export const OPEN_SOURCE_EVENT = 'parallax:open-source';

export interface OpenSourceDetail {
  /** exactly as the trace names it */
  file: string;
  line: number;
}

/** A 'file:line' button that sends OPEN_SOURCE_EVENT when clicked. */
export function sourceLink(file: string, line: number): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'details-link', 'data-testid': 'details-callsite-link', title: 'Show in the Source tab' }, `${file}:${line}`);
  b.addEventListener('click', () => {
    const detail: OpenSourceDetail = { file, line };
    b.dispatchEvent(new CustomEvent(OPEN_SOURCE_EVENT, { bubbles: true, detail }));
  });
  return b;
}

/** 'rank 3 / main' for a row. */
export function rowLabel(summary: TraceSummary, row: number): string {
  const t = summary.threads[row];
  if (!t) return `row ${row}`;
  const p = summary.processes[t.process];
  return p ? `${p.name} / ${t.name}` : t.name;
}

export class DetailsPanel {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private shown: Details | null = null;

  constructor(private readonly summary: TraceSummary) {
    this.body = h('div', { class: 'details-body' });
    this.el = h('aside', { class: 'details', 'data-testid': 'details' }, h('h2', {}, 'Details'), this.body);
    this.clear();
  }

  /** The details shown, null when empty or loading. */
  get current(): Details | null {
    return this.shown;
  }

  clear(): void {
    this.shown = null;
    this.el.dataset['state'] = 'empty';
    this.body.replaceChildren(h('p', { class: 'details-hint' }, 'Click a bar, an arrow or a marker.'));
  }

  loading(): void {
    this.shown = null;
    this.el.dataset['state'] = 'loading';
    this.body.replaceChildren(h('p', { class: 'details-hint' }, 'Loading…'));
  }

  show(d: Details): void {
    this.shown = d;
    this.el.dataset['state'] = 'shown';
    // Begin and end at a precision where they differ (base/format.ts).
    const [begin, end] = formatTimeSpan(d.begin, d.end);
    this.el.dataset['kind'] = d.kind;
    const dl = h('dl', { class: 'details-list' });
    const add = (label: string, value: string | (Node | string)[], key?: string): void => {
      const dd = h('dd', key ? { 'data-field': key } : {});
      dd.append(...(typeof value === 'string' ? [value] : value));
      dl.append(h('dt', {}, label), dd);
    };
    add('Name', d.name, 'name');
    add('Kind', d.kind, 'kind');
    if (d.kind === 'message') {
      add('Send', begin, 'begin');
      add('Receive', end, 'end');
      add('Latency', formatDuration(d.end - d.begin), 'duration');
      add('Sender', rowLabel(this.summary, d.row), 'row');
    } else if (d.kind === 'instant') {
      add('Time', formatTime(d.begin), 'begin');
      add('Row', rowLabel(this.summary, d.row), 'row');
    } else {
      add('Begin', begin, 'begin');
      add('End', end, 'end');
      add('Duration', formatDuration(d.end - d.begin), 'duration');
      add('Row', rowLabel(this.summary, d.row), 'row');
      add('Depth', String(d.depth), 'depth');
    }
    if (d.callsite) {
      const c = d.callsite;
      if (c.file) add('Call site', c.function ? [sourceLink(c.file, c.line), ` ${c.function}`] : [sourceLink(c.file, c.line)], 'callsite');
      else add('Call site', c.function || '(unknown)', 'callsite');
    }
    for (const f of d.fields) add(f.label, f.value);
    this.body.replaceChildren(dl);
  }

  /** Adds what links the shown details to other events (replacing what was added before). */
  showLinks(el: HTMLElement): void {
    this.body.querySelector('.details-links')?.remove();
    el.classList.add('details-links');
    this.body.append(el);
  }
}
