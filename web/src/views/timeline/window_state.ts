// The timeline's time window: clamped to the trace and told to its listeners
// when it moves; the windows of a zoom, a pan and the whole trace; and, while
// the replay cursor moves, the page the window turns to next (follow.ts), so
// its tiles can be fetched before the turn. TimelineView holds one.
import { clampWindow, panWindow, zoomWindow, type TimeWindow } from '../../base/time_scale';
import { nextPage } from './follow';

export class WindowState {
  private win: TimeWindow;
  private readonly listeners = new Set<(from: number, to: number) => void>();
  /** where the replay cursor was (its direction of travel) */
  private cursorAt = NaN;

  /** `moved` is told of each new window before the listeners. */
  constructor(
    private readonly duration: () => number,
    private readonly moved: (w: TimeWindow) => void,
  ) {
    this.win = this.whole();
  }

  get value(): TimeWindow {
    return this.win;
  }

  onChange(listener: (from: number, to: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Moves to `w` clamped to the trace; nothing when that is the window already. */
  set(w: TimeWindow): void {
    const next = clampWindow(w, this.duration());
    if (next.from === this.win.from && next.to === this.win.to) return;
    this.win = next;
    this.moved(next);
    for (const l of [...this.listeners]) l(next.from, next.to);
  }

  /** The window zoomed by `factor` around `anchor` (its middle when absent). */
  zoomed(factor: number, anchor?: number): TimeWindow {
    return zoomWindow(this.win, factor, anchor ?? (this.win.from + this.win.to) / 2);
  }

  /** The window moved by `fraction` of its width. */
  panned(fraction: number): TimeWindow {
    return panWindow(this.win, (this.win.to - this.win.from) * fraction);
  }

  /** The whole trace. */
  whole(): TimeWindow {
    const d = this.duration();
    return clampWindow({ from: 0, to: Math.max(d, 1) }, d);
  }

  /**
   * The replay cursor is at `t`: the page the window turns to next, clamped
   * to the trace, once `t` is past the middle in its direction of travel;
   * null before.
   */
  ahead(t: number): TimeWindow | null {
    const dir = Number.isNaN(this.cursorAt) ? 0 : Math.sign(t - this.cursorAt);
    this.cursorAt = t;
    const next = nextPage(this.win, t, dir);
    return next ? clampWindow(next, this.duration()) : null;
  }
}
