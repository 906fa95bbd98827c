// The visible time window and its mapping to pixels: zoom around a point,
// pan, and limits. Pure math; the timeline view holds one window.

export interface TimeWindow {
  from: number;
  to: number;
}

/** Maps trace time to x over a plot starting at `left` that is `width` px wide. */
export class TimeScale {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly left: number,
    readonly width: number,
  ) {}

  /** ns per pixel */
  get resolution(): number {
    return (this.to - this.from) / Math.max(1, this.width);
  }

  timeToX(t: number): number {
    return this.left + ((t - this.from) / (this.to - this.from)) * this.width;
  }

  xToTime(x: number): number {
    return this.from + ((x - this.left) / this.width) * (this.to - this.from);
  }
}

/** Narrowest window: 100 ns. */
export const MIN_SPAN = 100;

/**
 * Keeps a window sensible for a trace of `duration`: at least MIN_SPAN wide,
 * at most the trace plus 10 % on each side, and overlapping the trace.
 */
export function clampWindow(w: TimeWindow, duration: number): TimeWindow {
  const d = Math.max(duration, MIN_SPAN);
  const margin = d * 0.1;
  const lo = -margin;
  const hi = d + margin;
  let span = w.to - w.from;
  if (!(span > 0) || !Number.isFinite(span)) span = d;
  span = Math.min(Math.max(span, MIN_SPAN), hi - lo);
  let from = Number.isFinite(w.from) ? w.from : 0;
  if (from < lo) from = lo;
  if (from + span > hi) from = hi - span;
  return { from, to: from + span };
}

/**
 * Zooms by `factor` (< 1 zooms in) keeping `anchor` (a trace time) at the same
 * place on screen.
 */
export function zoomWindow(w: TimeWindow, factor: number, anchor: number): TimeWindow {
  const from = anchor - (anchor - w.from) * factor;
  const to = anchor + (w.to - anchor) * factor;
  return { from, to };
}

/** Moves the window by `dt` ns. */
export function panWindow(w: TimeWindow, dt: number): TimeWindow {
  return { from: w.from + dt, to: w.to + dt };
}

/** The window showing [begin, end] with `margin` (fraction of the span) on each side. */
export function windowAround(begin: number, end: number, margin = 0.1): TimeWindow {
  const span = Math.max(end - begin, MIN_SPAN);
  const mid = (begin + end) / 2;
  const half = (span * (1 + 2 * margin)) / 2;
  return { from: mid - half, to: mid + half };
}
