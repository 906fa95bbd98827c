// The test hooks on window.parallax: what end-to-end tests and benchmarks read
// of the running viewer (timeline geometry, replay, live status, errors).
import type { ReplayState } from '../engine/replay';
import type { LiveStatus, TraceSummary } from '../protocol/api.gen';

export interface ParallaxHooks {
  timeline: {
    window(): { from: number; to: number };
    rowY(row: number): number;
    /** middle of the lane at `depth` of `row`, CSS px within the canvas */
    laneY(row: number, depth: number): number;
    timeToX(t: number): number;
    xToTime(x: number): number;
    highlighted(): number[];
    selected(): number;
    /** the selected message: its ends and the end the flow keys go on from; null when none */
    selectedMessage(): { id: number; sendRow: number; recvRow: number; send: number; recv: number; focus: 'send' | 'recv' } | null;
    /** the area selected with ctrl-drag (time range, thread rows); null when none */
    area(): { from: number; to: number; rows: number[] } | null;
    /** shows [from, to] (clamped to the trace) */
    setWindow(from: number, to: number): void;
    /** the trace duration of the summary under which the painted tile was asked for (-1: none yet) */
    drawnDuration(): number;
    /** frames the timeline has painted */
    frames(): number;
    /** ms the last frame took to paint (compact mode: the whole image) */
    lastFrameMs(): number;
  } | null;
  ready: boolean;
  /** error messages shown in the banner */
  errors(): string[];
  /** the colour each state is drawn in now (recorded, the palette's, picked in the legend, or its paradigm's) */
  stateColors(): string[];
  /** the loaded trace's summary */
  summary: TraceSummary | null;
  replay: {
    /** the replay cursor's trace time */
    time(): number;
    state(): ReplayState;
    breakpoints(): number[];
    /** resolves once no /step or /find answer is outstanding */
    idle(): Promise<void>;
  } | null;
  /** a live trace's newest status, null for a file */
  live: LiveStatus | null;
}

declare global {
  interface Window {
    parallax: ParallaxHooks;
  }
}
