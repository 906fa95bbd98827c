// Where the Query tab keeps what outlives it: the SQL text in localStorage
// (every trace shares it, as a query page would), and the last result of
// each trace in memory, shown again when the tab is opened again.
import type { QueryResult } from '../../protocol/api.gen';

/** localStorage's part the tab uses (tests pass a Map-backed one). */
export interface TextStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const SQL_KEY = 'parallax.query.sql';

/** window.localStorage, or null where it cannot be used (privacy settings, no window). */
export function browserStore(): TextStore | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** The SQL last typed, or `fallback`. */
export function loadSql(store: TextStore | null, fallback: string): string {
  try {
    const v = store?.getItem(SQL_KEY);
    return v !== null && v !== undefined && v.trim() !== '' ? v : fallback;
  } catch {
    return fallback;
  }
}

/** Keeps `sql` for the next time; a full or refused store is ignored. */
export function saveSql(store: TextStore | null, sql: string): void {
  try {
    store?.setItem(SQL_KEY, sql);
  } catch {
    // Nothing to do: the text stays in the textarea.
  }
}

const lastResults = new Map<string, QueryResult>();

/** The last result shown for trace `trace`, or null. */
export function lastResult(trace: string): QueryResult | null {
  return lastResults.get(trace) ?? null;
}

/** Remembers (or, with null, forgets) the result shown for `trace`. */
export function keepResult(trace: string, r: QueryResult | null): void {
  if (r) lastResults.set(trace, r);
  else lastResults.delete(trace);
}
