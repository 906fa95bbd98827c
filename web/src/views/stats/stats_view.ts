// Per-state statistics of the whole trace, one process or one thread, as a
// sortable table with a CSV download. It covers the timeline's area selection
// when there is one, else its window when zoomed in (common/panel_window.ts), and
// asks again when they change (window moves debounced; the Communication tab
// follows them the same way).
import type { Callsite, StatsParams, StatsResult, StatsRow } from '../../protocol/api.gen';
import { sourceLink } from '../../widgets/details';
import { downloadBlob } from '../../widgets/export';
import { el, RequestSeq, StatusLine } from '../common/dom';
import { formatDuration } from '../common/format';
import type { View, ViewContext, ViewFactory } from '../context';
import {
  markPanelWindow,
  PanelWindowFollower,
  PANEL_WINDOW_DEBOUNCE_MS,
  windowLine,
  windowParams,
  type PanelWindow,
} from '../common/panel_window';
import {
  callsiteText,
  COLUMNS,
  nextSort,
  parseScope,
  scopeValue,
  sortRows,
  statsCsv,
  type Scope,
  type SortDir,
  type SortField,
} from './stats_table';

/** ' function (file:line)', the file:line a link to the Source tab. */
function callsiteCell(c: Callsite): HTMLElement {
  if (!c.file || c.line <= 0) return el('span', { class: 'callsite' }, ` ${callsiteText(c)}`);
  const link = sourceLink(c.file, c.line);
  return c.function ? el('span', { class: 'callsite' }, ` ${c.function} (`, link, ')') : el('span', { class: 'callsite' }, ' ', link);
}

/** How long the window must rest before the table follows it (a drag or wheel zoom moves it every frame). */
export const WINDOW_DEBOUNCE_MS = PANEL_WINDOW_DEBOUNCE_MS;

export class StatsView implements View {
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private result: StatsResult | null = null;
  private sort: { field: SortField; dir: SortDir } = { field: 'total', dir: 'desc' };
  private scope: Scope = { kind: 'all' };
  private callsites = false;
  private unsubscribe: (() => void)[] = [];
  private mounted = false;
  private host: HTMLElement | null = null;
  /** the part of the trace of the table shown, and the key of the newest asked */
  private shownWindow: PanelWindow = { kind: 'trace' };
  /** the part of the trace covered, following the timeline */
  private readonly covered: PanelWindowFollower;

  private scopeSelect!: HTMLSelectElement;
  private callsiteInput!: HTMLInputElement;
  private csvButton!: HTMLButtonElement;
  private info!: HTMLDivElement;
  private windowInfo!: HTMLDivElement;
  private dropped!: HTMLDivElement;
  private table!: HTMLTableElement;
  private tbody!: HTMLTableSectionElement;

  constructor(private readonly ctx: ViewContext) {
    this.covered = new PanelWindowFollower(ctx.timeline, () => this.ctx.summary.duration, () => this.load());
  }

  mount(host: HTMLElement): void {
    this.mounted = true;
    this.host = host;
    host.classList.add('stats-view');
    const { summary } = this.ctx;

    this.scopeSelect = el('select', { 'data-testid': 'stats-scope', 'aria-label': 'scope' });
    this.scopeSelect.append(el('option', { value: 'all' }, 'all processes'));
    if (summary.processes.length > 0) {
      const g = el('optgroup', { label: 'Process' });
      for (const p of summary.processes) g.append(el('option', { value: scopeValue({ kind: 'process', index: p.index }) }, p.name));
      this.scopeSelect.append(g);
    }
    if (summary.threads.length > 0) {
      const g = el('optgroup', { label: 'Thread' });
      for (const t of summary.threads) {
        const proc = summary.processes[t.process];
        const label = proc ? `${proc.name} / ${t.name}` : t.name;
        g.append(el('option', { value: scopeValue({ kind: 'thread', index: t.index }) }, label));
      }
      this.scopeSelect.append(g);
    }
    this.scopeSelect.addEventListener('change', () => {
      this.scope = parseScope(this.scopeSelect.value);
      this.load();
    });

    this.callsiteInput = el('input', { type: 'checkbox', 'data-testid': 'stats-callsites' });
    this.callsiteInput.addEventListener('change', () => {
      this.callsites = this.callsiteInput.checked;
      this.load();
    });

    this.csvButton = el('button', { type: 'button', 'data-testid': 'stats-csv', disabled: true }, 'CSV');
    this.csvButton.addEventListener('click', () => this.downloadCsv());

    const controls = el(
      'div',
      { class: 'view-controls' },
      el('label', {}, 'Scope ', this.scopeSelect),
      el('label', { title: 'one row per state and call site (whole trace only, not for a window or selection)' }, this.callsiteInput, ' by call site'),
      this.csvButton,
    );

    this.table = el('table', { class: 'data-table stats-table', 'data-testid': 'stats-table' });
    const headRow = el('tr');
    for (const c of COLUMNS) {
      const th = el('th', { 'data-sort': c.field, class: c.numeric ? 'num sortable' : 'sortable', scope: 'col' }, c.title);
      th.addEventListener('click', () => {
        this.sort = nextSort(this.sort, c.field);
        this.render();
      });
      headRow.append(th);
    }
    this.tbody = el('tbody');
    this.table.append(el('thead', {}, headRow), this.tbody);
    this.info = el('div', { class: 'stats-info', 'data-testid': 'stats-info' });
    this.windowInfo = el('div', { class: 'stats-info stats-window', 'data-testid': 'stats-window' });
    this.dropped = el('div', { class: 'stats-dropped', 'data-testid': 'stats-dropped' });

    host.append(controls, this.status.element, this.windowInfo, this.info, el('div', { class: 'table-scroll' }, this.table), this.dropped);
    this.unsubscribe.push(this.ctx.states.onChange(() => this.render()));
    this.unsubscribe.push(this.covered.follow());
    this.load();
  }

