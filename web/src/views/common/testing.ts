// Test helpers for the views: a fake server client answering from fixtures,
// a timeline and state style that record what views do, a recording Painter.
// Only imported by *.test.ts.
import { afterEach, beforeEach, vi } from 'vitest';
import type { EndpointTypes, SliceRef, TraceSummary } from '../../protocol/api.gen';
import type { Painter, TextStyle } from '../../render/painter';
import { Cursor } from '../../engine/cursor';
import type { ApiClient, StateStyle, TimelineControl, TimelineTarget, TraceUpdates, ViewContext } from '../context';

export type Handlers = {
  [K in keyof EndpointTypes]?: (params: EndpointTypes[K]['params']) => EndpointTypes[K]['response'] | Promise<EndpointTypes[K]['response']>;
};

export interface FakeApi extends ApiClient {
  calls: { endpoint: string; params: unknown }[];
}

export function fakeApi(handlers: Handlers): FakeApi {
  const calls: { endpoint: string; params: unknown }[] = [];
  return {
    calls,
    get(endpoint, params) {
      calls.push({ endpoint, params });
      const h = handlers[endpoint] as ((p: typeof params) => unknown) | undefined;
      if (!h) return Promise.reject(new Error(`no fixture for ${endpoint}`));
      try {
        return Promise.resolve(h(params)) as never;
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}

export interface FakeTimeline extends TimelineControl {
  jumps: TimelineTarget[];
  highlights: (readonly SliceRef[])[];
  win: { from: number; to: number };
  /** Moves the window and tells the listeners. */
  moveTo(from: number, to: number): void;
  listeners: Set<(from: number, to: number) => void>;
}

export function fakeTimeline(from = 0, to = 1000): FakeTimeline {
  const listeners = new Set<(from: number, to: number) => void>();
  const t: FakeTimeline = {
    jumps: [],
    highlights: [],
    win: { from, to },
    listeners,
    jumpTo(target) {
      t.jumps.push(target);
    },
    highlight(slices) {
      t.highlights.push(slices);
    },
    window() {
      return { ...t.win };
    },
    onWindowChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setOverlay() {},
    moveTo(f, e) {
      t.win = { from: f, to: e };
      for (const l of listeners) l(f, e);
    },
  };
  return t;
}

export interface FakeStates extends StateStyle {
  hidden: Set<number>;
  colors: Map<number, string>;
  changed(): void;
}

export function fakeStates(summary: TraceSummary): FakeStates {
  const listeners = new Set<() => void>();
  const colors = new Map(summary.states.map((s) => [s.index, s.color]));
  const s: FakeStates = {
    hidden: new Set(),
    colors,
    color: (state) => colors.get(state) ?? '#888888',
    visible: (state) => !s.hidden.has(state),
    onChange(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    changed() {
      for (const l of listeners) l();
    },
  };
  return s;
}

/** A small trace: 2 processes with 2 threads each, 3 states. */
export function fixtureSummary(): TraceSummary {
  return {
    id: 't0',
    name: 'run.plx',
    duration: 1_000_000,
    begin_wall: '',
    events: 100,
    slices: 50,
    messages: 4,
    from_file: false,
    repairing: false,
    repair_progress: 1,
    processes: [
      { index: 0, rank: 0, pid: 100, host: 'node1', name: 'rank 0', executable: '/bin/app', arguments: '-n 4', clock_offset_ns: 0, clock_drift_ppm: 0, threads: [0, 1] },
      { index: 1, rank: 1, pid: 101, host: 'node2', name: 'rank 1', executable: '/bin/app', arguments: '-n 4', clock_offset_ns: 1500, clock_drift_ppm: 2.5, threads: [2, 3] },
    ],
    threads: [
      { index: 0, process: 0, tid: 100, name: 'main', begin: 0, end: 900_000, records: 40, max_depth: 2 },
      { index: 1, process: 0, tid: 101, name: 'worker', begin: 1000, end: 800_000, records: 10, max_depth: 0 },
      { index: 2, process: 1, tid: 200, name: 'main', begin: 0, end: 1_000_000, records: 40, max_depth: 1 },
      { index: 3, process: 1, tid: 201, name: 'worker <io>', begin: 5000, end: 700_000, records: 10, max_depth: 0 },
    ],
    states: [
      { index: 0, name: 'compute', category: '', color: '#1f77b4' },
      { index: 1, name: 'MPI_Send', category: 'MPI', color: '#ff7f0e' },
      { index: 2, name: 'MPI_Wait', category: 'MPI', color: '#2ca02c' },
    ],
    event_types: [],
    counters: [],
    hosts: ['node1', 'node2'],
    problems: [],
  };
}

/** Live updates a test fires by hand. */
export class FakeUpdates implements TraceUpdates {
  isLive = false;
  private readonly listeners = new Set<(s: TraceSummary) => void>();
  live(): boolean {
    return this.isLive;
  }
  onUpdate(listener: (s: TraceSummary) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  fire(summary: TraceSummary): void {
    for (const l of [...this.listeners]) l(summary);
  }
}

export function fakeContext(handlers: Handlers, summary = fixtureSummary()): {
  ctx: ViewContext;
  api: FakeApi;
  timeline: FakeTimeline;
  states: FakeStates;
  replay: Cursor;
  updates: FakeUpdates;
} {
  const api = fakeApi(handlers);
  const timeline = fakeTimeline(0, summary.duration);
  const states = fakeStates(summary);
  const replay = new Cursor(0);
  const updates = new FakeUpdates();
  return { ctx: { api, summary, timeline, states, replay, updates }, api, timeline, states, replay, updates };
}

/** Lets pending promise callbacks run. */
export async function flush(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise<void>((r) => setTimeout(r, 0));
}

export interface PaintOp {
  op: string;
  args: (number | string | readonly number[])[];
  color?: string;
  text?: string;
}

/** A Painter that records every operation. */
export class RecordingPainter implements Painter {
  readonly ops: PaintOp[] = [];
  constructor(
    readonly width = 800,
    readonly height = 300,
  ) {}
  clear(color?: string): void {
    this.ops.push({ op: 'clear', args: [], ...(color !== undefined ? { color } : {}) });
  }
  fillRect(x: number, y: number, w: number, h: number, color: string): void {
    this.ops.push({ op: 'fillRect', args: [x, y, w, h], color });
  }
  strokeRect(x: number, y: number, w: number, h: number, color: string): void {
    this.ops.push({ op: 'strokeRect', args: [x, y, w, h], color });
  }
  line(x1: number, y1: number, x2: number, y2: number, color: string): void {
    this.ops.push({ op: 'line', args: [x1, y1, x2, y2], color });
  }
  polyline(points: readonly number[], color: string): void {
    this.ops.push({ op: 'polyline', args: [points], color });
  }
  polygon(points: readonly number[], fill: string): void {
    this.ops.push({ op: 'polygon', args: [points], color: fill });
  }
  segments(points: readonly number[], color: string): void {
    this.ops.push({ op: 'segments', args: [points], color });
  }
  triangles(points: readonly number[], fill: string): void {
    this.ops.push({ op: 'triangles', args: [points], color: fill });
  }
  text(x: number, y: number, text: string, style: TextStyle): void {
    this.ops.push({ op: 'text', args: [x, y], text, color: style.color });
  }
  measureText(text: string): number {
    return text.length * 6;
  }
  save(): void {
    this.ops.push({ op: 'save', args: [] });
  }
  clip(x: number, y: number, w: number, h: number): void {
    this.ops.push({ op: 'clip', args: [x, y, w, h] });
  }
  restore(): void {
    this.ops.push({ op: 'restore', args: [] });
  }
  texts(): string[] {
    return this.ops.filter((o) => o.op === 'text').map((o) => o.text!);
  }
}

/**
 * A fresh host element for each test of the calling file (canvas stubbed),
 * removed after it, with real timers restored; returns the current one.
 */
export function viewHost(): () => HTMLElement {
  let host: HTMLElement | null = null;
  beforeEach(() => {
    stubCanvas();
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => {
    host?.remove();
    host = null;
    vi.useRealTimers();
  });
  return () => host!;
}

/** jsdom has no canvas: make getContext return null quietly. */
export function stubCanvas(): void {
  if (typeof HTMLCanvasElement !== 'undefined') {
    HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
  }
}
