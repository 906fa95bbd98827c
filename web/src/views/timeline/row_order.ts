// The timeline's row view (row_view.ts) as it changes: the user's sort,
// filters, pins and empty-row hiding, the per-row metric a sort by time or
// imbalance needs (asked of /query once per sort and snapshot), the trace's
// communicators a communicator filter needs (row_comm.ts, asked once per
// snapshot), and the rows shown over the window now. TimelineView holds one and lays its rows out from `shown`.
import type { ShownRows } from '../../base/layout';
import type { TraceSummary } from '../../protocol/api.gen';
import type { ApiClient } from '../context';
import { CommMembers, type Communicators } from './row_comm';
import { DEFAULT_ROW_VIEW, metricQuery, metricStates, parseRowSort, shownRows, sortNeedsMetric, type RowView } from './row_view';

export interface RowOrderHost {
  api(): ApiClient;
  summary(): TraceSummary;
  /** The rows shown may have changed: lay them out again. */
  changed(): void;
  onError(e: unknown): void;
}

export class RowOrder {
  private viewValue: RowView = DEFAULT_ROW_VIEW;
  private metric: Map<number, number> | null = null;
  /** the sort the metric is (being) fetched for; '' none */
  private metricFor = '';
  private generation = 0;
  private shownKey = '';
  private lastShown: ShownRows | null = null;
  /** the trace's communicators and their rows, asked of /query when first wanted */
  readonly comms: CommMembers;

  constructor(private readonly host: RowOrderHost) {
    this.comms = new CommMembers(() => host.api());
  }

  get view(): RowView {
    return this.viewValue;
  }

  /** Changes part of the view; the host lays out again (and the metric is asked for when the sort needs it). */
  set(change: Partial<RowView>): void {
    const next = { ...this.viewValue, ...change };
    next.sort = parseRowSort(next.sort);
    next.pinned = [...new Set(next.pinned)];
    next.comm = next.comm ?? '';
    this.viewValue = next;
    this.fetchMetric();
    this.fetchComms();
    this.host.changed();
  }

  /** The communicators' names and rows (asked of /query the first time). */
  communicators(): Promise<Communicators> {
    return this.comms.get();
  }

  /** The notes before the labels of the rows last laid out (their deviation from the mean load when sorted by imbalance). */
  notes(): ReadonlyMap<number, string> {
    return this.lastShown?.notes ?? new Map<number, string>();
  }

  /** Pins `row` if it is not, else unpins it. */
  togglePin(row: number): void {
    const p = this.viewValue.pinned;
    this.set({ pinned: p.includes(row) ? p.filter((r) => r !== row) : [...p, row] });
  }

  /** A live trace's new snapshot: the metric is asked for again. */
  invalidate(): void {
    this.metricFor = '';
    this.metric = null;
    this.fetchMetric();
    this.comms.invalidate();
    this.fetchComms();
  }

  /** The rows shown over `window`; null: every row as recorded. */
  shown(window: { from: number; to: number }): ShownRows | null {
    const s = shownRows(this.host.summary(), this.viewValue, window, this.metric, this.comms.known);
    this.shownKey = s ? `${s.flat}|${s.rows.join(',')}` : '';
    this.lastShown = s;
    return s;
  }

  /** Whether the rows shown over `window` differ from those last laid out (hidden empty rows follow the window). */
  changedFor(window: { from: number; to: number }): boolean {
    if (!this.viewValue.hideEmpty) return false;
    const key = this.shownKey;
    const s = shownRows(this.host.summary(), this.viewValue, window, this.metric, this.comms.known);
    return (s ? `${s.flat}|${s.rows.join(',')}` : '') !== key;
  }

  private fetchMetric(): void {
    const sort = this.viewValue.sort;
    const sql = metricQuery(metricStates(sort, this.host.summary().states));
    if (sort === this.metricFor) return;
    this.metricFor = sort;
    this.metric = null;
    const gen = ++this.generation;
    if (!sql) {
      // No state to count: every row's time in them is 0 (a sort by imbalance still orders by span).
      if (sortNeedsMetric(sort)) this.metric = new Map();
      return;
    }
    this.host
      .api()
      .get('query', { sql, limit: 100000 })
      .then((res) => {
        if (gen !== this.generation) return;
        const m = new Map<number, number>();
        for (const [row, ns] of res.rows) if (typeof row === 'number' && typeof ns === 'number') m.set(row, ns);
        this.metric = m;
        this.host.changed();
      })
      .catch((e: unknown) => {
        if (gen === this.generation) this.host.onError(e);
      });
  }

  /** Asks for the communicators when a communicator filter needs them; lays out again when they come. */
  private fetchComms(): void {
    if (!this.viewValue.comm || (this.comms.known && !this.comms.stale)) return;
    this.comms.get().then(
      () => this.host.changed(),
      (e: unknown) => this.host.onError(e),
    );
  }
}
