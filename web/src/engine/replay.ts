// Replay control: play/pause, run forward or backward at a
// speed, step one event (/step), jump, breakpoints and triggers (/find), and
// "follow live". Owns the app's Cursor; no DOM (the clock is injected).
import { formatBytes, formatDuration, formatTime } from '../base/format';
import type { EventRef } from '../protocol/api.gen';
import type { ApiClient } from '../views/context';
import type { Cursor } from './cursor';

/** Animation frames and wall time, ms (tests pass a fake). */
export interface FrameClock {
  now(): number;
  request(fn: () => void): unknown;
  cancel(handle: unknown): void;
}

export const browserClock: FrameClock = {
  now: () => performance.now(),
  request: (fn) => requestAnimationFrame(() => fn()),
  cancel: (h) => cancelAnimationFrame(h as number),
};

/** Replay speeds: trace ns per wall second. 1 s/s is real time. */
export const SPEEDS: readonly { ns: number; label: string }[] = [
  { ns: 1e3, label: '1 µs/s' },
  { ns: 1e4, label: '10 µs/s' },
  { ns: 1e5, label: '100 µs/s' },
  { ns: 1e6, label: '1 ms/s' },
  { ns: 1e7, label: '10 ms/s' },
  { ns: 1e8, label: '100 ms/s' },
  { ns: 1e9, label: 'real time (1 s/s)' },
  { ns: 1e10, label: '10 s/s' },
];
export const DEFAULT_SPEED = 1e6;

/** A condition that pauses replay; the /find endpoint finds its events. */
export type TriggerSpec =
  | { kind: 'state'; state: number; ns: number }
  | { kind: 'counter'; counter: number; value: number }
  | { kind: 'message'; bytes: number };

export type Trigger = TriggerSpec & { id: number; label: string };

/** Why replay paused by itself (null: by the user, or never run). */
export type StopReason =
  | { kind: 'breakpoint'; time: number }
  | { kind: 'trigger'; trigger: Trigger; event: EventRef }
  | { kind: 'end' }
  | { kind: 'start' }
  | { kind: 'error'; message: string };

export interface ReplayState {
  playing: boolean;
  /** 1 forward, -1 backward */
  direction: 1 | -1;
  /** trace ns per wall second */
  speed: number;
  followLive: boolean;
  stopped: StopReason | null;
  /** the event the last step or trigger went to */
  event: EventRef | null;
}

export interface ReplayOptions {
  api: ApiClient;
  cursor: Cursor;
  /** the trace's end (TraceSummary.duration); setEnd() updates it */
  end: number;
  clock?: FrameClock;
  /** names for trigger labels */
  stateName?: (state: number) => string;
  counterName?: (track: number) => string;
}

/** Text for the "stopped by" line. */
export function describeStop(s: StopReason): string {
  switch (s.kind) {
    case 'breakpoint':
      return `stopped at breakpoint ${formatTime(s.time)}`;
    case 'trigger':
      return `stopped by trigger "${s.trigger.label}" at ${formatTime(s.event.time)}${s.event.text ? `: ${s.event.text}` : ''}`;
    case 'end':
      return 'reached the end';
    case 'start':
      return 'reached the start';
    case 'error':
      return `replay stopped: ${s.message}`;
  }
}

export class ReplayController {
  private st: ReplayState = {
    playing: false,
    direction: 1,
    speed: DEFAULT_SPEED,
    followLive: false,
    stopped: null,
    event: null,
  };
  private end: number;
  private bps: number[] = [];
  private trigs: Trigger[] = [];
  private nextTrigger = 1;
  private frame: unknown = null;
  private lastTick = 0;
  /** bumped by anything that makes a pending /find or /step answer stale */
  private seq = 0;
  private pending: Promise<unknown> | null = null;
  private steps: Promise<unknown> = Promise.resolve();
  private readonly clock: FrameClock;
  private readonly listeners = new Set<(s: ReplayState) => void>();
  private readonly eventListeners = new Set<(e: EventRef) => void>();

  constructor(private readonly options: ReplayOptions) {
    this.end = Math.max(0, options.end);
    this.clock = options.clock ?? browserClock;
  }

  get cursor(): Cursor {
    return this.options.cursor;
  }

  state(): ReplayState {
    return { ...this.st };
  }

