// The normal mode's tiles: which /tile the rows on screen need (TileLoader
// asks only for the newest), and holding the picture while a live snapshot's
// tile loads (TileHold) with the duration each painted tile was asked under
// (PaintedDurations). TimelineView holds one; the compact mode has its own
// (compact_mode.ts).
import type { RowLayout } from '../../base/layout';
import type { TimeWindow } from '../../base/time_scale';
import type { TraceSummary } from '../../protocol/api.gen';
import type { ApiClient } from '../context';
import type { TimelineGeometry } from './geometry';
import { PaintedDurations, TileHold } from './hold';
import { TileLoader, planTile, type LoadedTile, type TileRequest } from './tiles';

/** What the tiles need of the timeline. */
export interface NormalTilesHost {
  api(): ApiClient;
  summary(): TraceSummary;
  geometry(): TimelineGeometry;
  layout(): RowLayout;
  window(): TimeWindow;
  /** a request went out (true) or an answer came */
  status(loading?: boolean): void;
  requestDraw(): void;
  onError(e: unknown): void;
}

export class NormalTiles {
  readonly loader: TileLoader;
  private readonly durations = new PaintedDurations();
  /** holdFor(): frames wait for a live snapshot's tile */
  private readonly hold: TileHold;

  constructor(private readonly host: NormalTilesHost) {
    this.loader = new TileLoader(
      (r) => this.fetch(r),
      (t) => this.arrived(t),
      24,
      (e) => host.onError(e),
    );
    this.hold = new TileHold({ expired: () => host.requestDraw() });
    this.durations.asked(this.loader.generation, host.summary().duration);
  }

  /** The tile drawn now, if any. */
  get current(): LoadedTile | null {
    return this.loader.current;
  }
  /** Whether the tile drawn spans all of window `w` (else part of the screen waits for its tile). */
  covers(w: TimeWindow): boolean {
    const r = this.loader.current?.request;
    return !!r && r.from <= w.from && r.to >= Math.min(w.to, this.host.summary().duration);
  }
  /** Whether the tile drawn is of the newest summary. */
  get fresh(): boolean {
    return this.loader.current?.generation === this.loader.generation;
  }

  /** A live trace's new snapshot: every tile is asked for again. */
  invalidate(duration: number): void {
    this.loader.invalidate();
    this.durations.asked(this.loader.generation, duration);
  }

  /** Asks for the tile of what is on screen (the loader skips it if it has it). */
  ensure(): void {
    const win = this.host.window();
    const plan = this.plan(win);
    if (plan) this.loader.want(plan, win);
  }

  /** Fetches, not drawn, the tile the rows on screen will need at window `win` (the replay's next page). */
  prefetch(win: TimeWindow): void {
    const plan = this.plan(win);
    if (plan) this.loader.prefetch(plan);
  }

  /** The tile of the rows on screen (and a screen of margin) at window `win`; null when no row is. */
  private plan(win: TimeWindow): TileRequest | null {
    const g = this.host.geometry();
    const { top, bottom } = g.visibleContent();
    const margin = g.rowsHeight;
    const rows = this.host.layout().rowsIn(Math.max(0, top - margin), bottom + margin);
    if (rows.length === 0) return null;
    const rowSet = new Set(rows);
    const summary = this.host.summary();
    const counters = summary.counters.filter((c) => rowSet.has(c.thread)).map((c) => c.index);
    return planTile(win, g.plotWidth, summary.duration, rows, counters);
  }

  /**
   * A live snapshot's tile has just been asked for (setSummary, then
   * loadNow): until it comes, for at most `ms`, frames keep the picture on
   * screen instead of painting the previous snapshot's tile once more (at a
   * view that follows the live end, that would double the painting, and with
   * it the time until the new records are on screen). Moving the view ends
   * it. The `ms` count from the first snapshot not yet painted: neither a
   * newer snapshot nor the window move of a view that follows the live end
   * (which ends the hold, and the next snapshot starts it again) extends it.
   */
  holdFor(ms: number): void {
    const asked = this.loader.wanted !== null; // no rows on screen: no tile to wait for
    if (!asked || this.fresh) return;
    this.hold.start(ms, performance.now());
  }
  /** The view moved (or goes away): frames no longer wait. */
  endHold(): void {
    this.hold.end();
  }
  /** At a frame: whether to skip painting it (see TileHold.skipFrame). */
  skipFrame(fresh: boolean, now: number): boolean {
    return this.hold.skipFrame(fresh, now);
  }

  /** The tile on screen was painted. */
  painted(): void {
    const t = this.loader.current;
    if (t) this.durations.paintedTile(t.generation);
  }
  /** See TimelineView.drawnDuration. */
  get drawnDuration(): number {
    return this.durations.drawn;
  }

  private fetch(r: TileRequest): Promise<ArrayBuffer> {
    this.host.status(true);
    return this.host.api().get('tile', {
      rows: r.rows,
      from: r.from,
      to: r.to,
      width: r.width,
      counters: r.counters.length ? r.counters : undefined,
    });
  }

  private arrived(_t: LoadedTile): void {
    this.host.status();
    this.host.requestDraw();
  }
}