  unmount(): void {
    this.mounted = false;
    this.seq.invalidate();
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    markPanelWindow(this.host, null);
    this.host = null;
  }

  /** The rows as shown (sorted). */
  rows(): StatsRow[] {
    return this.result ? sortRows(this.result.rows, this.sort.field, this.sort.dir) : [];
  }

  /** The scope's parameters and the window's; call sites only over the whole trace. */
  private params(w: PanelWindow): StatsParams {
    const p: StatsParams = {};
    if (this.scope.kind === 'process') p.process = this.scope.index;
    if (this.scope.kind === 'thread') p.thread = this.scope.index;
    if (this.callsitesAllowed(w) && this.callsites) p.callsites = true;
    return { ...p, ...windowParams(w) };
  }

  private load(): void {
    if (!this.mounted) return;
    const w = this.covered.current();
    const n = this.seq.next();
    this.covered.asked(w);
    this.updateCallsiteInput(w);
    this.host?.setAttribute('data-pending', 'true');
    this.status.loading();
    this.ctx.api
      .get('stats', this.params(w))
      .then((r) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        this.result = r;
        this.shownWindow = w;
        this.host?.removeAttribute('data-pending');
        this.render();
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.host?.removeAttribute('data-pending');
        this.status.error(err);
      });
  }

  private callsitesAllowed(w: PanelWindow): boolean {
    return this.scope.kind === 'all' && w.kind === 'trace';
  }

  private updateCallsiteInput(w: PanelWindow): void {
    const allowed = this.callsitesAllowed(w);
    this.callsiteInput.disabled = !allowed;
    this.callsiteInput.checked = allowed && this.callsites;
  }

  private render(): void {
    for (const th of this.table.querySelectorAll<HTMLElement>('th[data-sort]')) {
      const on = th.dataset['sort'] === this.sort.field;
      th.setAttribute('aria-sort', on ? (this.sort.dir === 'asc' ? 'ascending' : 'descending') : 'none');
      th.classList.toggle('sorted', on);
    }
    const r = this.result;
    this.csvButton.disabled = !r || r.rows.length === 0;
    if (!r) return;
    this.windowInfo.textContent = windowLine(this.shownWindow);
    markPanelWindow(this.host, this.shownWindow);
    this.info.textContent =
      `${r.scope}: ${formatDuration(r.thread_time)} of thread time, ${r.rows.length} rows` +
      (r.dropped && r.dropped.records > 0 ? ' (the live history window only; what it dropped is below)' : '');
    this.renderDropped(r);
    const showCallsite = r.rows.some((row) => row.callsite !== null);
    const trs = this.rows().map((row) => {
      const tr = el('tr', { 'data-testid': 'stats-row', 'data-state': row.state });
      for (const c of COLUMNS) {
        const td = el('td', { class: c.numeric ? 'num' : 'name' });
        if (c.field === 'name') {
          const swatch = el('span', { class: 'swatch', 'data-testid': 'swatch', 'aria-hidden': 'true' });
          swatch.style.display = 'inline-block';
          swatch.style.width = '10px';
          swatch.style.height = '10px';
          swatch.style.marginRight = '4px';
          swatch.style.background = this.ctx.states.color(row.state);
          td.append(swatch, row.name);
          if (showCallsite && row.callsite) td.append(callsiteCell(row.callsite));
        } else {
          td.textContent = c.format(row);
        }
        tr.append(td);
      }
      return tr;
    });
    if (trs.length === 0) {
      trs.push(el('tr', {}, el('td', { colspan: COLUMNS.length, class: 'empty' }, 'no slices in this scope')));
    }
    this.tbody.replaceChildren(...trs);
  }

  /** A live trace: what its history window dropped, per state (slices that ended before it). */
  private renderDropped(r: StatsResult): void {
    const d = r.dropped;
    if (!d || d.records === 0) {
      this.dropped.replaceChildren();
      return;
    }
    const head = el('tr', {}, el('th', { scope: 'col' }, 'state'), el('th', { scope: 'col', class: 'num' }, 'count'), el('th', { scope: 'col', class: 'num' }, 'total'));
    const rows = d.states.map((s) =>
      el('tr', { 'data-testid': 'stats-dropped-row' }, el('td', { class: 'name' }, s.name), el('td', { class: 'num' }, s.count.toLocaleString('en-US')), el('td', { class: 'num' }, formatDuration(s.total))),
    );
    const line =
      `Before the window: ${d.records.toLocaleString('en-US')} records dropped, ` +
      `${d.sends.toLocaleString('en-US')} sends (${d.bytes_sent.toLocaleString('en-US')} bytes), ${d.receives.toLocaleString('en-US')} receives; ` +
      'slices that ended there:';
    this.dropped.replaceChildren(el('div', { class: 'stats-info' }, line), el('table', { class: 'data-table' }, el('thead', {}, head), el('tbody', {}, ...rows)));
  }

  private downloadCsv(): void {
    const csv = statsCsv(this.rows());
    const base = this.ctx.summary.name.replace(/\.[^.]*$/, '') || 'trace';
    downloadBlob(new Blob([csv], { type: 'text/csv' }), `${base}-stats.csv`);
  }
}

export const STATS_VIEW: ViewFactory = {
  id: 'stats',
  title: 'Statistics',
  create: (ctx) => new StatsView(ctx),
};
