// The statistics table's columns, sorting and CSV. Pure.
import type { Callsite, StatsRow } from '../../protocol/api.gen';
import { formatCount, formatDuration, formatPercent } from '../common/format';

export type SortField = 'name' | 'count' | 'total' | 'self' | 'mean' | 'min' | 'max' | 'stddev' | 'share';
export type SortDir = 'asc' | 'desc';

export interface Column {
  field: SortField;
  title: string;
  numeric: boolean;
  format(row: StatsRow): string;
}

export const COLUMNS: readonly Column[] = [
  { field: 'name', title: 'Name', numeric: false, format: (r) => r.name },
  { field: 'count', title: 'Count', numeric: true, format: (r) => formatCount(r.count) },
  { field: 'total', title: 'Total', numeric: true, format: (r) => formatDuration(r.total) },
  { field: 'self', title: 'Self', numeric: true, format: (r) => formatDuration(r.self) },
  { field: 'mean', title: 'Mean', numeric: true, format: (r) => formatDuration(r.mean) },
  { field: 'min', title: 'Min', numeric: true, format: (r) => formatDuration(r.min) },
  { field: 'max', title: 'Max', numeric: true, format: (r) => formatDuration(r.max) },
  { field: 'stddev', title: 'Std. dev.', numeric: true, format: (r) => formatDuration(r.stddev) },
  { field: 'share', title: 'Share', numeric: true, format: (r) => formatPercent(r.share) },
];

/** The direction a column sorts in when first clicked: names A→Z, numbers largest first. */
export function defaultDir(field: SortField): SortDir {
  return field === 'name' ? 'asc' : 'desc';
}

/** The sort after clicking `field`: the same column flips, another starts at its default. */
export function nextSort(current: { field: SortField; dir: SortDir }, field: SortField): { field: SortField; dir: SortDir } {
  if (current.field === field) return { field, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { field, dir: defaultDir(field) };
}

export function callsiteText(c: Callsite | null): string {
  if (!c) return '';
  const where = c.line > 0 ? `${c.file}:${c.line}` : c.file;
  return c.function ? `${c.function} (${where})` : where;
}

/** A sorted copy; ties by total time (largest first), then name. Stable. */
export function sortRows(rows: readonly StatsRow[], field: SortField, dir: SortDir): StatsRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  const byName = (a: StatsRow, b: StatsRow): number =>
    a.name.localeCompare(b.name, 'en', { numeric: true, sensitivity: 'base' }) ||
    callsiteText(a.callsite).localeCompare(callsiteText(b.callsite), 'en', { numeric: true });
  return rows
    .map((r, i) => ({ r, i }))
    .sort((x, y) => {
      const a = x.r;
      const b = y.r;
      const primary = field === 'name' ? byName(a, b) : a[field] - b[field];
      if (primary !== 0) return sign * primary;
      return b.total - a.total || byName(a, b) || x.i - y.i;
    })
    .map((x) => x.r);
}

/** One CSV field, quoted when it holds a comma, quote, line break or edge spaces. */
export function csvField(v: string | number): string {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  if (/[",\r\n]/.test(s) || /^\s|\s$/.test(s)) return `"${s.replace(/"/g, '""')}"`;
  return s;
}

/** The table as CSV (RFC 4180, CRLF line ends), times in ns, share as a fraction. */
export function statsCsv(rows: readonly StatsRow[]): string {
  const header = ['name', 'callsite', 'count', 'total_ns', 'self_ns', 'mean_ns', 'min_ns', 'max_ns', 'stddev_ns', 'share'];
  const lines = [header.join(',')];
  for (const r of rows) {
    lines.push(
      [r.name, callsiteText(r.callsite), r.count, r.total, r.self, r.mean, r.min, r.max, r.stddev, r.share]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** Scope selector values: 'all', 'p<process>', 't<thread>'. */
export type Scope = { kind: 'all' } | { kind: 'process'; index: number } | { kind: 'thread'; index: number };

export function scopeValue(s: Scope): string {
  return s.kind === 'all' ? 'all' : `${s.kind === 'process' ? 'p' : 't'}${s.index}`;
}

export function parseScope(v: string): Scope {
  const m = /^([pt])(\d+)$/.exec(v);
  if (!m) return { kind: 'all' };
  return { kind: m[1] === 'p' ? 'process' : 'thread', index: Number(m[2]) };
}
