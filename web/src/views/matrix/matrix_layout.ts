// Geometry and colours of the communication matrix heat map. Pure.
import type { MatrixResult } from '../../protocol/api.gen';
import { EMPTY_CELL, heatColor, normalize } from '../common/colors';
import { formatBytes, formatCount, formatDuration } from '../common/format';

export type Metric = 'count' | 'bytes' | 'latency';
export const METRICS: readonly Metric[] = ['count', 'bytes', 'latency'];

export function metricValues(r: MatrixResult, metric: Metric): number[][] {
  return r[metric];
}

export function formatMetric(metric: Metric, v: number): string {
  switch (metric) {
    case 'count':
      return formatCount(v);
    case 'bytes':
      return formatBytes(v);
    case 'latency':
      return formatDuration(v);
  }
}

/** Counts and bytes span orders of magnitude: log colour scale; latency: linear. */
export function isLogMetric(metric: Metric): boolean {
  return metric !== 'latency';
}

/** Largest value of the metric over cells with any traffic. */
export function maxValue(r: MatrixResult, metric: Metric): number {
  const m = metricValues(r, metric);
  let max = 0;
  for (let i = 0; i < m.length; i++) {
    const row = m[i]!;
    for (let j = 0; j < row.length; j++) if ((r.count[i]?.[j] ?? 0) > 0) max = Math.max(max, row[j]!);
  }
  return max;
}

/** A cell's colour: empty when nothing went from row to column, else cold → hot. */
export function cellColor(r: MatrixResult, metric: Metric, row: number, col: number, max: number): string {
  const count = r.count[row]?.[col] ?? 0;
  if (count <= 0) return EMPTY_CELL;
  const v = metricValues(r, metric)[row]?.[col] ?? 0;
  return heatColor(normalize(v, max, isLogMetric(metric)));
}

export interface MatrixLayout {
  n: number;
  /** left edge and top edge of the grid */
  left: number;
  top: number;
  /** cell size in pixels (may be fractional) */
  cell: number;
  /** rows (and columns) that get a label */
  labelled: number[];
  /** whether labels are the full process labels or indices */
  fullLabels: boolean;
  legend: { x: number; y: number; w: number; h: number };
  height: number;
}

export const LEGEND_HEIGHT = 44;
const TOP = 22;
const RIGHT = 16;
const MAX_CELL = 40;
const LABEL_FONT_PX = 11;

/**
 * Lays an n x n grid out in `width`: labels on the left and on top, the
 * legend below. The picture's height follows from the cell size.
 */
export function layoutMatrix(labels: readonly string[], width: number, measure: (s: string) => number): MatrixLayout {
  const n = labels.length;
  let longest = 0;
  for (const l of labels) longest = Math.max(longest, measure(l));
  const left = Math.min(140, Math.max(40, Math.ceil(longest) + 10));
  const cell = n > 0 ? Math.max(0.5, Math.min(MAX_CELL, (width - left - RIGHT) / n)) : MAX_CELL;
  // Full labels when they fit across a column, else indices, every k-th when crowded.
  const fullLabels = n > 0 && longest + 4 <= cell;
  const indexWidth = measure(String(Math.max(0, n - 1))) + 4;
  const room = Math.max(cell, 0.0001);
  const every = fullLabels ? 1 : Math.max(1, Math.ceil(Math.max(indexWidth, LABEL_FONT_PX + 2) / room));
  const nice = every <= 1 ? 1 : [2, 5, 10, 20, 50, 100, 200, 500, 1000].find((k) => k >= every) ?? every;
  const labelled: number[] = [];
  for (let i = 0; i < n; i += nice) labelled.push(i);
  const gridH = n * cell;
  const legend = { x: left, y: TOP + gridH + 12, w: Math.max(60, Math.min(240, (width - left - RIGHT) / 2)), h: 10 };
  return { n, left, top: TOP, cell, labelled, fullLabels, legend, height: Math.ceil(TOP + gridH + LEGEND_HEIGHT) };
}

/** The cell under (x, y), or null. */
export function cellAt(l: MatrixLayout, x: number, y: number): { row: number; col: number } | null {
  const col = Math.floor((x - l.left) / l.cell);
  const row = Math.floor((y - l.top) / l.cell);
  if (x < l.left || y < l.top || col < 0 || row < 0 || col >= l.n || row >= l.n) return null;
  return { row, col };
}

/** One line about a cell for the hover tooltip. */
export function describeCell(r: MatrixResult, row: number, col: number): string {
  const from = r.labels[row] ?? `#${row}`;
  const to = r.labels[col] ?? `#${col}`;
  const count = r.count[row]?.[col] ?? 0;
  const bytes = r.bytes[row]?.[col] ?? 0;
  const what = r.kind === 'rma' ? (count === 1 ? 'access' : 'accesses') : count === 1 ? 'message' : 'messages';
  let s = `${from} → ${to}: ${formatCount(count)} ${what}, ${formatBytes(bytes)}`;
  if (r.kind !== 'rma' && count > 0) s += `, mean latency ${formatDuration(r.latency[row]?.[col] ?? 0)}`;
  return s;
}
