// What the timeline draws over its bars besides the selection: the blinking
// highlights other views ask for, and the critical-path and anomaly overlays
// the toolbar turns on. The overlays' data is asked of the server the first
// time one is turned on and kept, since it does not change with the window;
// a live trace's new snapshot drops it and asks again for those that are on.
// The waits overlay (waits_overlay.ts) is the exception: it follows the
// window, asked for by waitsFor() from each frame.
import type { AnomalyList, CriticalPathResult, PathSegment, SliceRef } from '../../protocol/api.gen';
import type { ApiClient } from '../context';
import type { TimelineGeometry } from './geometry';
import { WaitsOverlay, type WaitsPaint } from './waits_overlay';

export type OverlayName = 'critical-path' | 'anomalies' | 'waits';

/** What the overlays need of the timeline. */
export interface TimelineOverlaysHost {
  fetchCriticalPath(): Promise<CriticalPathResult>;
  fetchAnomalies(): Promise<AnomalyList>;
  requestDraw(): void;
}

export class TimelineOverlays {
  private highlights: readonly SliceRef[] = [];
  private path: PathSegment[] | null = null;
  private anomalySlices: SliceRef[] | null = null;
  private readonly on = { 'critical-path': false, anomalies: false };
  private readonly waits: WaitsOverlay;

  constructor(private readonly host: TimelineOverlaysHost) {
    this.waits = new WaitsOverlay(() => host.requestDraw());
  }

  /** The slices to blink; an empty list stops the blinking. */
  highlight(slices: readonly SliceRef[]): void {
    this.highlights = [...slices];
    this.host.requestDraw();
  }

  get highlighted(): readonly SliceRef[] {
    return this.highlights;
  }

  /** Whether something blinks, so frames must keep coming. */
  get blinking(): boolean {
    return this.highlights.length > 0;
  }

  /** The blink phase 0..1 at `nowMs` (performance.now()): two blinks a second, 0 with nothing highlighted. */
  blink(nowMs: number): number {
    return this.highlights.length ? 0.5 + 0.5 * Math.sin((nowMs / 1000) * 2 * Math.PI * 2) : 0;
  }

  /** Turns an overlay on or off; turning it on asks for its data unless it is there. */
  set(overlay: OverlayName, on: boolean): void {
    if (overlay === 'waits') return this.waits.setOn(on);
    this.on[overlay] = on;
    if (on && overlay === 'critical-path' && !this.path) {
      this.host.fetchCriticalPath().then(
        (r) => {
          this.path = [...r.segments].sort((a, b) => a.begin - b.begin);
          this.host.requestDraw();
        },
        () => {
          // Reported by the client; the toggle stays on with nothing to draw.
        },
      );
    }
    if (on && overlay === 'anomalies' && !this.anomalySlices) {
      this.host.fetchAnomalies().then(
        (r) => {
          this.anomalySlices = r.anomalies.map((a) => a.slice);
          this.host.requestDraw();
        },
        () => {},
      );
    }
    this.host.requestDraw();
  }

  /** The critical path in time order, while that overlay is on and its data is there. */
  get criticalPath(): PathSegment[] | null {
    return this.on['critical-path'] ? this.path : null;
  }

  /** The anomalous slices, while that overlay is on and its data is there. */
  get anomalies(): SliceRef[] | null {
    return this.on.anomalies ? this.anomalySlices : null;
  }

  /** Whether an overlay is on. */
  isOn(overlay: OverlayName): boolean {
    return overlay === 'waits' ? this.waits.enabled : this.on[overlay];
  }

  /**
   * The waits of what `g` shows, while that overlay is on (else null): asks
   * for them when the window or the rows on screen changed (debounced);
   * `canvas` gets the test hooks (data-waits-shown, ...).
   */
  waitsFor(api: ApiClient, g: TimelineGeometry, threadCount: number, canvas: HTMLElement | null): WaitsPaint | null {
    return this.waits.sync(api, g, threadCount, canvas);
  }

  /** A new snapshot: the data no longer holds (refetch() asks for it again; the waits, the next frame). */
  drop(): void {
    this.path = null;
    this.anomalySlices = null;
    this.waits.drop();
  }

  /** Asks again for the data of the overlays that are on. */
  refetch(): void {
    for (const o of ['critical-path', 'anomalies'] as const) if (this.on[o]) this.set(o, true);
  }
}
