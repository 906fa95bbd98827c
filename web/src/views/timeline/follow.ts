// How the timeline's window follows the replay cursor: it keeps its width and
// turns whole pages when the cursor leaves it, so stepping back over a page
// turn gives the very window seen before; following a live trace, it slides
// so its right edge is the newest clock. Pure math.
import type { TimeWindow } from '../../base/time_scale';

/** The window that shows `t`: `w` itself when `t` is in it, else `w` moved by whole widths until it is. */
export function followWindow(w: TimeWindow, t: number): TimeWindow {
  if (!Number.isFinite(t) || (t >= w.from && t <= w.to)) return w;
  const span = w.to - w.from;
  if (!(span > 0)) return w;
  const pages = Math.floor((t - w.from) / span);
  return { from: w.from + pages * span, to: w.to + pages * span };
}

/** The window of `w`'s width ending at `newest` (follow live). */
export function liveWindow(w: TimeWindow, newest: number): TimeWindow {
  const span = w.to - w.from;
  return { from: newest - span, to: newest };
}

/**
 * The page followWindow() turns to next when the cursor at `t` keeps moving
 * in direction `dir` (+1 forward, -1 back), once `t` is past the middle of
 * `w` that way; null before (or when not moving). Its tiles can then be on
 * their way before the page turns.
 */
export function nextPage(w: TimeWindow, t: number, dir: number): TimeWindow | null {
  const span = w.to - w.from;
  if (!(span > 0) || !(t >= w.from && t <= w.to)) return null;
  const mid = w.from + span / 2;
  // The very arithmetic of the turn, so the page asked for is the page shown.
  if (dir > 0 && t >= mid) return followWindow(w, w.to + span / 2);
  if (dir < 0 && t <= mid) return followWindow(w, w.from - span / 2);
  return null;
}
