// Holding the picture while a live snapshot's tile loads. When a live trace
// gets a new snapshot every tile is asked for again; painting the previous
// snapshot's tile once more in the meantime would double the painting at a
// view that follows the live end, and with it the time until the new records
// are on screen. So frames are skipped until the new tile is there, for a
// limited time. Times are performance.now() milliseconds, passed in.

/** What the hold needs of the timeline. */
export interface TileHoldHost {
  /** The hold ran out before the tile came: draw what there is. */
  expired(): void;
}

export class TileHold {
  private holding = false;
  /** When the hold ends at the latest; 0 once a fresh tile was painted. */
  private deadline = 0;
  private timer = 0;

  constructor(private readonly host: TileHoldHost) {}

  /**
   * Starts skipping frames for at most `ms` from `now`. The time counts
   * from the first snapshot not yet painted: a hold started again before a
   * fresh tile was painted (a newer snapshot, or a view following the live
   * end, which moved the window and so ended the hold) keeps that deadline.
   */
  start(ms: number, now: number): void {
    if (this.deadline <= now) this.deadline = now + ms;
    this.holding = true;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      this.end();
      this.host.expired();
    }, this.deadline - now);
  }

  /** Stops skipping frames (the view moved, or the timeline goes away). */
  end(): void {
    this.holding = false;
    clearTimeout(this.timer);
  }

  /**
   * At a frame: whether to skip painting it. `fresh` says the tile at hand
   * is of the newest snapshot; painting one gives the next snapshot's hold
   * its whole time again.
   */
  skipFrame(fresh: boolean, now: number): boolean {
    if (this.holding) {
      // The tile's arrival or the timer draws.
      if (!fresh && now < this.deadline) return true;
      this.end();
    }
    if (fresh) this.deadline = 0;
    return false;
  }
}

/**
 * The trace duration each recent tile generation was asked for under (a live
 * snapshot starts one), and that of the tile painted last: once it reaches a
 * snapshot's duration, that snapshot's records are on screen (the display-lag
 * benchmark reads it).
 */
export class PaintedDurations {
  private readonly byGeneration = new Map<number, number>();
  private painted = -1;

  /** Tiles of `generation` are asked for under a summary of `duration`. */
  asked(generation: number, duration: number): void {
    this.byGeneration.set(generation, duration);
    this.byGeneration.delete(generation - 16);
  }

  /** A tile of `generation` was painted. */
  paintedTile(generation: number): void {
    this.painted = this.byGeneration.get(generation) ?? this.painted;
  }

  /** The duration of the painted tile's summary; -1 before the first. */
  get drawn(): number {
    return this.painted;
  }
}
