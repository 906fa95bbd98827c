// Derived series: a source (time in some states per row from /series, or a
// counter metric's tracks bucketed from tile points) passed through an
// ordered list of filters — scale, moving average, min/max over n buckets,
// rate per second, sum or mean over the rows. Pure functions, and the
// compact text form the view URL keeps (`series=st:MPI_*|avg5|sum;ctr:heap`).
import type { TilePoints } from '../../protocol/api.gen';

export type Filter =
  | { kind: 'scale'; k: number }
  | { kind: 'avg' | 'min' | 'max'; n: number }
  | { kind: 'rate' | 'sum' | 'mean' };

/** st: self time in states per thread, sp: per process, cat: a category per thread, ctr: a counter metric. */
export type SourceKind = 'st' | 'sp' | 'cat' | 'ctr';
export interface SeriesSpec {
  source: { kind: SourceKind; name: string };
  filters: Filter[];
}

/** Rows × buckets; edges: buckets + 1 bucket edges (trace ns). NaN: no value. */
export interface SeriesData {
  labels: string[];
  edges: number[];
  values: number[][];
}

export const FILTER_KINDS: readonly [Filter['kind'], string][] = [
  ['scale', 'scale ×k'],
  ['avg', 'moving average of n'],
  ['min', 'minimum of n'],
  ['max', 'maximum of n'],
  ['rate', 'rate (per second)'],
  ['sum', 'sum over rows'],
  ['mean', 'mean over rows'],
];

function window(row: readonly number[], n: number, pick: (xs: number[]) => number): number[] {
  return row.map((_, b) => {
    const xs = row.slice(Math.max(0, b - n + 1), b + 1).filter((v) => !Number.isNaN(v));
    return xs.length === 0 ? NaN : pick(xs);
  });
}

function across(d: SeriesData, label: string, mean: boolean): SeriesData {
  const buckets = d.edges.length - 1;
  const row: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const xs = d.values.map((r) => r[b]!).filter((v) => !Number.isNaN(v));
    const sum = xs.reduce((a, v) => a + v, 0);
    row.push(xs.length === 0 ? NaN : mean ? sum / xs.length : sum);
  }
  return { labels: [label], edges: d.edges, values: [row] };
}

/** One filter over every row (trailing windows of n buckets; rate: change per second between bucket centres). */
export function applyFilter(d: SeriesData, f: Filter): SeriesData {
  const rows = (fn: (row: number[]) => number[]): SeriesData => ({ ...d, values: d.values.map(fn) });
  switch (f.kind) {
    case 'scale':
      return rows((r) => r.map((v) => v * f.k));
    case 'avg':
      return rows((r) => window(r, f.n, (xs) => xs.reduce((a, v) => a + v, 0) / xs.length));
    case 'min':
      return rows((r) => window(r, f.n, (xs) => Math.min(...xs)));
    case 'max':
      return rows((r) => window(r, f.n, (xs) => Math.max(...xs)));
    case 'rate': {
      const mid = (b: number): number => (d.edges[b]! + d.edges[b + 1]!) / 2;
      return rows((r) => r.map((v, b) => (b === 0 ? NaN : ((v - r[b - 1]!) * 1e9) / (mid(b) - mid(b - 1)))));
    }
    case 'sum':
      return across(d, 'sum', false);
    case 'mean':
      return across(d, 'mean', true);
  }
}

export function applyFilters(d: SeriesData, filters: readonly Filter[]): SeriesData {
  return filters.reduce(applyFilter, d);
}

/** buckets + 1 equal edges over [from, to] (integers, as the server cuts them). */
export function bucketEdges(from: number, to: number, buckets: number): number[] {
  const span = to - from;
  return Array.from({ length: buckets + 1 }, (_, b) => from + Math.floor((span * b) / buckets));
}

/**
 * A counter's tracks as rows: each bucket holds the track's last sampled
 * value at or before the bucket's end (NaN before its first sample).
 */
