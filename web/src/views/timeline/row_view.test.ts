import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { fakeApi, fixtureSummary } from '../common/testing';
import { COMM_QUERY, communicatorNames, communicatorsOf } from './row_comm';
import { RowOrder } from './row_order';
import {
  DEFAULT_ROW_VIEW, deviationNote, metricQuery, metricStates, parseRowSort, recordedOrder, shownRows, type RowView,
} from './row_view';

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

  it('sorts by imbalance: load (span less time in MPI) most first, each row noted against the mean load', () => {
    // Spans 900, 799, 1000, 695 us; in MPI 400, 0, 600, 95 us: loads 500, 799, 400, 600 us, mean 574.75 us.
    const mpi = new Map([[0, 400_000], [2, 600_000], [3, 95_000]]);
    const s = shownRows(summary, view({ sort: 'imbalance' }), WHOLE, mpi)!;
    expect(s.rows).toEqual([1, 3, 0, 2]);
    expect(s.flat).toBe(true);
    expect([...s.notes!]).toEqual([[1, '+39 %'], [3, '+4 %'], [0, '−13 %'], [2, '−30 %']]);
    // Pinned rows stay first and count in the mean; the others are sorted among themselves.
    expect(shownRows(summary, view({ sort: 'imbalance', pinned: [2] }), WHOLE, mpi)?.rows).toEqual([2, 1, 3, 0]);
    // The mean is over the rows shown: filtered to the workers, loads 799 and 600 us.
    const workers = shownRows(summary, view({ sort: 'imbalance', filter: 'worker' }), WHOLE, mpi)!;
    expect([...workers.notes!]).toEqual([[1, '+14 %'], [3, '−14 %']]);
    expect(shownRows(summary, view({ sort: 'imbalance' }), WHOLE, null)).toEqual({ rows: [0, 1, 2, 3], flat: true });
    expect(metricStates('imbalance', summary.states)).toEqual(['MPI_Send', 'MPI_Wait']);
    expect(parseRowSort('imbalance')).toBe('imbalance');
    expect([deviationNote(100, 100), deviationNote(5, 0), deviationNote(0, 10)]).toEqual(['±0 %', '', '−100 %']);
    // The layout puts the note before the thread's label.
    const layout = new RowLayout(summary, new Set(), s);
    expect(layout.items[0]!.label).toBe('+39 % · rank 0 · worker');
  });

  it('keeps the rows of one communicator (all until the communicators are known, none for an unknown one)', () => {
    const comms = communicatorsOf([['comm 2', 3], ['MPI_COMM_WORLD', 0], ['MPI_COMM_WORLD', 2], ['comm 2', 2], [null, 1], ['comm 10', 1]]);
    expect(communicatorNames(comms)).toEqual(['MPI_COMM_WORLD', 'comm 2', 'comm 10']);
    expect(shownRows(summary, view({ comm: 'comm 2' }), WHOLE, null, comms)).toEqual({ rows: [2, 3], flat: false });
    expect(shownRows(summary, view({ comm: 'comm 2', pinned: [0] }), WHOLE, null, comms)?.rows).toEqual([0, 2, 3]);
    expect(shownRows(summary, view({ comm: 'MPI_COMM_WORLD', filter: 'node2' }), WHOLE, null, comms)?.rows).toEqual([2]);
    expect(shownRows(summary, view({ comm: 'nope' }), WHOLE, null, comms)?.rows).toEqual([]);
    expect(shownRows(summary, view({ comm: 'comm 2' }), WHOLE, null, null)?.rows).toEqual([0, 1, 2, 3]);
  });

  it('asks /query for the communicators once a communicator filter is set, and again after a new snapshot', async () => {
    const api = fakeApi({
      query: (p) => ({
        columns: ['comm', 'thread'], rows: p.sql === COMM_QUERY ? [['comm 2', 1], ['comm 2', 3]] : [],
        slice_columns: [], truncated: false, elapsed_ms: 1,
      }),
    });
    const order = new RowOrder({ api: () => api, summary: () => summary, changed: () => {}, onError: (e) => { throw e; } });
    const asked = (): number => api.calls.filter((c) => c.endpoint === 'query').length;
    order.set({ filter: 'rank' });
    expect(asked()).toBe(0);
    order.set({ comm: 'comm 2' });
    order.set({ hideEmpty: false });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked()).toBe(1);
    expect(order.shown(WHOLE)?.rows).toEqual([1, 3]);
    expect(communicatorNames(await order.communicators())).toEqual(['comm 2']);
    expect(asked()).toBe(1);
    order.invalidate();
    await new Promise((r) => setTimeout(r, 0));
    expect(asked()).toBe(2);
  });
});
