import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { fakeApi, fixtureSummary } from '../common/testing';
import { RowOrder } from './row_order';
import { DEFAULT_ROW_VIEW, metricQuery, metricStates, recordedOrder, shownRows, type RowView } from './row_view';

// Two hosts, a rank on each, threads main and worker: rows 0, 1 (node1) and 2, 3 (node2).
const summary = fixtureSummary();
const WHOLE = { from: 0, to: summary.duration };
const view = (v: Partial<RowView>): RowView => ({ ...DEFAULT_ROW_VIEW, ...v });
const threadRows = (l: RowLayout): number[] => l.items.filter((it) => it.kind === 'thread').map((it) => it.row);

describe('row view', () => {
  it('shows every row as recorded by default (no layout change at all)', () => {
    expect(shownRows(summary, DEFAULT_ROW_VIEW, WHOLE, null)).toBeNull();
    expect(recordedOrder(summary)).toEqual([0, 1, 2, 3]);
  });

  it('sorts by name (numbers in order), flat; by a metric most first, the recorded order breaking ties', () => {
    expect(shownRows(summary, view({ sort: 'name' }), WHOLE, null)).toEqual({ rows: [0, 1, 2, 3], flat: true });
    const metric = new Map([[1, 50], [3, 900], [2, 50]]);
    expect(shownRows(summary, view({ sort: 'mpi' }), WHOLE, metric)?.rows).toEqual([3, 1, 2, 0]);
    // Until the metric is there the recorded order stands.
    expect(shownRows(summary, view({ sort: 'mpi' }), WHOLE, null)?.rows).toEqual([0, 1, 2, 3]);
  });

  it('filters on host, process and thread names, any of comma-separated words, any case', () => {
    expect(shownRows(summary, view({ filter: 'WORKER' }), WHOLE, null)).toEqual({ rows: [1, 3], flat: false });
    expect(shownRows(summary, view({ filter: 'node2, worker' }), WHOLE, null)?.rows).toEqual([1, 2, 3]);
  });

  it('hides the rows with nothing in the window; pinned rows come first and stay', () => {
    // Row 1 ends at 800 us, row 3 at 700 us.
    const late = { from: 850_000, to: 950_000 };
    expect(shownRows(summary, view({ hideEmpty: true }), late, null)?.rows).toEqual([0, 2]);
    expect(shownRows(summary, view({ hideEmpty: true, pinned: [3] }), late, null)?.rows).toEqual([3, 0, 2]);
    expect(shownRows(summary, view({ pinned: [2, 99] }), WHOLE, null)).toEqual({ rows: [2, 0, 1, 3], flat: false });
  });

  it('lays out a grouped order with a header wherever host or process changes, a flat one without', () => {
    const grouped = new RowLayout(summary, new Set(), { rows: [2, 0, 1, 3], flat: false });
    expect(grouped.items.map((it) => `${it.kind}:${it.row >= 0 ? it.row : it.label}`)).toEqual([
      'host:node2', 'process:rank 1', 'thread:2', 'host:node1', 'process:rank 0', 'thread:0', 'thread:1',
      'host:node2', 'process:rank 1', 'thread:3',
    ]);
    const folded = new RowLayout(summary, new Set(['process:0']), { rows: [0, 2, 1], flat: false });
    expect(threadRows(folded)).toEqual([2]);
    expect(folded.itemOfRow(1)?.key).toBe('process:0');
    const flat = new RowLayout(summary, new Set(['host:node1']), { rows: [3, 0], flat: true });
    expect(flat.items.map((it) => it.label)).toEqual(['rank 1 · worker <io>', 'rank 0 · main']);
    expect(flat.rowTop(0)).toBe(flat.items[1]!.y);
  });

  it('counts the time in MPI states, or in one state, per row with one query', () => {
    expect(metricStates('mpi', summary.states)).toEqual(['MPI_Send', 'MPI_Wait']);
    expect(metricStates("state:it's", summary.states)).toEqual(["it's"]);
    expect(metricStates('name', summary.states)).toEqual([]);
    expect(metricQuery(["it's", 'b'])).toBe("SELECT thread, sum(dur) FROM slices WHERE state IN ('it''s', 'b') GROUP BY thread");
    expect(metricQuery([])).toBeNull();
  });

  it('asks /query for a metric sort once, and lays out again when it comes', async () => {
    const api = fakeApi({ query: () => ({ columns: ['thread', 'sum'], rows: [[2, 10], [1, 30]], slice_columns: [], truncated: false, elapsed_ms: 1 }) });
    let changes = 0;
    const order = new RowOrder({ api: () => api, summary: () => summary, changed: () => changes++, onError: (e) => { throw e; } });
    order.set({ sort: 'mpi' });
    order.set({ filter: '' });
    await new Promise((r) => setTimeout(r, 0));
    expect(api.calls.filter((c) => c.endpoint === 'query')).toHaveLength(1);
    expect(changes).toBe(3);
    expect(order.shown(WHOLE)?.rows).toEqual([1, 2, 0, 3]);
    order.togglePin(3);
    expect(order.shown(WHOLE)?.rows).toEqual([3, 1, 2, 0]);
    order.togglePin(3);
    expect(order.view.pinned).toEqual([]);
  });
});