export function counterBuckets(pts: TilePoints, tracks: readonly number[], edges: readonly number[]): number[][] {
  return tracks.map((track) => {
    const out: number[] = [];
    let i = 0;
    let last = NaN;
    const idx: number[] = [];
    for (let k = 0; k < pts.count; k++) if (pts.track[k] === track) idx.push(k);
    idx.sort((a, b) => pts.time[a]! - pts.time[b]!);
    for (let b = 1; b < edges.length; b++) {
      while (i < idx.length && pts.time[idx[i]!]! <= edges[b]!) last = pts.last[idx[i++]!]!;
      out.push(last);
    }
    return out;
  });
}

function filterText(f: Filter): string {
  if (f.kind === 'scale') return `x${f.k}`;
  if (f.kind === 'avg' || f.kind === 'min' || f.kind === 'max') return `${f.kind}${f.n}`;
  return f.kind;
}

/** A filter chip's label. */
export function filterLabel(f: Filter): string {
  if (f.kind === 'scale') return `×${f.k}`;
  if (f.kind === 'avg') return `avg ${f.n}`;
  if (f.kind === 'min' || f.kind === 'max') return `${f.kind} ${f.n}`;
  return f.kind;
}

function parseFilter(text: string): Filter | null {
  const n = /^(avg|min|max)([1-9][0-9]{0,3})$/.exec(text);
  if (n) return { kind: n[1] as 'avg' | 'min' | 'max', n: Number(n[2]) };
  const k = /^x(-?[0-9]+(?:\.[0-9]+)?(?:e-?[0-9]+)?)$/.exec(text);
  if (k) return { kind: 'scale', k: Number(k[1]) };
  return text === 'rate' || text === 'sum' || text === 'mean' ? { kind: text } : null;
}

/** `st:MPI_*|avg5|sum;ctr:heap`: sources and filters; names URI-encoded. */
export function serializeSeries(list: readonly SeriesSpec[]): string {
  return list.map((s) => [`${s.source.kind}:${encodeURIComponent(s.source.name)}`, ...s.filters.map(filterText)].join('|')).join(';');
}

/** The series of a serialized text; what does not parse is left out. */
export function parseSeries(text: string): SeriesSpec[] {
  const out: SeriesSpec[] = [];
  for (const part of text.split(';')) {
    const [head, ...rest] = part.split('|');
    const m = /^(st|sp|cat|ctr):(.+)$/.exec(head ?? '');
    if (!m) continue;
    let name: string;
    try {
      name = decodeURIComponent(m[2]!);
    } catch {
      continue;
    }
    const filters = rest.map(parseFilter);
    if (filters.some((f) => f === null)) continue;
    out.push({ source: { kind: m[1] as SourceKind, name }, filters: filters as Filter[] });
  }
  return out;
}

/** A series' title: its source and its filters. */
export function seriesTitle(s: SeriesSpec): string {
  const src = { st: 'time in', sp: 'time per process in', cat: 'time in category', ctr: 'counter' }[s.source.kind];
  return [`${src} ${s.source.name}`, ...s.filters.map(filterLabel)].join(' → ');
}

// The series the counters view shows, kept here so that the view URL can
// read and set them whether or not the view is mounted.
let current: SeriesSpec[] = [];
const listeners = new Set<() => void>();

/** The derived series as the view URL keeps them ('' when none). */
export function getDerivedSeriesParam(): string {
  return serializeSeries(current);
}

/** Sets the derived series from the view URL's text. */
export function setDerivedSeriesParam(text: string): void {
  setDerivedSeries(parseSeries(text));
}

export function derivedSeries(): readonly SeriesSpec[] {
  return current;
}

export function setDerivedSeries(list: SeriesSpec[]): void {
  current = list;
  for (const l of listeners) l();
}

export function onDerivedSeriesChange(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
