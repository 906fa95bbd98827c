// Geometry of the logical-time (Lamport, space-time) diagram: rows grouped by
// process, x = Lamport clock, the replay cursor as a per-row frontier, and hit
// testing of slices and message arrows. Pure.
import type { LamportResult, TraceSummary } from '../../protocol/api.gen';

export const LABEL_WIDTH = 170;
export const RULER_HEIGHT = 22;
export const HEADER_HEIGHT = 16;
export const LANE_HEIGHT = 12;
export const ROW_PADDING = 2;
/** Lanes drawn per thread at most; deeper slices share the last one. */
export const MAX_LANES = 6;
/** Above this the rows are squeezed (no process headers, thinner lanes). */
export const MAX_ROWS_HEIGHT = 1600;
const RIGHT = 12;

export interface LamportRow {
  row: number;
  process: number;
  label: string;
  /** top, in canvas pixels */
  y: number;
  height: number;
  lanes: number;
}

export interface RowsLayout {
  rows: LamportRow[];
  /** process headers: label and top */
  headers: { label: string; y: number; process: number }[];
  byRow: Map<number, LamportRow>;
  laneHeight: number;
  padding: number;
  /** bottom of the last row */
  height: number;
}

/**
 * Threads grouped under their process, in the summary's row order (as the
 * timeline's labels). Squeezed to fit MAX_ROWS_HEIGHT when there are many.
 */
export function layoutRows(summary: Pick<TraceSummary, 'processes' | 'threads'>): RowsLayout {
  const lanesOf = (d: number): number => Math.min(MAX_LANES, Math.max(0, d) + 1);
  let natural = summary.processes.length * HEADER_HEIGHT;
  for (const t of summary.threads) natural += lanesOf(t.max_depth) * LANE_HEIGHT + 2 * ROW_PADDING;
  const squeeze = natural > MAX_ROWS_HEIGHT;
  let laneHeight = LANE_HEIGHT;
  let padding = ROW_PADDING;
  let header = HEADER_HEIGHT;
  if (squeeze) {
    header = 0;
    padding = 0;
    let lanes = 0;
    for (const t of summary.threads) lanes += lanesOf(t.max_depth);
    laneHeight = Math.max(1, Math.floor(MAX_ROWS_HEIGHT / Math.max(1, lanes)));
  }
  const threadsOf = new Map<number, number[]>();
  for (const t of summary.threads) {
    const list = threadsOf.get(t.process) ?? [];
    list.push(t.index);
    threadsOf.set(t.process, list);
  }
  const rows: LamportRow[] = [];
  const headers: RowsLayout['headers'] = [];
  const byRow = new Map<number, LamportRow>();
  let y = RULER_HEIGHT;
  for (const p of summary.processes) {
    if (header > 0) {
      headers.push({ label: p.name, y, process: p.index });
      y += header;
    }
    for (const r of threadsOf.get(p.index) ?? []) {
      const t = summary.threads[r]!;
      const lanes = lanesOf(t.max_depth);
      const height = lanes * laneHeight + 2 * padding;
      const row: LamportRow = { row: r, process: p.index, label: squeeze ? `${p.name} ${t.name}` : t.name, y, height, lanes };
      rows.push(row);
      byRow.set(r, row);
      y += height;
    }
  }
  return { rows, headers, byRow, laneHeight, padding, height: y };
}

/** Where arrows start and end in a row: the middle of its first lane. */
export function rowAnchorY(l: RowsLayout, row: number): number {
  const r = l.byRow.get(row);
  return r ? r.y + l.padding + l.laneHeight / 2 : NaN;
}

/** Top of the lane of `depth` in `row` (deep slices share the last lane). */
export function laneTop(l: RowsLayout, row: number, depth: number): number {
  const r = l.byRow.get(row);
  return r ? r.y + l.padding + Math.min(depth, r.lanes - 1) * l.laneHeight : NaN;
}

/** A range of Lamport clock values shown across the plot. */
export interface ClockWindow {
  from: number;
  to: number;
}

export interface Plot {
  x: number;
  w: number;
}

export function plotFor(width: number): Plot {
  return { x: LABEL_WIDTH, w: Math.max(1, width - LABEL_WIDTH - RIGHT) };
}

export function clockToX(c: number, win: ClockWindow, plot: Plot): number {
  const span = win.to - win.from;
  return plot.x + (span > 0 ? ((c - win.from) / span) * plot.w : 0);
}

export function xToClock(x: number, win: ClockWindow, plot: Plot): number {
  return win.from + (plot.w > 0 ? ((x - plot.x) / plot.w) * (win.to - win.from) : 0);
}

/** The whole result with a small margin on both sides (at least one clock tick). */
export function fitClocks(r: Pick<LamportResult, 'min_clock' | 'max_clock'>): ClockWindow {
  const lo = Math.min(r.min_clock, r.max_clock);
  const hi = Math.max(r.min_clock, r.max_clock);
  const pad = Math.max(1, (hi - lo) * 0.02);
  return { from: lo - pad, to: hi + pad };
}

/** Zooms by `factor` (< 1 in) keeping the clock under `x` in place. */
export function zoomClocks(win: ClockWindow, plot: Plot, x: number, factor: number): ClockWindow {
  const at = xToClock(x, win, plot);
  const span = Math.max(0.5, (win.to - win.from) * factor);
  const f = plot.w > 0 ? (x - plot.x) / plot.w : 0.5;
  return { from: at - f * span, to: at - f * span + span };
}

