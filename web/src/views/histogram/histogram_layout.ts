// Geometry of the histogram chart: bars, axes and which bins hold selected
// slices. Pure, so it is tested without a canvas.
import type { HistogramResult } from '../../protocol/api.gen';
import { formatDurationTicks, formatShort } from '../common/format';
import { linearScale, logScale, logTicks, niceTicks, type Scale } from '../common/ticks';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Bar extends Rect {
  bin: number;
  count: number;
  selected: boolean;
}

export interface Tick {
  /** pixel position along its axis */
  pos: number;
  label: string;
}

export interface HistogramLayout {
  plot: Rect;
  bars: Bar[];
  xTicks: Tick[];
  yTicks: Tick[];
  x: Scale;
  y: Scale;
}

export const MARGIN = { left: 56, right: 30, top: 24, bottom: 34 };

/** Index of the bin holding `v` (the last bin includes its upper edge); -1 outside. */
export function binOf(edges: readonly number[], v: number): number {
  const n = edges.length - 1;
  if (n < 1 || !(v >= edges[0]!) || v > edges[n]!) return -1;
  if (v === edges[n]) return n - 1;
  let lo = 0;
  let hi = n; // edges[lo] <= v < edges[hi]
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (edges[mid]! <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The bins that hold at least one of the selected slices. */
export function selectedBins(result: Pick<HistogramResult, 'edges' | 'selection'>): Set<number> {
  const out = new Set<number>();
  for (const a of result.selection) {
    const b = binOf(result.edges, a.duration);
    if (b >= 0) out.add(b);
  }
  return out;
}

/** Lays the histogram out in a width x height picture. */
export function layoutHistogram(result: HistogramResult, width: number, height: number, log: boolean): HistogramLayout {
  const plot: Rect = {
    x: MARGIN.left,
    y: MARGIN.top,
    w: Math.max(1, width - MARGIN.left - MARGIN.right),
    h: Math.max(1, height - MARGIN.top - MARGIN.bottom),
  };
  const edges = result.edges;
  const lo = edges.length > 0 ? edges[0]! : 0;
  let hi = edges.length > 0 ? edges[edges.length - 1]! : 1;
  if (!(hi > lo)) hi = lo + 1;
  const useLog = log && lo > 0;
  const x = useLog ? logScale(lo, hi, plot.x, plot.x + plot.w) : linearScale(lo, hi, plot.x, plot.x + plot.w);

  let maxCount = 0;
  for (const c of result.counts) maxCount = Math.max(maxCount, c);
  const yTickValues = niceTicks(0, Math.max(1, maxCount), Math.max(2, Math.floor(plot.h / 30)));
  const yMax = Math.max(1, maxCount, yTickValues[yTickValues.length - 1] ?? 1);
  const y = linearScale(0, yMax, plot.y + plot.h, plot.y);

  const sel = selectedBins(result);
  const bars: Bar[] = [];
  for (let i = 0; i < result.counts.length && i + 1 < edges.length; i++) {
    const count = result.counts[i]!;
    const x0 = x(edges[i]!);
    const x1 = x(edges[i + 1]!);
    const top = y(count);
    // One pixel gap between bars when they are wide enough.
    const gap = x1 - x0 > 4 ? 1 : 0;
    bars.push({ bin: i, count, selected: sel.has(i), x: x0, y: top, w: Math.max(0, x1 - x0 - gap), h: plot.y + plot.h - top });
  }

  const approxLabels = Math.max(2, Math.floor(plot.w / 80));
  const xValues = useLog ? logTicks(lo, hi, approxLabels) : niceTicks(lo, hi, approxLabels);
  const xLabels = formatDurationTicks(xValues, !useLog);
  const xTicks = xValues.map((v, i) => ({ pos: x(v), label: xLabels[i]! }));
  const yTicks = yTickValues.filter((v) => Number.isInteger(v)).map((v) => ({ pos: y(v), label: formatShort(v) }));
  return { plot, bars, xTicks, yTicks, x, y };
}

/** The bar under pixel (px, py), or null. */
export function barAt(layout: HistogramLayout, px: number, py: number): Bar | null {
  const { plot } = layout;
  if (py < plot.y || py > plot.y + plot.h) return null;
  for (const b of layout.bars) if (px >= b.x && px < b.x + Math.max(b.w, 1)) return b;
  return null;
}