  /** Called after every change of state (not on every cursor move). */
  onChange(listener: (s: ReplayState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with the event a step or a trigger went to (views select it). */
  onEvent(listener: (e: EventRef) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Resolves once no /step or /find answer is outstanding (tests). */
  async idle(): Promise<void> {
    await this.steps;
    while (this.pending) await this.pending.catch(() => {});
  }

  traceEnd(): number {
    return this.end;
  }

  /** The trace grew (live): replay may run up to `end`; following live moves the cursor there. */
  setEnd(end: number): void {
    this.end = Math.max(0, end);
    if (this.st.followLive) this.cursor.seek(this.end);
  }

  // ---- play / pause ------------------------------------------------------

  play(direction: 1 | -1 = this.st.direction): void {
    const t = this.cursor.time();
    // At the end already: start over from the other side, like a player.
    if (direction > 0 && t >= this.end) this.cursor.seek(0);
    if (direction < 0 && t <= 0) this.cursor.seek(this.end);
    this.stopFrames();
    this.set({ playing: true, direction, followLive: false, stopped: null });
    this.lastTick = this.clock.now();
    this.schedule();
  }

  pause(): void {
    this.halt(null);
  }

  toggle(): void {
    if (this.st.playing) this.pause();
    else this.play();
  }

  setSpeed(nsPerSecond: number): void {
    if (!(nsPerSecond > 0)) return;
    this.set({ speed: nsPerSecond });
  }

  /** Keeps the cursor at the newest clock of a live trace (pauses play). */
  setFollowLive(on: boolean): void {
    if (on) this.stopFrames();
    this.set({ followLive: on, playing: on ? false : this.st.playing });
    if (on) this.cursor.seek(this.end);
  }

  /** Moves the cursor to `time` (clamped to the trace). */
  jump(time: number): void {
    if (!Number.isFinite(time)) return;
    this.seq++;
    this.set({ stopped: null, event: null, followLive: false });
    this.cursor.seek(Math.min(Math.max(time, 0), this.end));
    if (this.st.playing) {
      // A /find for the old place may be out: ask again from here.
      this.lastTick = this.clock.now();
      this.schedule();
    }
  }

  // ---- step ----------------------------------------------------------------

  /**
   * Moves the cursor to the next (previous) event; null when there is none.
   * Steps asked in a row (a held key) go one after the other.
   */
  step(direction: 1 | -1): Promise<EventRef | null> {
    const run = this.steps.then(() => this.stepOnce(direction));
    this.steps = run.catch(() => null);
    return run;
  }

  private async stepOnce(direction: 1 | -1): Promise<EventRef | null> {
    this.halt(null);
    this.set({ followLive: false });
    const seq = ++this.seq;
    const ask = this.options.api.get('step', { t: this.cursor.time(), dir: direction > 0 ? 'forward' : 'back' });
    const done = this.track(ask);
    let ev: EventRef;
    try {
      ev = await done;
    } catch (e) {
      if (seq === this.seq) this.set({ stopped: { kind: 'error', message: errorText(e) } });
      return null;
    }
    if (seq !== this.seq) return null;
    if (!ev.found) {
      this.set({ stopped: { kind: direction > 0 ? 'end' : 'start' } });
      return null;
    }
    this.set({ event: ev, stopped: null });
    this.cursor.seek(ev.time);
    for (const l of [...this.eventListeners]) l(ev);
    return ev;
  }

  // ---- breakpoints and triggers ------------------------------------------

  breakpoints(): number[] {
    return [...this.bps];
  }

  addBreakpoint(time: number): void {
    if (!Number.isFinite(time) || this.bps.includes(time)) return;
    this.bps = [...this.bps, time].sort((a, b) => a - b);
    this.emit();
  }

  removeBreakpoint(time: number): void {
    this.bps = this.bps.filter((b) => b !== time);
    this.emit();
  }

  triggers(): Trigger[] {
    return [...this.trigs];
  }

  addTrigger(spec: TriggerSpec): Trigger {
    const t = { ...spec, id: this.nextTrigger++, label: this.label(spec) } as Trigger;
    this.trigs = [...this.trigs, t];
    this.emit();
    return t;
  }

  removeTrigger(id: number): void {
    this.trigs = this.trigs.filter((t) => t.id !== id);
    this.emit();
  }

  label(spec: TriggerSpec): string {
    switch (spec.kind) {
      case 'state': {
        const name = spec.state >= 0 ? (this.options.stateName?.(spec.state) ?? `state ${spec.state}`) : 'any state';
        return `${name} longer than ${formatDuration(spec.ns)}`;
      }
      case 'counter': {
        const name = spec.counter >= 0 ? (this.options.counterName?.(spec.counter) ?? `counter ${spec.counter}`) : 'any counter';
        return `${name} above ${spec.value}`;
      }
      case 'message':
        return `message larger than ${formatBytes(spec.bytes)}`;
    }
  }

  // ---- running -------------------------------------------------------------

  /** One frame of play: advance by speed × elapsed, unless a breakpoint or trigger comes first. */
  private async tick(): Promise<void> {
    this.frame = null;
    if (!this.st.playing) return;
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.lastTick);
    this.lastTick = now;
    const dir = this.st.direction;
    const a = this.cursor.time();
    const limit = dir > 0 ? this.end : 0;
    let b = a + dir * (this.st.speed * elapsed) / 1000;
    if (dir > 0 ? b > limit : b < limit) b = limit;
    if (b === a) {
      if (a === limit) this.halt({ kind: dir > 0 ? 'end' : 'start' });
      else this.schedule();
      return;
    }
    // The nearest breakpoint crossed: in (a, b] forward, [b, a) backward.
    const crossed = this.bps.filter((t) => (dir > 0 ? t > a && t <= b : t < a && t >= b));
    const bp = crossed.length ? (dir > 0 ? crossed[0]! : crossed[crossed.length - 1]!) : null;
    const until = bp ?? b;
    let hit: { trigger: Trigger; event: EventRef } | null = null;
    if (this.trigs.length) {
      const seq = this.seq;
      let answers: EventRef[];
      try {
        answers = await this.track(Promise.all(this.trigs.map((t) => this.find(t, a, dir, until))));
      } catch (e) {
        if (seq === this.seq) this.halt({ kind: 'error', message: errorText(e) });
        return;
      }
      if (seq !== this.seq || !this.st.playing) return;
      if (this.cursor.time() !== a) {
        // Moved meanwhile (a click on the ruler): go on from there.
        this.schedule();
        return;
      }
      answers.forEach((ev, i) => {
        if (!ev.found) return;
        const inRange = dir > 0 ? ev.time > a && ev.time <= until : ev.time < a && ev.time >= until;
        if (!inRange) return;
        if (!hit || (dir > 0 ? ev.time < hit.event.time : ev.time > hit.event.time)) hit = { trigger: this.trigs[i]!, event: ev };
      });
    }
    const h = hit as { trigger: Trigger; event: EventRef } | null;
    if (h) {
      this.cursor.seek(h.event.time);
      this.halt({ kind: 'trigger', trigger: h.trigger, event: h.event }, h.event);
      for (const l of [...this.eventListeners]) l(h.event);
      return;
    }
    if (bp !== null) {
      this.cursor.seek(bp);
      this.halt({ kind: 'breakpoint', time: bp });
      return;
    }
    this.cursor.seek(b);
    if (b === limit) this.halt({ kind: dir > 0 ? 'end' : 'start' });
    else this.schedule();
  }

  private find(t: Trigger, from: number, dir: 1 | -1, until: number): Promise<EventRef> {
    const base = { t: from, dir: dir > 0 ? 'forward' : 'back', until };
    switch (t.kind) {
      case 'state':
        return this.options.api.get('find', { ...base, kind: 'state', state: t.state, ns: t.ns });
      case 'counter':
        return this.options.api.get('find', { ...base, kind: 'counter', counter: t.counter, value: t.value });
      case 'message':
        return this.options.api.get('find', { ...base, kind: 'message', bytes: t.bytes });
    }
  }

  private schedule(): void {
    if (this.frame !== null || !this.st.playing) return;
    this.frame = this.clock.request(() => void this.tick());
  }

  private stopFrames(): void {
    this.seq++;
    if (this.frame !== null) this.clock.cancel(this.frame);
    this.frame = null;
  }

  private halt(reason: StopReason | null, event: EventRef | null = this.st.event): void {
    this.stopFrames();
    this.set({ playing: false, stopped: reason, event });
  }

  private track<T>(p: Promise<T>): Promise<T> {
    const tracked = p.finally(() => {
      if (this.pending === tracked) this.pending = null;
    });
    this.pending = tracked;
    return tracked;
  }

  private set(patch: Partial<ReplayState>): void {
    this.st = { ...this.st, ...patch };
    this.emit();
  }

  private emit(): void {
    const s = this.state();
    for (const l of [...this.listeners]) l(s);
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