/** Moves the window by `dx` pixels (positive: content moves right). */
export function panClocks(win: ClockWindow, plot: Plot, dx: number): ClockWindow {
  const d = plot.w > 0 ? (dx / plot.w) * (win.to - win.from) : 0;
  return { from: win.from - d, to: win.to - d };
}

/** Events of one row in time order: trace time and Lamport clock. */
export interface RowEvents {
  time: Float64Array;
  clock: Float64Array;
}

/** Every begin, end, send and receive of the result, per row, in time order. */
export function rowEvents(r: LamportResult): Map<number, RowEvents> {
  const lists = new Map<number, [number, number][]>();
  const add = (row: number, time: number, clock: number): void => {
    let l = lists.get(row);
    if (!l) lists.set(row, (l = []));
    l.push([time, clock]);
  };
  for (const s of r.slices) {
    add(s.row, s.begin, s.begin_clock);
    add(s.row, s.end, s.end_clock);
  }
  for (const m of r.messages) {
    add(m.send_row, m.send_time, m.send_clock);
    add(m.recv_row, m.recv_time, m.recv_clock);
  }
  const out = new Map<number, RowEvents>();
  for (const [row, l] of lists) {
    l.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    out.set(row, { time: Float64Array.from(l, (e) => e[0]), clock: Float64Array.from(l, (e) => e[1]) });
  }
  return out;
}

/**
 * The clock of a row at trace time t: that of its last event at or before t;
 * between two events it moves linearly in time to the next one's clock (inside
 * a slice: along its bar). NaN when t is before the row's first event.
 */
export function cursorClock(ev: RowEvents | undefined, t: number): number {
  if (!ev || ev.time.length === 0) return NaN;
  const n = ev.time.length;
  // Last index with time <= t.
  let lo = 0;
  let hi = n - 1;
  if (ev.time[0]! > t) return NaN;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ev.time[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  // Among events at the same time the largest clock is the row's clock then.
  const c0 = ev.clock[lo]!;
  if (lo + 1 >= n) return c0;
  const t0 = ev.time[lo]!;
  const t1 = ev.time[lo + 1]!;
  const c1 = ev.clock[lo + 1]!;
  if (!(t1 > t0) || !(c1 > c0)) return c0;
  return c0 + ((t - t0) / (t1 - t0)) * (c1 - c0);
}

/**
 * The replay cursor as a polyline through the rows: per row a vertical stroke
 * at its clock at time t, joined row to row. Rows before their first event
 * sit at the window's left edge.
 */
export function cursorFrontier(l: RowsLayout, events: Map<number, RowEvents>, t: number, win: ClockWindow, plot: Plot): number[] {
  const pts: number[] = [];
  for (const r of l.rows) {
    const c = cursorClock(events.get(r.row), t);
    const x = Number.isNaN(c) ? plot.x : clockToX(c, win, plot);
    pts.push(x, r.y, x, r.y + r.height);
  }
  return pts;
}

/** The message under (x, y): nearest arrow within `tol` pixels, or -1 (index into r.messages). */
export function messageAt(r: LamportResult, l: RowsLayout, win: ClockWindow, plot: Plot, x: number, y: number, tol = 4): number {
  let best = -1;
  let bestD = tol * tol;
  for (let i = 0; i < r.messages.length; i++) {
    const m = r.messages[i]!;
    const x1 = clockToX(m.send_clock, win, plot);
    const y1 = rowAnchorY(l, m.send_row);
    const x2 = clockToX(m.recv_clock, win, plot);
    const y2 = rowAnchorY(l, m.recv_row);
    if (Number.isNaN(y1) || Number.isNaN(y2)) continue;
    const d = segmentDistance2(x, y, x1, y1, x2, y2);
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

function segmentDistance2(px: number, py: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  const k = len2 > 0 ? Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / len2)) : 0;
  const qx = x1 + k * dx - px;
  const qy = y1 + k * dy - py;
  return qx * qx + qy * qy;
}

/** The bar of a slice: x, y, w, h (w at least 1 pixel). */
export function sliceRect(
  s: { row: number; depth: number; begin_clock: number; end_clock: number },
  l: RowsLayout,
  win: ClockWindow,
  plot: Plot,
): { x: number; y: number; w: number; h: number } | null {
  const y = laneTop(l, s.row, s.depth);
  if (Number.isNaN(y)) return null;
  const x0 = clockToX(s.begin_clock, win, plot);
  const x1 = clockToX(s.end_clock, win, plot);
  return { x: x0, y, w: Math.max(1, x1 - x0), h: Math.max(1, l.laneHeight - (l.laneHeight > 4 ? 1 : 0)) };
}

/** The slice under (x, y), deepest first, or -1 (index into r.slices); hidden states are skipped. */
export function sliceAt(
  r: LamportResult,
  l: RowsLayout,
  win: ClockWindow,
  plot: Plot,
  x: number,
  y: number,
  visible: (state: number) => boolean = () => true,
): number {
  let best = -1;
  let bestDepth = -1;
  for (let i = 0; i < r.slices.length; i++) {
    const s = r.slices[i]!;
    if (!visible(s.state)) continue;
    const b = sliceRect(s, l, win, plot);
    if (!b || x < b.x || x > b.x + b.w || y < b.y || y > b.y + b.h) continue;
    if (s.depth > bestDepth) {
      best = i;
      bestDepth = s.depth;
    }
  }
  return best;
}
