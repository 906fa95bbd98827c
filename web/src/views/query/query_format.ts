// What the Query tab shows and asks, as pure functions: the request's
// parameters, a cell's text, the columns holding slice ids, the line above
// the table and the server's error without the client's repeated prefix.
import type { QueryParams, QueryResult } from '../../protocol/api.gen';
import { errorMessage } from '../common/dom';
import { formatCount } from '../common/format';

/** Rows asked for (the server's default). */
export const QUERY_LIMIT = 1000;
/** The server stops a statement after this (its default). */
export const QUERY_TIMEOUT_MS = 10000;
/** What an empty cell (SQL NULL) shows. */
export const NULL_TEXT = '—';

export type Cell = QueryResult['rows'][number][number];

/** A fresh name for a run, for /query-cancel: 'q' and 12 base-36 digits. */
export function newQueryId(random: () => number = Math.random): string {
  let id = 'q';
  for (let i = 0; i < 12; i++) id += Math.floor(random() * 36).toString(36);
  return id;
}

/** The /query parameters of one run of `sql`. */
export function queryParams(sql: string, id: string, limit = QUERY_LIMIT, timeoutMs = QUERY_TIMEOUT_MS): QueryParams {
  return { sql, limit, timeout_ms: timeoutMs, id };
}

/** A cell as text: integers whole (no separators, so they paste back into SQL), reals to 6 decimals, NULL as a dash. */
export function formatCell(v: Cell): string {
  if (v === null || v === undefined) return NULL_TEXT;
  if (typeof v === 'number') {
    if (Number.isInteger(v) || !Number.isFinite(v)) return String(v);
    if (Math.abs(v) >= 1e15) return String(v);
    const fixed = v.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
    return fixed === '-0' ? '0' : fixed;
  }
  return String(v);
}

/** Whether a column reads as numbers (right-aligned): its first non-NULL value is one. */
export function numericColumn(rows: QueryResult['rows'], column: number): boolean {
  for (const r of rows) {
    const v = r[column];
    if (v !== null && v !== undefined) return typeof v === 'number';
  }
  return false;
}

/** The column whose slice id a clicked row selects: the first of slice_columns inside the columns; -1 when none. */
export function sliceColumn(r: Pick<QueryResult, 'columns' | 'slice_columns'>): number {
  for (const c of r.slice_columns) if (Number.isInteger(c) && c >= 0 && c < r.columns.length) return c;
  return -1;
}

/** The slice id of a row (in its slice column), or -1 when the cell holds none. */
export function rowSlice(row: readonly Cell[], column: number): number {
  if (column < 0) return -1;
  const v = row[column];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : -1;
}

/** Every slice id of the result, in all its slice columns, each once, in order of appearance. */
export function sliceIds(r: Pick<QueryResult, 'columns' | 'rows' | 'slice_columns'>): number[] {
  const cols = r.slice_columns.filter((c) => Number.isInteger(c) && c >= 0 && c < r.columns.length);
  const seen = new Set<number>();
  const out: number[] = [];
  for (const row of r.rows) {
    for (const c of cols) {
      const id = rowSlice(row, c);
      if (id >= 0 && !seen.has(id)) {
        seen.add(id);
        out.push(id);
      }
    }
  }
  return out;
}

/** Milliseconds for the info line: '0.42 ms', '12.3 ms', '1534 ms'. */
export function formatElapsed(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '? ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** The line above the table: '3 rows in 1.2 ms', with the cut when truncated. */
export function resultInfo(r: Pick<QueryResult, 'rows' | 'truncated' | 'elapsed_ms'>): string {
  const n = r.rows.length;
  const rows = `${formatCount(n)} row${n === 1 ? '' : 's'}`;
  const cut = r.truncated ? ` (truncated: the first ${formatCount(n)} are shown)` : '';
  return `${rows}${cut} in ${formatElapsed(r.elapsed_ms)}`;
}

/**
 * The server's one-line message of a failed query. The client puts the
 * endpoint's name before the server's message, which already starts with
 * 'query: ' ('query: query: no such column: x'): that is said once.
 */
export function queryErrorMessage(err: unknown): string {
  const m = errorMessage(err).trim();
  const line = m.split('\n', 1)[0] ?? '';
  return line.replace(/^query: (?=query: )/, '');
}
