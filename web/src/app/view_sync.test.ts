import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Details, StateInfo } from '../protocol/api.gen';
import type { CompactRowHeight } from '../views/timeline/compact';
import { DEFAULT_ROW_VIEW, type RowView } from '../views/timeline/row_view';
import { ViewSync, WRITE_MS, type UrlPlace, type ViewParts } from './view_sync';
import { getDerivedSeriesParam } from '../views/counters/derived';
import { paradigmColoring } from './state_style';

const STATES: StateInfo[] = [
  { index: 0, name: 'compute', category: '', color: '' },
  { index: 1, name: 'MPI_Send', category: 'MPI', color: '' },
];

/** The view's parts as plain state, and a URL that records its writes. */
function setup(search: string) {
  const s = {
    window: { from: 0, to: 1000 },
    slice: -1,
    message: null as { id: number } | null,
    folded: [] as string[],
    compact: null as CompactRowHeight | null,
    labels: 200,
    rows: DEFAULT_ROW_VIEW as RowView,
    tab: 'diagnostics',
    hidden: [false, false],
    selects: [] as string[],
  };
  const parts: ViewParts = {
    timeline: {
      window: () => ({ ...s.window }),
      setWindow: (w) => void (s.window = { ...w }),
      collapsedGroups: () => [...s.folded],
      setCollapsed: (keys) => void (s.folded = [...keys]),
      compactMode: () => s.compact,
      setCompactMode: (h) => void (s.compact = h),
      labelWidth: () => s.labels,
      setLabelWidth: (w) => void (s.labels = w),
      rows: {
        get view() {
          return s.rows;
        },
        set: (change) => void (s.rows = { ...s.rows, ...change }),
      },
      selection: {
        get selected() {
          return s.slice >= 0 ? { id: s.slice, name: '', row: 0, begin: 0, end: 0, depth: 0 } : null;
        },
        get message() {
          return s.message ? { ...s.message, sendRow: 0, recvRow: 0, send: 0, recv: 0, bytes: 0, tag: 0, focus: 'send' as const } : null;
        },
        selectSlice: (id: number, box: { row: number }) => {
          s.slice = id;
          s.selects.push(`slice ${id} row ${box.row}`);
        },
        selectMessage: (id: number) => {
          s.message = { id };
          s.selects.push(`message ${id}`);
        },
      },
      clearSelection: () => {
        s.slice = -1;
        s.message = null;
      },
    },
    panels: {
      get id() {
        return s.tab;
      },
      openById: (id) => ((s.tab = id), true),
    },
    styles: {
      states: STATES,
      visible: (i) => !s.hidden[i],
      setVisible: (i, v) => void (s.hidden[i] = !v),
    },
    sliceDetails: (id) =>
      id === 404
        ? Promise.reject(new Error('no slice'))
        : Promise.resolve<Details>({ kind: 'slice', id, name: 'x', row: 2, begin: 10, end: 20, depth: 1, callsite: null, fields: [] }),
  };
  const writes: string[] = [];
  let current = search;
  const url: UrlPlace = {
    search: () => current,
    replace: (q) => {
      current = q;
      writes.push(q);
    },
  };
  return { s, sync: new ViewSync(parts, 't1', url), writes, url: () => current };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ViewSync', () => {
  it("applies the URL's view first, then writes the URL only when the view changes, at most every WRITE_MS", async () => {
    const { s, sync, writes, url } = setup('?token=abc&trace=t1&from=100&to=300&sel=s7&tab=stats&hide=MPI_Send&fold=process:1&compact=2');
    sync.changed(); // before start: nothing is written
    expect(writes).toEqual([]);
    await sync.start();
    expect(s.window).toEqual({ from: 100, to: 300 });
    expect(s.selects).toEqual(['slice 7 row 2']);
    expect(s.tab).toBe('stats');
    expect(s.hidden).toEqual([false, true]);
    expect(s.folded).toEqual(['process:1']);
    expect(s.compact).toBe(2);
    // The URL already says it all: at most written again in the usual spelling.
    expect(writes.length).toBeLessThanOrEqual(1);
    writes.length = 0;
    s.window = { from: 150.5, to: 250 };
    sync.changed();
    sync.changed();
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(WRITE_MS);
    expect(writes).toHaveLength(1);
    expect(url()).toBe('?token=abc&trace=t1&from=150&to=250&sel=s7&tab=stats&hide=MPI_Send&fold=process%3A1&compact=2');
    s.compact = null;
    sync.changed();
    vi.advanceTimersByTime(WRITE_MS);
    expect(new URLSearchParams(url()).has('compact')).toBe(false);
    s.slice = -1;
    s.message = { id: 9 };
    sync.changed();
    vi.advanceTimersByTime(WRITE_MS);
    expect(new URLSearchParams(url()).get('sel')).toBe('m9');
  });

  it('selects a message by id, and nothing when the slice is gone', async () => {
    const a = setup('?from=0&to=10&sel=m5');
    await a.sync.start();
    expect(a.s.selects).toEqual(['message 5']);
    const b = setup('?from=0&to=10&sel=s404');
    b.s.slice = 3;
    await b.sync.start();
    expect(b.s.slice).toBe(-1);
  });

  it('leaves the states as saved when the URL has no view, and writes the whole view then', async () => {
    const { s, sync, url } = setup('?token=abc');
    s.hidden = [true, false];
    await sync.start();
    expect(s.hidden).toEqual([true, false]);
    expect(url()).toBe('?token=abc&trace=t1&from=0&to=1000&tab=diagnostics&hide=compute');
  });

  it('applies a named view in place', async () => {
    const { s, sync } = setup('?token=abc');
    await sync.start();
    await sync.apply({ trace: null, window: { from: 5, to: 6 }, selection: null, tab: 'matrix', hidden: [], folded: ['host:h'], compact: 'fit', labels: 300, rows: { ...DEFAULT_ROW_VIEW, sort: 'name', pinned: [2] }, paradigm: true, series: 'sp:MPI_*|sum' });
    expect(getDerivedSeriesParam()).toBe('sp:MPI_*|sum');
    expect(paradigmColoring()).toBe(true);
    expect(s).toMatchObject({ window: { from: 5, to: 6 }, tab: 'matrix', folded: ['host:h'], hidden: [false, false], slice: -1, compact: 'fit', labels: 300 });
    expect(s.rows).toMatchObject({ sort: 'name', pinned: [2] });
    await sync.apply({ trace: null, window: null, selection: null, tab: '', hidden: [], folded: [], compact: null, labels: null, rows: DEFAULT_ROW_VIEW, paradigm: false, series: '' });
    expect(paradigmColoring()).toBe(false);
    expect(getDerivedSeriesParam()).toBe('');
    expect(s.labels).toBe(200);
    expect(s.rows).toEqual(DEFAULT_ROW_VIEW);
    sync.stop();
  });
});
