// Geometry of the mountain range: stacked step areas of how many threads are
// in each state over time, on the timeline's time axis. Pure.
import type { MountainResult } from '../../protocol/api.gen';

export interface Plot {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TimeWindow {
  from: number;
  to: number;
}

export interface Area {
  state: number;
  /** closed polygon [x0, y0, x1, y1, ...] */
  points: number[];
}

/** x of trace time t: exactly the timeline's mapping, offset by the plot's left edge. */
export function timeToX(t: number, win: TimeWindow, plot: Plot): number {
  const span = win.to - win.from;
  return plot.x + (span > 0 ? ((t - win.from) / span) * plot.w : 0);
}

export function xToTime(x: number, win: TimeWindow, plot: Plot): number {
  return win.from + (plot.w > 0 ? ((x - plot.x) / plot.w) * (win.to - win.from) : 0);
}

/** Buckets to ask for: one per two pixels of the plot, within the API's 1..8192. */
export function bucketsFor(plotWidth: number): number {
  return Math.max(1, Math.min(8192, Math.floor(plotWidth / 2)));
}

/**
 * One closed step-shaped polygon per visible state, stacked in the order of
 * r.states (bottom first); states with nothing in them are left out.
 */
export function stackAreas(
  r: MountainResult,
  visible: (state: number) => boolean,
  win: TimeWindow,
  plot: Plot,
  yMax: number,
): Area[] {
  const n = r.buckets;
  if (n <= 0 || !(yMax > 0)) return [];
  const dt = (r.to - r.from) / n;
  const xs = new Float64Array(n + 1);
  for (let b = 0; b <= n; b++) xs[b] = timeToX(r.from + b * dt, win, plot);
  const yOf = (v: number): number => plot.y + plot.h - (Math.min(v, yMax) / yMax) * plot.h;
  const base = new Float64Array(n);
  const areas: Area[] = [];
  for (let i = 0; i < r.states.length; i++) {
    const state = r.states[i]!;
    const values = r.values[i];
    if (!values || !visible(state)) continue;
    let any = false;
    for (let b = 0; b < n; b++) if ((values[b] ?? 0) > 0) any = true;
    if (!any) continue;
    const top: number[] = [];
    const bottom: number[] = [];
    for (let b = 0; b < n; b++) {
      const lo = base[b]!;
      const hi = lo + (values[b] ?? 0);
      base[b] = hi;
      top.push(xs[b]!, yOf(hi), xs[b + 1]!, yOf(hi));
      bottom.push(xs[b]!, yOf(lo), xs[b + 1]!, yOf(lo));
    }
    // Along the top left to right, back along the bottom right to left.
    const points = top;
    for (let k = bottom.length - 2; k >= 0; k -= 2) points.push(bottom[k]!, bottom[k + 1]!);
    areas.push({ state, points });
  }
  return areas;
}

/** The bucket of r at pixel x, or -1. */
export function bucketAt(r: MountainResult, win: TimeWindow, plot: Plot, x: number): number {
  if (x < plot.x || x > plot.x + plot.w || r.buckets <= 0 || !(r.to > r.from)) return -1;
  const t = xToTime(x, win, plot);
  const b = Math.floor(((t - r.from) / (r.to - r.from)) * r.buckets);
  return b >= 0 && b < r.buckets ? b : -1;
}

/** The states and values of bucket b, largest first, visible and non-zero only. */
export function bucketValues(r: MountainResult, b: number, visible: (state: number) => boolean): { state: number; value: number }[] {
  const out: { state: number; value: number }[] = [];
  for (let i = 0; i < r.states.length; i++) {
    const v = r.values[i]?.[b] ?? 0;
    if (v > 0 && visible(r.states[i]!)) out.push({ state: r.states[i]!, value: v });
  }
  return out.sort((a, c) => c.value - a.value);
}
