// The /rowmap tiles of the compact timeline: asked for as the screen needs
// them, at most MAX_IN_FLIGHT at a time (what is no longer on screen when a
// slot frees is not asked for), decoded and cached by their key. Answers of
// a trace since replaced (a live snapshot) are dropped; a request that
// failed is asked again only after RETRY_MS (frames come at every move).
import { LruCache } from '../../base/lru';
import { rowmapKey, type RowmapRequest } from './compact';
import { decodeRowmapAnswer, type StatRowmap } from './compact_stats';

/** Requests under way at once: a screen of 1600 × 1000 px needs 50 to 70 tiles of about 1024 rows × 512 px. */
export const MAX_IN_FLIGHT = 6;
export const RETRY_MS = 3000;

export type RowmapFetcher = (r: RowmapRequest) => Promise<ArrayBuffer>;

export class RowmapTiles {
  private readonly cache: LruCache<string, StatRowmap>;
  private readonly inFlight = new Set<string>();
  private queue: RowmapRequest[] = [];
  /** keys of failed requests and when they failed */
  private readonly failed = new Map<string, number>();
  /** bumped by invalidate(): answers asked for before it are neither drawn nor cached */
  private generation = 0;
  /** requests sent (tests) */
  sent = 0;

  constructor(
    private readonly fetch: RowmapFetcher,
    private readonly loaded: () => void,
    private readonly onError: (e: unknown) => void = () => {},
    cacheSize = 256,
  ) {
    this.cache = new LruCache(cacheSize);
  }

  /** Requests still to answer (queued or under way). */
  get pending(): number {
    return this.inFlight.size + this.queue.length;
  }

  /** The cached answer of the request with `key`, or undefined. */
  get(key: string): StatRowmap | undefined {
    return this.cache.get(key);
  }

  /** Asks for those of `requests` not cached nor under way; what was queued for an earlier screen is dropped. */
  want(requests: readonly RowmapRequest[]): void {
    const now = Date.now();
    this.queue = requests.filter((r) => {
      const key = rowmapKey(r);
      return !this.cache.has(key) && !this.inFlight.has(key) && !(now - (this.failed.get(key) ?? -Infinity) < RETRY_MS);
    });
    this.pump();
  }

  /** The trace changed: forget every answer and every request. */
  invalidate(): void {
    this.generation++;
    this.cache.clear();
    this.inFlight.clear();
    this.failed.clear();
    this.queue = [];
  }

  private pump(): void {
    while (this.inFlight.size < MAX_IN_FLIGHT && this.queue.length > 0) {
      const r = this.queue.shift()!;
      const key = rowmapKey(r);
      const generation = this.generation;
      this.inFlight.add(key);
      this.sent++;
      this.fetch(r).then(
        (buffer) => {
          if (generation !== this.generation) return;
          this.inFlight.delete(key);
          try {
            this.cache.set(key, decodeRowmapAnswer(buffer));
          } catch (e) {
            this.onError(e);
          }
          this.pump();
          this.loaded();
        },
        (e: unknown) => {
          if (generation !== this.generation) return;
          this.inFlight.delete(key);
          this.failed.set(key, Date.now());
          this.onError(e);
          this.pump();
        },
      );
    }
  }
}
