// What a view gets from the application: the server client, the loaded trace's
// summary, the timeline it can steer, and the shared state colours. Views only
// draw and handle events; data always comes through `api`.
import type { EndpointTypes, SliceRef, TraceSummary } from '../protocol/api.gen';
import type { Painter } from '../render/painter';

/** Typed access to the server API for one trace ({trace} is filled in). */
export interface ApiClient {
  get<K extends keyof EndpointTypes>(
    endpoint: K,
    params: EndpointTypes[K]['params'],
  ): Promise<EndpointTypes[K]['response']>;
}

/** A place in the timeline: rows and times in trace time (ns). */
export interface TimelineTarget {
  row: number;
  begin: number;
  end: number;
  /** slice to select and show details for; -1 or absent = none */
  slice?: number;
}

/** What other views may do to the timeline. */
export interface TimelineControl {
  /** Zoom to show [begin, end] with some margin, scroll `row` into view, select the slice. */
  jumpTo(target: TimelineTarget): void;
  /** Blink these slices in the timeline until replaced; [] clears. */
  highlight(slices: readonly SliceRef[]): void;
  /** The visible time window. */
  window(): { from: number; to: number };
  /** Called after every zoom or pan; returns an unsubscribe function. */
  onWindowChange(listener: (from: number, to: number) => void): () => void;
  /** Show or hide an overlay. */
  setOverlay(overlay: 'critical-path' | 'anomalies' | 'waits', on: boolean): void;
  /** Width of the label column, CSS px: views on the timeline's time axis start their plot there. */
  labelWidth?(): number;
  /** Called when the label width or the rows shown change; returns an unsubscribe function. */
  onViewChange?(listener: () => void): () => void;
}

/** State colours and visibility, shared by the legend, timeline and charts. */
export interface StateStyle {
  color(state: number): string;
  visible(state: number): boolean;
  /** Called when a colour or visibility changes; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}

/**
 * The replay cursor, shared by every view: a moment in trace
 * time that play/pause/step/jump/breakpoints/triggers move. Views that show
 * "the program at a moment" (animation, lights, bars, logical time) draw the
 * cursor's moment and redraw when it moves.
 */
export interface ReplayCursor {
  /** The cursor's trace time (ns). */
  time(): number;
  /** Moves the cursor (pauses nothing; views follow). */
  seek(time: number): void;
  /** Called whenever the cursor moves; returns an unsubscribe function. */
  onMove(listener: (time: number) => void): () => void;
}

/**
 * A live trace grows: after each server snapshot the summary is replaced and
 * every view refetches what it shows. For a trace file nothing ever fires.
 */
export interface TraceUpdates {
  /** Whether this trace is live (parallax serve --listen). */
  live(): boolean;
  /** Called with the new summary after each snapshot; returns an unsubscribe function. */
  onUpdate(listener: (summary: TraceSummary) => void): () => void;
}

export interface ViewContext {
  api: ApiClient;
  /** The summary when the view was made; a live trace's newest comes through `updates`. */
  summary: TraceSummary;
  timeline: TimelineControl;
  states: StateStyle;
  replay: ReplayCursor;
  updates: TraceUpdates;
}

/** A view in a panel tab (histogram, statistics, matrix, ...). */
export interface View {
  /** Builds its DOM into `host` and starts loading its data. */
  mount(host: HTMLElement): void;
  /** Removes listeners; the host element is emptied by the caller. */
  unmount(): void;
  /** Paints what it shows for PNG/SVG export; null when it is not a drawing (a table). */
  paint?(p: Painter): void;
  /** Size of the exported picture in CSS pixels. */
  exportSize?(): { width: number; height: number };
}

/** An entry of the panel's tab bar. */
export interface ViewFactory {
  /** stable id, used in test selectors: the tab has data-view="<id>" */
  id: string;
  title: string;
  create(ctx: ViewContext): View;
  /**
   * The view refetches on ctx.updates itself. Other panel views are made
   * again from a live trace's newest summary (at most every 2 s).
   */
  followsUpdates?: boolean;
}
