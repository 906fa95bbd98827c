// Geometry of the three counter views: the lights matrix (units × metrics),
// bars per unit at the cursor, and line graphs over time from tile points.
// Pure.
import type { TilePoints } from '../../engine/tile';
import { EMPTY_CELL } from '../common/colors';
import { type CounterModel, lightColor, type Metric, scaleValue } from './counters_model';

export const LEGEND_HEIGHT = 40;
const TOP = 24;
const RIGHT = 12;

export interface LightsLayout {
  left: number;
  top: number;
  cellW: number;
  cellH: number;
  units: number;
  metrics: number;
  legend: { x: number; y: number; w: number; h: number };
  height: number;
}

/** Cells after the label column, as wide as fits (24..140 px), 4..26 px high. */
export function layoutLights(model: CounterModel, width: number, measure: (s: string) => number): LightsLayout {
  let longest = 0;
  for (const u of model.units) longest = Math.max(longest, measure(u.label));
  const left = Math.min(220, Math.max(60, Math.ceil(longest) + 12));
  const n = Math.max(1, model.metrics.length);
  const cellW = Math.max(24, Math.min(140, (width - left - RIGHT) / n));
  const cellH = Math.max(4, Math.min(26, Math.floor(1200 / Math.max(1, model.units.length))));
  const gridH = model.units.length * cellH;
  const legend = { x: left, y: TOP + gridH + 10, w: Math.max(60, Math.min(240, n * cellW)), h: 10 };
  return { left, top: TOP, cellW, cellH, units: model.units.length, metrics: model.metrics.length, legend, height: Math.ceil(TOP + gridH + LEGEND_HEIGHT) };
}

/** The cell under (x, y), or null. */
export function lightsCellAt(l: LightsLayout, x: number, y: number): { unit: number; metric: number } | null {
  if (x < l.left || y < l.top) return null;
  const metric = Math.floor((x - l.left) / l.cellW);
  const unit = Math.floor((y - l.top) / l.cellH);
  return metric < l.metrics && unit < l.units ? { unit, metric } : null;
}

/** Every cell's value and colour at the cursor: rows of units, columns of metrics. */
export function lightsCells(model: CounterModel, values: ReadonlyMap<number, number>): { track: number; value: number | undefined; color: string }[][] {
  return model.cells.map((row) =>
    row.map((track, m) => {
      const value = track >= 0 ? values.get(track) : undefined;
      return { track, value, color: lightColor(model.metrics[m]!, value) };
    }),
  );
}

export interface Bar {
  unit: number;
  track: number;
  /** undefined: no sample yet (no bar drawn) */
  value: number | undefined;
  x: number;
  w: number;
  /** top and height of the bar */
  y: number;
  h: number;
  color: string;
}

export interface BarsLayout {
  plot: { x: number; y: number; w: number; h: number };
  /** the value axis: [lo, hi] maps to [plot bottom, plot top] */
  lo: number;
  hi: number;
  /** y of the value 0 (or of lo when 0 is outside) */
  base: number;
  bars: Bar[];
}

const BARS_LEFT = 64;
const BARS_TOP = 10;
const BARS_BOTTOM = 40;

/**
 * One vertical bar per unit with the metric (units without it are left out),
 * height = value on an axis over the metric's whole range (and 0), coloured
 * like its light.
 */
export function layoutBars(model: CounterModel, metric: number, values: ReadonlyMap<number, number>, width: number, height: number): BarsLayout {
  const m: Metric | undefined = model.metrics[metric];
  const plot = { x: BARS_LEFT, y: BARS_TOP, w: Math.max(1, width - BARS_LEFT - RIGHT), h: Math.max(1, height - BARS_TOP - BARS_BOTTOM) };
  const lo = Math.min(0, m?.min ?? 0);
  let hi = Math.max(0, m?.max ?? 1);
  if (!(hi > lo)) hi = lo + 1;
  const yOf = (v: number): number => plot.y + plot.h - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * plot.h;
  const base = yOf(0);
  const units: number[] = [];
  if (m) for (let u = 0; u < model.units.length; u++) if ((model.cells[u]?.[metric] ?? -1) >= 0) units.push(u);
  const band = units.length > 0 ? plot.w / units.length : plot.w;
  const w = Math.max(1, Math.min(60, band * 0.8));
  const bars = units.map((u, i): Bar => {
    const track = model.cells[u]![metric]!;
    const value = values.get(track);
    const x = plot.x + i * band + (band - w) / 2;
    if (value === undefined || !m) return { unit: u, track, value, x, w, y: base, h: 0, color: EMPTY_CELL };
    const y = yOf(value);
    return { unit: u, track, value, x, w, y: Math.min(y, base), h: Math.abs(base - y), color: lightColor(m, value) };
  });
  return { plot, lo, hi, base, bars };
}

export interface Strip {
  track: number;
  y: number;
  h: number;
}

export interface LinesLayout {
  plot: { x: number; w: number };
  strips: Strip[];
  /** y of the time axis labels */
  axisY: number;
  height: number;
}

export const LINES_LABEL_WIDTH = 170;
export const STRIP_HEIGHT = 56;
const STRIP_GAP = 8;

/** One strip per chosen track, one above the other, over a shared time axis. */
export function layoutLines(tracks: readonly number[], width: number): LinesLayout {
  const plot = { x: LINES_LABEL_WIDTH, w: Math.max(1, width - LINES_LABEL_WIDTH - RIGHT) };
  const strips = tracks.map((track, i) => ({ track, y: 8 + i * (STRIP_HEIGHT + STRIP_GAP), h: STRIP_HEIGHT }));
  const axisY = 8 + tracks.length * (STRIP_HEIGHT + STRIP_GAP);
  return { plot, strips, axisY, height: axisY + 20 };
}

/** x of trace time t over the window (the timeline's mapping, after the label column). */
export function timeToX(t: number, win: { from: number; to: number }, plot: { x: number; w: number }): number {
  const span = win.to - win.from;
  return plot.x + (span > 0 ? ((t - win.from) / span) * plot.w : 0);
}

export interface TrackLine {
  /** a step line through the values: [x0, y0, x1, y1, ...] */
  line: number[];
  /** pixel columns with several samples: min–max extent */
  columns: { x: number; top: number; bottom: number }[];
}

/**
 * The line of one track from a tile's points (per pixel: first sample time,
 * min, max, last). A counter keeps its value until the next sample, so the line
 * steps: flat at the previous value up to a point, then to its last value; the
 * last value runs on to `end` (the window's end or the trace's, the earlier).
 */
export function trackLine(
  pts: TilePoints,
  track: number,
  range: Pick<Metric, 'min' | 'max'>,
  win: { from: number; to: number },
  plot: { x: number; w: number },
  strip: { y: number; h: number },
  end: number,
): TrackLine {
  const yOf = (v: number): number => strip.y + strip.h - scaleValue(range, v) * strip.h;
  const line: number[] = [];
  const columns: TrackLine['columns'] = [];
  let prev = NaN;
  for (let i = 0; i < pts.count; i++) {
    if (pts.track[i] !== track) continue;
    const x = timeToX(pts.time[i]!, win, plot);
    if (!Number.isNaN(prev)) line.push(x, yOf(prev));
    line.push(x, yOf(pts.last[i]!));
    if (pts.samples[i]! > 1) columns.push({ x, top: yOf(pts.max[i]!), bottom: yOf(pts.min[i]!) });
    prev = pts.last[i]!;
  }
  if (!Number.isNaN(prev)) line.push(timeToX(end, win, plot), yOf(prev));
  return { line, columns };
}
