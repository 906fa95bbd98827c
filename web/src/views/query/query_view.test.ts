// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import type { QueryParams, QueryResult } from '../../protocol/api.gen';
import { fakeContext, flush, viewHost, type Handlers } from '../common/testing';
import { QUERY_EXAMPLES } from './query_examples';
import { keepResult, SQL_KEY, type TextStore } from './query_store';
import { CANCELLED, QUERY_VIEW, QueryView } from './query_view';

const RECEIVES: QueryResult = {
  columns: ['id', 'rank', 'dur', 'sender', 'note'],
  rows: [
    [810, 1, 8652749, 0, null],
    [216, 0, 7916014, 2, 'late'],
  ],
  slice_columns: [0],
  truncated: false,
  elapsed_ms: 3,
};

function memoryStore(init: Record<string, string> = {}): TextStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(init));
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

/** The user's statement answers `answer`; the lookups of slices answer from their ids. */
function queryHandler(answer: (p: QueryParams) => QueryResult | Promise<QueryResult>) {
  return (p: QueryParams): QueryResult | Promise<QueryResult> => {
    const m = /FROM slices WHERE id IN \(([\d,]*)\)$/.exec(p.sql);
    if (!m) return answer(p);
    const rows = m[1]!.split(',').map((id) => [Number(id), 1, 5, Number(id) * 10, Number(id) * 10 + 5, 0]);
    return { columns: ['id', 'thread', 'state_id', 'begin', 'end', 'depth'], rows, slice_columns: [0], truncated: false, elapsed_ms: 0 };
  };
}

const host = viewHost();
const q = <T extends Element = HTMLElement>(sel: string) => host().querySelector(`[data-testid=${sel}]`) as T | null;

function setup(handlers: Handlers = {}, store = memoryStore()) {
  const f = fakeContext({
    query: queryHandler(() => RECEIVES),
    query_cancel: () => ({ cancelled: true }),
    details: (p) => ({ kind: 'slice', id: p.id, name: 'MPI_Recv', row: 1, begin: 100, end: 200, depth: 0, callsite: null, fields: [] }),
    ...handlers,
  });
  const view = new QueryView(f.ctx, store);
  view.mount(host());
  return { ...f, view, store };
}

const userQueries = (api: { calls: { endpoint: string; params: unknown }[] }) =>
  api.calls.filter((c) => c.endpoint === 'query' && !/WHERE id IN/.test((c.params as QueryParams).sql)).map((c) => c.params as QueryParams);

async function runSql(sql: string): Promise<void> {
  const ta = q<HTMLTextAreaElement>('query-sql')!;
  ta.value = sql;
  ta.dispatchEvent(new Event('input'));
  q<HTMLButtonElement>('query-run')!.click();
  await flush();
}

beforeEach(() => keepResult('t0', null));

