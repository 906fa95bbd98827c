import { describe, expect, it } from 'vitest';
import type { EndpointTypes, QueryParams, QueryResult } from '../../protocol/api.gen';
import { fakeApi } from '../common/testing';
import type { ApiClient } from '../context';
import { cancelQuery, getAbortable, QueryAborted, SLICE_LOOKUP_CHUNK, sliceRefs, sliceRefsSql, sliceTarget } from './query_requests';

/** Answers the lookup statement from a table of slices (id -> [thread, state, begin, end, depth]). */
function lookup(slices: Map<number, number[]>) {
  return (p: QueryParams): QueryResult => {
    const ids = /IN \(([\d,]*)\)/.exec(p.sql)![1]!.split(',').map(Number);
    const rows = ids.filter((id) => slices.has(id)).map((id) => [id, ...slices.get(id)!]);
    return { columns: ['id', 'thread', 'state_id', 'begin', 'end', 'depth'], rows, slice_columns: [0], truncated: false, elapsed_ms: 1 };
  };
}

describe('getAbortable', () => {
  it('passes the signal to a client that takes one, and rejects with QueryAborted on abort', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const api = {
      get: () => Promise.reject(new Error('not this one')),
      request: (_e: string, _p: unknown, signal?: AbortSignal) => {
        seen.push(signal);
        return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      },
    } as unknown as ApiClient;
    const abort = new AbortController();
    const p = getAbortable(api, 'query', { sql: 'SELECT 1' }, abort.signal);
    expect(seen).toEqual([abort.signal]);
    abort.abort();
    await expect(p).rejects.toBeInstanceOf(QueryAborted);
    await expect(p).rejects.toThrow('query: cancelled');
  });

  it('stops waiting for a client without signals too', async () => {
    const api = fakeApi({ query: () => new Promise<QueryResult>(() => {}) });
    const abort = new AbortController();
    const p = getAbortable(api, 'query', { sql: 'SELECT 1' }, abort.signal);
    abort.abort();
    await expect(p).rejects.toBeInstanceOf(QueryAborted);
  });

  it("passes answers and the server's errors through", async () => {
    const ok: QueryResult = { columns: ['x'], rows: [[1]], slice_columns: [], truncated: false, elapsed_ms: 0 };
    expect(await getAbortable(fakeApi({ query: () => ok }), 'query', { sql: 'SELECT 1' }, new AbortController().signal)).toEqual(ok);
    const bad = fakeApi({ query: () => Promise.reject(new Error('query: query: no such column: nope')) });
    await expect(getAbortable(bad, 'query', { sql: 'x' }, new AbortController().signal)).rejects.toThrow('no such column');
  });
});

describe('cancelQuery', () => {
  it('asks until a run of that id was stopped', async () => {
    let n = 0;
    const api = fakeApi({ query_cancel: () => ({ cancelled: ++n >= 3 }) });
    expect(await cancelQuery(api, 'q1', 5, 1)).toBe(true);
    expect(api.calls.map((c) => c.params)).toEqual([{ id: 'q1' }, { id: 'q1' }, { id: 'q1' }]);
  });

  it('gives up after its tries, and on an error', async () => {
    const api = fakeApi({ query_cancel: () => ({ cancelled: false }) });
    expect(await cancelQuery(api, 'q1', 3, 1)).toBe(false);
    expect(api.calls).toHaveLength(3);
    const failing = fakeApi({});
    expect(await cancelQuery(failing, 'q1', 3, 1)).toBe(false);
    expect(failing.calls).toHaveLength(1);
  });
});

describe('slice lookups', () => {
  it('asks for the slices by id', () => {
    expect(sliceRefsSql([3, 1])).toBe('SELECT id, thread, state_id, begin, end, depth FROM slices WHERE id IN (3,1)');
  });

  it('returns SliceRefs in the order asked, unknown ids left out, in chunks', async () => {
    const slices = new Map<number, number[]>();
    for (let i = 0; i < 1000; i++) slices.set(i, [i % 4, 5, i * 10, i * 10 + 5, i % 2]);
    const api = fakeApi({ query: lookup(slices) });
    const ids = [7, 3, 5000, ...Array.from({ length: SLICE_LOOKUP_CHUNK + 10 }, (_, i) => 100 + i)];
    const refs = await sliceRefs(api, ids);
    expect(refs[0]).toEqual({ id: 7, row: 3, state: 5, begin: 70, end: 75, depth: 1 });
    expect(refs.map((r) => r.id)).toEqual(ids.filter((id) => id !== 5000));
    expect(api.calls).toHaveLength(2);
    const params = api.calls.map((c) => c.params as EndpointTypes['query']['params']);
    expect(params[0]!.limit).toBe(SLICE_LOOKUP_CHUNK);
    expect(params[0]!.sql.length).toBeLessThan(4000);
  });

  it('asks nothing for no ids', async () => {
    const api = fakeApi({});
    expect(await sliceRefs(api, [])).toEqual([]);
    expect(api.calls).toHaveLength(0);
  });

  it("finds a slice's place from its details", async () => {
    const api = fakeApi({
      details: (p) => ({ kind: 'slice', id: p.id, name: 'MPI_Recv', row: 1, begin: 334, end: 342, depth: 0, callsite: null, fields: [] }),
    });
    expect(await sliceTarget(api, 810)).toEqual({ row: 1, begin: 334, end: 342, slice: 810 });
    expect(api.calls[0]).toEqual({ endpoint: 'details', params: { kind: 'slice', id: 810 } });
  });
});
