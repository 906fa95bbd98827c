// Geometry of the processor-scheduling strip: one row per CPU, time on x over
// the timeline's window, each span a bar in its thread's colour (in lanes
// where threads overlap on a CPU), and the legend of the threads drawn.
// Pure functions, no DOM, so the view and its tests share them.
import type { CpuResult, CpuSpan, TraceSummary } from '../../protocol/api.gen';
import { threadColor, threadLabels } from '../common/threads';

export const ROW_H = 22;
export const ROW_GAP = 3;
/** Overlapping spans of one CPU get lanes, at most this many (the last is shared). */
export const MAX_LANES = 4;
/** Thinnest lane (px). */
export const LANE_MIN = 8;
export const LEGEND_ROW = 18;
export const SWATCH = 12;
const TOP = 6;
const AXIS_H = 22;
const RIGHT = 10;

export interface TimeWindow {
  from: number;
  to: number;
}

export interface Plot {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface CpuRow {
  cpu: number;
  y: number;
  h: number;
  /** lanes of this CPU's row in this window (1 when no spans overlap) */
  lanes: number;
}

export interface LegendItem {
  row: number;
  label: string;
  color: string;
  /** swatch position (its label follows it) */
  x: number;
  y: number;
}

export interface CpuLayout {
  plot: Plot;
  rows: CpuRow[];
  /** span index → lane within its CPU's row */
  lane: Int32Array;
  axisY: number;
  legend: LegendItem[];
  height: number;
}

export interface CpuBar {
  /** index into CpuResult.spans */
  span: number;
  /** the thread (timeline row) */
  row: number;
  x: number;
  y: number;
  w: number;
  h: number;
  color: string;
}

/**
 * Lanes for the spans of each CPU: in begin order, a span takes the first lane
 * whose spans all ended by its begin; with MAX_LANES taken, the lane that
 * frees first. Returns each span's lane and each CPU's lane count.
 */
export function assignLanes(spans: readonly CpuSpan[]): { lane: Int32Array; lanes: Map<number, number> } {
  const lane = new Int32Array(spans.length);
  const byCpu = new Map<number, number[]>();
  spans.forEach((s, i) => {
    let l = byCpu.get(s.cpu);
    if (!l) byCpu.set(s.cpu, (l = []));
    l.push(i);
  });
  const lanes = new Map<number, number>();
  for (const [cpu, idx] of byCpu) {
    idx.sort((a, b) => spans[a]!.begin - spans[b]!.begin || a - b);
    const ends: number[] = [];
    for (const i of idx) {
      const s = spans[i]!;
      let k = ends.findIndex((e) => e <= s.begin);
      if (k < 0 && ends.length < MAX_LANES) k = ends.push(-Infinity) - 1;
      if (k < 0) k = ends.indexOf(Math.min(...ends));
      ends[k] = Math.max(ends[k]!, s.end);
      lane[i] = k;
    }
    lanes.set(cpu, Math.max(1, ends.length));
  }
  return { lane, lanes };
}

/** A CPU row's height: ROW_H, taller when its lanes would be thinner than LANE_MIN. */
export function rowHeight(lanes: number): number {
  return Math.max(ROW_H, lanes * (LANE_MIN + 1) - 1);
}

/** x of trace time `t` over the plot. */
export function timeToX(t: number, win: TimeWindow, plot: Plot): number {
  const span = win.to - win.from;
  return plot.x + (span > 0 ? ((t - win.from) / span) * plot.w : 0);
}

/** The threads of the spans, by row, with their colours and labels. */
export function threadsOf(result: CpuResult, summary: TraceSummary): { row: number; label: string; color: string }[] {
  const rows = [...new Set(result.spans.map((s) => s.row))].sort((a, b) => a - b);
  const labels = threadLabels(summary, rows);
  return rows.map((row) => ({ row, label: labels.get(row)!, color: threadColor(row) }));
}

/** Lays out rows (every CPU of the trace), the time axis and the legend for `width`. */
export function layoutCpus(result: CpuResult, summary: TraceSummary, width: number, measure: (s: string) => number): CpuLayout {
  const labelW = Math.max(50, ...result.cpus.map((c) => measure(`CPU ${c}`) + 14));
  const { lane, lanes } = assignLanes(result.spans);
  let top = TOP;
  const rows = result.cpus.map((cpu) => {
    const n = lanes.get(cpu) ?? 1;
    const row = { cpu, y: top, h: rowHeight(n), lanes: n };
    top += row.h + ROW_GAP;
    return row;
  });
  const plotH = Math.max(0, top - ROW_GAP - TOP);
  const plot = { x: labelW, y: TOP, w: Math.max(10, width - labelW - RIGHT), h: plotH };
  const axisY = plot.y + plot.h + 4;
  const legendTop = axisY + AXIS_H + 4;
  const legend: LegendItem[] = [];
  let x = plot.x;
  let y = legendTop;
  for (const t of threadsOf(result, summary)) {
    const w = SWATCH + 4 + measure(t.label) + 16;
    if (x + w > width - RIGHT && x > plot.x) {
      x = plot.x;
      y += LEGEND_ROW;
    }
    legend.push({ ...t, x, y });
    x += w;
  }
  const height = legend.length > 0 ? y + LEGEND_ROW + 4 : legendTop;
  return { plot, rows, lane, axisY, legend, height };
}

/** The bars of the spans over the window (clipped to the plot, at least 1 px wide). */
export function cpuBars(result: CpuResult, layout: CpuLayout, win: TimeWindow): CpuBar[] {
  const { plot } = layout;
  const rowOf = new Map(layout.rows.map((r) => [r.cpu, r]));
  const out: CpuBar[] = [];
  result.spans.forEach((s, i) => {
    const r = rowOf.get(s.cpu);
    if (!r) return;
    const x0 = Math.max(plot.x, timeToX(s.begin, win, plot));
    const x1 = Math.min(plot.x + plot.w, timeToX(s.end, win, plot));
    if (x1 < plot.x || x0 > plot.x + plot.w) return;
    const lh = (r.h - (r.lanes - 1)) / r.lanes;
    out.push({ span: i, row: s.row, x: x0, y: r.y + layout.lane[i]! * (lh + 1), w: Math.max(1, x1 - x0), h: lh, color: threadColor(s.row) });
  });
  return out;
}

/** The bar under (x, y): the one whose middle is nearest among those within 1 px; -1 if none. */
export function barAt(bars: readonly CpuBar[], x: number, y: number): number {
  let best = -1;
  let bestDist = Infinity;
  bars.forEach((b, i) => {
    if (y < b.y || y > b.y + b.h || x < b.x - 1 || x > b.x + b.w + 1) return;
    const d = Math.abs(x - (b.x + b.w / 2));
    if (d <= bestDist) {
      best = i;
      bestDist = d;
    }
  });
  return best;
}