describe('query view', () => {
  it('is the Query tab and keeps up with live traces itself', () => {
    expect(QUERY_VIEW.id).toBe('query');
    expect(QUERY_VIEW.title).toBe('Query');
    expect(QUERY_VIEW.followsUpdates).toBe(true);
  });

  it('starts with the first example, or the SQL last typed, and keeps what is typed', () => {
    setup();
    expect(q<HTMLTextAreaElement>('query-sql')!.value).toBe(QUERY_EXAMPLES[0]!.sql);
    host().replaceChildren();
    const store = memoryStore({ [SQL_KEY]: 'SELECT 42' });
    setup({}, store);
    const ta = q<HTMLTextAreaElement>('query-sql')!;
    expect(ta.value).toBe('SELECT 42');
    expect(ta.style.fontFamily).toBe('monospace');
    ta.value = 'SELECT 43';
    ta.dispatchEvent(new Event('input'));
    expect(store.data.get(SQL_KEY)).toBe('SELECT 43');
  });

  it('runs the statement and shows the rows as a table', async () => {
    const { api } = setup();
    await runSql('SELECT 1');
    const [p] = userQueries(api);
    expect(p).toMatchObject({ sql: 'SELECT 1', limit: 1000, timeout_ms: 10000 });
    expect(p!.id).toMatch(/^q[0-9a-z]{12}$/);
    const heads = [...host().querySelectorAll('th')].map((th) => th.textContent);
    expect(heads).toEqual(['id', 'rank', 'dur', 'sender', 'note']);
    const rows = host().querySelectorAll<HTMLTableRowElement>('[data-testid=query-row]');
    expect(rows).toHaveLength(2);
    const cells = [...rows[0]!.cells];
    expect(cells.map((c) => c.textContent)).toEqual(['810', '1', '8652749', '0', '—']);
    expect(cells[2]!.style.textAlign).toBe('right');
    expect(cells[4]!.className).toBe('null');
    expect(cells[4]!.style.color).not.toBe('');
    expect(rows[1]!.cells[4]!.style.textAlign).not.toBe('right');
    expect(q('query-info')!.textContent).toBe('2 rows in 3.0 ms');
    expect(q('view-loading')).toBeNull();
    expect(q<HTMLButtonElement>('query-run')!.disabled).toBe(false);
    expect(q<HTMLButtonElement>('query-cancel')!.hidden).toBe(true);
  });

  it('runs on Ctrl+Enter and Cmd+Enter, not on Enter alone', async () => {
    const { api } = setup();
    const ta = q<HTMLTextAreaElement>('query-sql')!;
    ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flush();
    expect(userQueries(api)).toHaveLength(0);
    ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }));
    await flush();
    ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', metaKey: true, bubbles: true }));
    await flush();
    expect(userQueries(api)).toHaveLength(2);
  });

  it("shows the server's error as one red line", async () => {
    setup({ query: () => Promise.reject(new Error('query: query: no such column: nope')) });
    await runSql('SELECT nope FROM slices');
    const err = q('view-error')!;
    expect(err.textContent).toBe('query: no such column: nope');
    expect(err.style.color).not.toBe('');
    expect(q('query-table')).toBeNull();
    expect(q<HTMLButtonElement>('query-run')!.disabled).toBe(false);
  });

  it('selects and zooms to the slice of a clicked row, marking the row', async () => {
    const { timeline } = setup();
    await runSql('SELECT 1');
    const rows = host().querySelectorAll<HTMLTableRowElement>('[data-testid=query-row]');
    expect(rows[1]!.dataset['slice']).toBe('216');
    rows[1]!.cells[2]!.click();
    await flush();
    expect(timeline.jumps).toEqual([{ row: 1, begin: 100, end: 200, slice: 216 }]);
    expect(rows[1]!.getAttribute('aria-selected')).toBe('true');
    rows[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flush();
    expect(timeline.jumps.map((j) => j.slice)).toEqual([216, 810]);
    expect(rows[1]!.hasAttribute('aria-selected')).toBe(false);
    expect(rows[0]!.getAttribute('aria-selected')).toBe('true');
  });

  it('leaves rows without a slice column alone', async () => {
    const { timeline } = setup({ query: () => ({ ...RECEIVES, slice_columns: [] }) });
    await runSql('SELECT 1');
    expect(q<HTMLButtonElement>('query-pin')!.disabled).toBe(true);
    host().querySelector<HTMLElement>('[data-testid=query-row] td')!.click();
    await flush();
    expect(timeline.jumps).toEqual([]);
  });

  it("pins the result's slices as the highlight, unpins on a second press and on a new run", async () => {
    const { timeline } = setup();
    await runSql('SELECT 1');
    const pin = q<HTMLButtonElement>('query-pin')!;
    expect(pin.disabled).toBe(false);
    pin.click();
    await flush();
    expect(pin.getAttribute('aria-pressed')).toBe('true');
    expect(timeline.highlights.at(-1)!.map((s) => s.id)).toEqual([810, 216]);
    expect(timeline.highlights.at(-1)![0]).toEqual({ id: 810, row: 1, state: 5, begin: 8100, end: 8105, depth: 0 });
    pin.click();
    expect(timeline.highlights.at(-1)).toEqual([]);
    expect(pin.getAttribute('aria-pressed')).toBe('false');
    pin.click();
    await flush();
    expect(timeline.highlights.at(-1)).toHaveLength(2);
    await runSql('SELECT 2');
    expect(timeline.highlights.at(-1)).toEqual([]);
    expect(pin.getAttribute('aria-pressed')).toBe('false');
  });

  it('cancels a running statement on the server and lets the next one run', async () => {
    let answer: (r: QueryResult) => void = () => {};
    const { api } = setup({ query: queryHandler(() => new Promise<QueryResult>((r) => (answer = r))) });
    await runSql('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n) SELECT count(*) FROM n');
    const cancel = q<HTMLButtonElement>('query-cancel')!;
    expect(cancel.hidden).toBe(false);
    expect(q<HTMLButtonElement>('query-run')!.disabled).toBe(true);
    expect(q('view-loading')!.textContent).toBe('Running…');
    cancel.click();
    await flush();
    expect(q('view-error')!.textContent).toBe(CANCELLED);
    expect(cancel.hidden).toBe(true);
    const id = userQueries(api)[0]!.id;
    expect(api.calls.filter((c) => c.endpoint === 'query_cancel').map((c) => c.params)).toEqual([{ id }]);
    answer(RECEIVES); // too late: the answer of a cancelled run is dropped
    await flush();
    expect(q('query-table')).toBeNull();
    q<HTMLButtonElement>('query-run')!.click();
    await flush();
    const ids = userQueries(api).map((p) => p.id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('fills the text area from the examples menu', () => {
    const { store } = setup();
    const sel = q<HTMLSelectElement>('query-examples')!;
    sel.value = 'slow-receives';
    sel.dispatchEvent(new Event('change'));
    expect(q<HTMLTextAreaElement>('query-sql')!.value).toBe(QUERY_EXAMPLES[1]!.sql);
    expect(store.data.get(SQL_KEY)).toBe(QUERY_EXAMPLES[1]!.sql);
    expect(sel.value).toBe('');
  });

  it('shows the last result again when the tab is opened again; unmounting stops a run and clears its pin', async () => {
    const { ctx, view, timeline, api } = setup();
    await runSql('SELECT 1');
    q<HTMLButtonElement>('query-pin')!.click();
    await flush();
    view.unmount();
    expect(timeline.highlights.at(-1)).toEqual([]);
    host().replaceChildren();
    const again = QUERY_VIEW.create(ctx);
    again.mount(host());
    expect(host().querySelectorAll('[data-testid=query-row]')).toHaveLength(2);
    // A run in flight when the tab closes is cancelled on the server.
    api.calls.length = 0;
    (ctx.api as unknown as { get: unknown }).get = (endpoint: string, params: unknown) => {
      api.calls.push({ endpoint, params });
      return endpoint === 'query' ? new Promise(() => {}) : Promise.resolve({ cancelled: true });
    };
    q<HTMLButtonElement>('query-run')!.click();
    again.unmount();
    await flush();
    expect(api.calls.map((c) => c.endpoint)).toEqual(['query', 'query_cancel']);
  });
});
