import { describe, expect, it } from 'vitest';
import { buildPath } from '../../engine/client';
import type { QueryResult } from '../../protocol/api.gen';
import { DEFAULT_SQL, QUERY_EXAMPLES } from './query_examples';
import {
  formatCell, formatElapsed, newQueryId, NULL_TEXT, numericColumn, QUERY_LIMIT, QUERY_TIMEOUT_MS, queryErrorMessage,
  queryParams, resultInfo, rowSlice, sliceColumn, sliceIds,
} from './query_format';
import { ApiRequestError } from '../../engine/client';

const result: QueryResult = {
  columns: ['id', 'rank', 'dur', 'send', 'state'],
  rows: [
    [810, 1, 8652749, 12, 'MPI_Recv'],
    [216, null, 7916014, null, 'MPI_Recv'],
    [null, 2, 0.5, 810, null],
  ],
  slice_columns: [0, 3],
  truncated: false,
  elapsed_ms: 3.004,
};

describe('formatCell', () => {
  it('prints integers whole, reals to 6 decimals, strings as they are, NULL as a dash', () => {
    expect(formatCell(1310523974)).toBe('1310523974');
    expect(formatCell(-3)).toBe('-3');
    expect(formatCell(0)).toBe('0');
    expect(formatCell(12.5)).toBe('12.5');
    expect(formatCell(1 / 3)).toBe('0.333333');
    expect(formatCell(-0.0000001)).toBe('0');
    expect(formatCell(2.5e20)).toBe('250000000000000000000');
    expect(formatCell('MPI_Recv')).toBe('MPI_Recv');
    expect(formatCell('')).toBe('');
    expect(formatCell(null)).toBe(NULL_TEXT);
    expect(NULL_TEXT).toBe('—');
  });

  it('tells numeric columns by their first non-NULL value', () => {
    expect(numericColumn(result.rows, 0)).toBe(true);
    expect(numericColumn(result.rows, 1)).toBe(true);
    expect(numericColumn(result.rows, 4)).toBe(false);
    expect(numericColumn([[null], [null]], 0)).toBe(false);
  });
});

describe('slice columns', () => {
  it('takes the first slice column that exists', () => {
    expect(sliceColumn(result)).toBe(0);
    expect(sliceColumn({ columns: ['a', 'b'], slice_columns: [5, 1] })).toBe(1);
    expect(sliceColumn({ columns: ['a'], slice_columns: [] })).toBe(-1);
  });

  it("reads a row's slice id, -1 for NULL, text or no column", () => {
    expect(rowSlice(result.rows[0]!, 0)).toBe(810);
    expect(rowSlice(result.rows[2]!, 0)).toBe(-1);
    expect(rowSlice(['x'], 0)).toBe(-1);
    expect(rowSlice([1.5], 0)).toBe(-1);
    expect(rowSlice([5], -1)).toBe(-1);
  });

  it('collects every slice id of every slice column once', () => {
    expect(sliceIds(result)).toEqual([810, 12, 216]);
    expect(sliceIds({ ...result, slice_columns: [] })).toEqual([]);
  });
});

describe('the request', () => {
  it('asks with the default limit and timeout and names the run', () => {
    expect(queryParams('SELECT 1', 'q1')).toEqual({ sql: 'SELECT 1', limit: QUERY_LIMIT, timeout_ms: QUERY_TIMEOUT_MS, id: 'q1' });
    expect(QUERY_LIMIT).toBe(1000);
    expect(QUERY_TIMEOUT_MS).toBe(10000);
  });

  it('builds the URL with the SQL escaped', () => {
    const sql = "SELECT state, count(*) AS n FROM slices WHERE state LIKE 'MPI\\_%' AND dur > 5 & 1 = 1; -- #x";
    const path = buildPath('query', queryParams(sql, 'qabc'), 'mpi_farm');
    expect(path.startsWith('/api/v1/traces/mpi_farm/query?')).toBe(true);
    const q = new URLSearchParams(path.slice(path.indexOf('?') + 1));
    expect(q.get('sql')).toBe(sql);
    expect(q.get('limit')).toBe('1000');
    expect(q.get('timeout_ms')).toBe('10000');
    expect(q.get('id')).toBe('qabc');
    expect(buildPath('query_cancel', { id: 'qabc' }, 'mpi_farm')).toBe('/api/v1/traces/mpi_farm/query-cancel?id=qabc');
  });

  it('makes a new id for every run', () => {
    const a = newQueryId();
    const b = newQueryId();
    expect(a).toMatch(/^q[0-9a-z]{12}$/);
    expect(a).not.toBe(b);
    expect(newQueryId(() => 0)).toBe('q000000000000');
  });
});

describe('the info line and errors', () => {
  it('counts rows, says when they were cut and how long it took', () => {
    expect(resultInfo(result)).toBe('3 rows in 3.0 ms');
    expect(resultInfo({ rows: [[1]], truncated: false, elapsed_ms: 0.25 })).toBe('1 row in 0.25 ms');
    const many = Array.from({ length: 1000 }, () => [1]);
    expect(resultInfo({ rows: many, truncated: true, elapsed_ms: 1534.4 })).toBe('1,000 rows (truncated: the first 1,000 are shown) in 1534 ms');
    expect(formatElapsed(NaN)).toBe('? ms');
  });

  it("gives the server's message once", () => {
    expect(queryErrorMessage(new ApiRequestError('query: query: no such column: nope', 400, 'query'))).toBe('query: no such column: nope');
    expect(queryErrorMessage(new ApiRequestError('query: query: cancelled', 400, 'query'))).toBe('query: cancelled');
    expect(queryErrorMessage(new ApiRequestError('query: HTTP 404 Not Found', 404, 'query'))).toBe('query: HTTP 404 Not Found');
    expect(queryErrorMessage({ error: 'query: stopped after 10 ms' })).toBe('query: stopped after 10 ms');
    expect(queryErrorMessage(new Error('first line\nsecond'))).toBe('first line');
    expect(queryErrorMessage('plain')).toBe('plain');
  });
});

describe('examples', () => {
  it("are docs/query.md's statements, the first the default", () => {
    expect(QUERY_EXAMPLES.map((e) => e.id)).toEqual(['states', 'slow-receives', 'waits', 'mpi-per-rank']);
    expect(DEFAULT_SQL).toContain('GROUP BY state ORDER BY total DESC');
    expect(QUERY_EXAMPLES[1]!.sql).toContain("WHERE s.state = 'MPI_Recv'");
    expect(QUERY_EXAMPLES[3]!.sql).toContain("LIKE 'MPI\\_%' ESCAPE '\\'");
  });
});
