// Which tile to ask for, and a loader that asks only for the newest one:
// answers to superseded requests are never drawn, recent tiles are cached, and
// the last drawn tile stays until its replacement arrives (no flicker).
import { LruCache } from '../../base/lru';
import { decodeTile, type Tile } from '../../engine/tile';

/** The largest width the server accepts. */
export const MAX_TILE_WIDTH = 16384;
/** Tile edges snap to multiples of this many tile pixels, so panning reuses tiles. */
export const CHUNK_PX = 256;

export interface TileRequest {
  rows: number[];
  from: number;
  to: number;
  width: number;
  counters: number[];
}

export function tileKey(r: TileRequest): string {
  return `${r.rows.join(',')}|${r.from}|${r.to}|${r.width}|${r.counters.join(',')}`;
}

/** ns per tile pixel: the power of two at or below the screen's ns per pixel. */
export function tileResolution(span: number, plotWidth: number): number {
  const res = span / Math.max(1, plotWidth);
  return Math.pow(2, Math.floor(Math.log2(Math.max(res, 1e-6))));
}

/**
 * The tile for a view of [from, to] over `plotWidth` pixels: half a window of
 * margin on each side, snapped to chunks, clipped to the trace.
 */
export function planTile(
  view: { from: number; to: number },
  plotWidth: number,
  duration: number,
  rows: number[],
  counters: number[],
): TileRequest {
  const span = view.to - view.from;
  let res = tileResolution(span, plotWidth);
  for (;;) {
    const chunk = res * CHUNK_PX;
    const lo = 0;
    const hi = Math.max(chunk, Math.ceil(Math.max(duration, 1) / chunk) * chunk);
    let from = Math.floor((view.from - span / 2) / chunk) * chunk;
    let to = Math.ceil((view.to + span / 2) / chunk) * chunk;
    from = Math.max(from, lo);
    to = Math.min(to, hi);
    if (to <= from) {
      // The view is outside the trace: ask for its nearest chunk.
      if (view.to <= lo) {
        from = lo;
        to = lo + chunk;
      } else {
        to = hi;
        from = hi - chunk;
      }
    }
    const width = Math.round((to - from) / res);
    if (width <= MAX_TILE_WIDTH) return { rows, from, to, width: Math.max(1, width), counters };
    res *= 2;
  }
}

function isSubset(a: readonly number[], b: readonly number[]): boolean {
  if (a.length > b.length) return false;
  const s = new Set(b);
  return a.every((x) => s.has(x));
}

/**
 * Whether `have` serves a view that `want` (a plan for it) describes: same
 * resolution, covering the wanted window's part of the trace and its rows.
 */
export function tileServes(have: TileRequest, want: TileRequest, view: { from: number; to: number }): boolean {
  const resHave = (have.to - have.from) / have.width;
  const resWant = (want.to - want.from) / want.width;
  if (Math.abs(resHave - resWant) > resWant * 1e-9) return false;
  const from = Math.max(view.from, want.from);
  const to = Math.min(view.to, want.to);
  if (have.from > from || have.to < to) return false;
  return isSubset(want.rows, have.rows) && isSubset(want.counters, have.counters);
}

export interface LoadedTile {
  request: TileRequest;
  tile: Tile;
  /** the loader's generation when it was asked for (invalidate() starts a new one) */
  generation: number;
}

export type TileFetcher = (r: TileRequest) => Promise<ArrayBuffer>;

export class TileLoader {
  /** the tile being drawn */
  current: LoadedTile | null = null;
  private latest: TileRequest | null = null;
  private seq = 0;
  /** bumped by invalidate(): answers asked for before it are neither drawn nor cached */
  generation = 0;
  private readonly cache: LruCache<string, LoadedTile>;
  /** requests sent (for tests and the status bar) */
  sent = 0;
  inFlight = 0;

  constructor(
    private readonly fetchTile: TileFetcher,
    private readonly onTile: (t: LoadedTile) => void,
    cacheSize = 24,
    private readonly onError: (e: unknown) => void = () => {},
  ) {
    this.cache = new LruCache(cacheSize);
  }

  /** The newest request (pending or drawn). */
  get wanted(): TileRequest | null {
    return this.latest;
  }

  /**
   * Asks for the tile for `view` planned as `plan`, unless the newest request
   * already serves it. A cached tile is delivered at once.
   */
  want(plan: TileRequest, view: { from: number; to: number }): void {
    if (this.latest && tileServes(this.latest, plan, view)) {
      if (!this.current || tileKey(this.current.request) !== tileKey(this.latest)) {
        // Still loading what we need; a cached fallback is drawn meanwhile.
      }
      return;
    }
    const key = tileKey(plan);
    const seq = ++this.seq;
    this.latest = plan;
    const cached = this.cache.get(key);
    if (cached) {
      this.current = cached;
      this.onTile(cached);
      return;
    }
    this.load(plan, key).then(
      (loaded) => {
        // Superseded while in flight: kept cached, not drawn.
        if (!loaded || seq !== this.seq) return;
        this.current = loaded;
        this.onTile(loaded);
      },
      (e: unknown) => {
        if (seq === this.seq) {
          // Let the next want() try again.
          this.latest = this.current?.request ?? null;
        }
        this.onError(e);
      },
    );
  }

  /**
   * Fetches the tile `plan` into the cache without drawing it (the page the
   * replay turns to next): a want() of it then draws it at once, or waits
   * for the same request rather than sending another. Failures are left to
   * that want() to ask again and report.
   */
  prefetch(plan: TileRequest): void {
    const key = tileKey(plan);
    if (this.cache.peek(key) || this.pending.has(key)) return;
    this.load(plan, key).catch(() => {});
  }

  /** Tiles being fetched, by key: a want() of one waits for it. */
  private readonly pending = new Map<string, Promise<LoadedTile | null>>();

  /** The tile `plan` from the server (or the request already under way), cached when it comes; null when of a replaced trace. */
  private load(plan: TileRequest, key: string): Promise<LoadedTile | null> {
    const under = this.pending.get(key);
    if (under) return under;
    this.sent++;
    this.inFlight++;
    const generation = this.generation;
    const done = this.fetchTile(plan)
      .finally(() => {
        this.inFlight--;
        this.pending.delete(key);
      })
      .then((buffer) => {
        // Data of a trace since replaced (a live snapshot): never cached.
        if (generation !== this.generation) return null;
        const loaded = { request: plan, tile: decodeTile(buffer), generation };
        this.cache.set(key, loaded);
        return loaded;
      });
    this.pending.set(key, done);
    return done;
  }

  /** Forget everything (e.g. rows changed shape). */
  reset(): void {
    this.latest = null;
    this.seq++;
  }

  /** The trace changed (a live snapshot): drop cached tiles and ask again; the drawn tile stays until then. */
  invalidate(): void {
    this.reset();
    this.cache.clear();
    this.pending.clear();
    this.generation++;
  }
}
