import { describe, expect, it } from 'vitest';
import type { EventRef, FindParams, StepParams } from '../protocol/api.gen';
import { fakeApi, flush } from '../views/common/testing';
import { Cursor } from './cursor';
import { describeStop, ReplayController, type FrameClock } from './replay';

/** Frames run only when the test says so; wall time moves by hand. */
class FakeClock implements FrameClock {
  t = 1000;
  private queue: { id: number; fn: () => void }[] = [];
  private next = 1;
  now(): number {
    return this.t;
  }
  request(fn: () => void): unknown {
    const id = this.next++;
    this.queue.push({ id, fn });
    return id;
  }
  cancel(h: unknown): void {
    this.queue = this.queue.filter((q) => q.id !== h);
  }
  get waiting(): number {
    return this.queue.length;
  }
  /** Advances wall time by `ms` and runs the frames that were requested. */
  async frame(ms: number): Promise<void> {
    this.t += ms;
    const q = this.queue;
    this.queue = [];
    for (const f of q) f.fn();
    await flush();
  }
}

const none: EventRef = { found: false, time: 0, row: 0, kind: '', ref: 0, text: '' };

/** Events at these times (sorted); /step answers from them like the server. */
function stepper(times: number[]) {
  return (p: StepParams): EventRef => {
    const fwd = (p.dir ?? 'forward') === 'forward';
    const t = fwd ? times.find((x) => x > p.t) : [...times].reverse().find((x) => x < p.t);
    if (t === undefined) return none;
    return { found: true, time: t, row: 1, kind: 'begin', ref: times.indexOf(t) + 100, text: `event at ${t}` };
  };
}

/** Hits of triggers of `kind` at these times; /find answers the first strictly after t, up to until. */
function finder(hits: number[], calls: FindParams[], kind = '') {
  return (p: FindParams): EventRef => {
    calls.push(p);
    if (kind && p.kind !== kind) return none;
    const fwd = (p.dir ?? 'forward') === 'forward';
    const until = p.until ?? -1;
    const c = fwd
      ? hits.find((x) => x > p.t && (until < 0 || x <= until))
      : [...hits].reverse().find((x) => x < p.t && (until < 0 || x >= until));
    if (c === undefined) return none;
    return { found: true, time: c, row: 2, kind: 'state', ref: 7, text: `MPI_Recv lasted long at ${c}` };
  };
}

function setup(end = 1_000_000, handlers: Parameters<typeof fakeApi>[0] = {}) {
  const clock = new FakeClock();
  const cursor = new Cursor(0);
  const api = fakeApi(handlers);
  const replay = new ReplayController({ api, cursor, end, clock, stateName: (s) => ['compute', 'MPI_Recv'][s] ?? '?' });
  return { clock, cursor, api, replay };
}

describe('ReplayController', () => {
  it('play advances the cursor by speed × elapsed wall time', async () => {
    const { clock, cursor, replay } = setup();
    replay.setSpeed(1e6); // 1 ms of trace per wall second
    replay.play();
    expect(replay.state().playing).toBe(true);
    await clock.frame(100); // 0.1 s → 100 µs
    expect(cursor.time()).toBeCloseTo(100_000, 6);
    await clock.frame(250);
    expect(cursor.time()).toBeCloseTo(350_000, 6);
    replay.setSpeed(1e5);
    await clock.frame(1000);
    expect(cursor.time()).toBeCloseTo(450_000, 6);
    replay.pause();
    expect(clock.waiting).toBe(0);
    await clock.frame(1000);
    expect(cursor.time()).toBeCloseTo(450_000, 6);
  });

  it('runs backward and pauses at the start, forward and pauses at the end', async () => {
    const { clock, cursor, replay } = setup(1_000_000);
    cursor.seek(300_000);
    replay.setSpeed(1e6);
    replay.play(-1);
    await clock.frame(200);
    expect(cursor.time()).toBeCloseTo(100_000, 6);
    await clock.frame(500);
    expect(cursor.time()).toBe(0);
    expect(replay.state().playing).toBe(false);
    expect(replay.state().stopped).toEqual({ kind: 'start' });
    replay.play(1);
    await clock.frame(900);
    expect(replay.state().playing).toBe(true);
    await clock.frame(900);
    expect(cursor.time()).toBe(1_000_000);
    expect(replay.state().playing).toBe(false);
    expect(describeStop(replay.state().stopped!)).toBe('reached the end');
    // Play at the end starts over.
    replay.play(1);
    expect(cursor.time()).toBe(0);
  });

  it('step moves to what /step answers, both ways, and says when there is nothing more', async () => {
    const times = [10, 25, 25_000, 400_000];
    const { cursor, replay, api } = setup(1_000_000, { step: stepper(times) });
    const seen: EventRef[] = [];
    replay.onEvent((e) => seen.push(e));
    const visited: number[] = [];
    for (let i = 0; i < 4; i++) visited.push((await replay.step(1))!.time);
    expect(visited).toEqual(times);
    expect(cursor.time()).toBe(400_000);
    expect(await replay.step(1)).toBeNull();
    expect(replay.state().stopped).toEqual({ kind: 'end' });
    expect(cursor.time()).toBe(400_000);
    for (let i = 0; i < 3; i++) await replay.step(-1);
    expect(cursor.time()).toBe(10);
    expect(replay.state().event?.ref).toBe(100);
    expect(seen.map((e) => e.time)).toEqual([10, 25, 25_000, 400_000, 25_000, 25, 10]);
    expect(api.calls.filter((c) => c.endpoint === 'step').at(-1)!.params).toEqual({ t: 25, dir: 'back' });
  });

  it('steps asked in a row go one after the other', async () => {
    const { cursor, replay } = setup(1_000_000, { step: stepper([10, 20, 30]) });
    const a = replay.step(1);
    const b = replay.step(1);
    const c = replay.step(1);
    expect((await Promise.all([a, b, c])).map((e) => e?.time)).toEqual([10, 20, 30]);
    expect(cursor.time()).toBe(30);
  });

  it('stepping pauses a run', async () => {
    const { clock, replay } = setup(1_000_000, { step: stepper([500_000]) });
    replay.play();
    await replay.step(1);
    expect(replay.state().playing).toBe(false);
    expect(clock.waiting).toBe(0);
  });

  it('a breakpoint the run crosses stops it exactly there, and play goes on past it', async () => {
    const { clock, cursor, replay } = setup(1_000_000);
    replay.addBreakpoint(123_457);
    replay.addBreakpoint(700_001);
    replay.setSpeed(1e7); // 10 ms/s: 1 ms per 100 ms frame
    replay.play();
    await clock.frame(10); // 100 µs: before it
    expect(cursor.time()).toBeCloseTo(100_000, 6);
    await clock.frame(10); // would reach 200 µs
    expect(cursor.time()).toBe(123_457);
    expect(replay.state().playing).toBe(false);
    expect(replay.state().stopped).toEqual({ kind: 'breakpoint', time: 123_457 });
    expect(describeStop(replay.state().stopped!)).toMatch(/breakpoint 123\.457 µs/);
    replay.play();
    await clock.frame(100);
    expect(cursor.time()).toBe(700_001);
    replay.removeBreakpoint(700_001);
    expect(replay.breakpoints()).toEqual([123_457]);
    // Backward it stops at the nearest one on its way.
    replay.play(-1);
    await clock.frame(100);
    expect(cursor.time()).toBe(123_457);
  });

  it('a trigger stops the run at the /find hit, says which one fired, and asks only up to the frame end', async () => {
    const calls: FindParams[] = [];
    const { clock, cursor, replay } = setup(1_000_000, { find: finder([250_000], calls, 'state') });
    const quiet = replay.addTrigger({ kind: 'message', bytes: 1 << 20 });
    const recv = replay.addTrigger({ kind: 'state', state: 1, ns: 5_000 });
    expect(recv.label).toBe('MPI_Recv longer than 5 µs');
    expect(quiet.label).toBe('message larger than 1 MiB');
    replay.setSpeed(1e6);
    replay.play();
    await clock.frame(100);
    expect(cursor.time()).toBeCloseTo(100_000, 6);
    // Each trigger was asked from the old cursor to the new one.
    expect(calls).toEqual([
      { t: 0, dir: 'forward', until: 100_000, kind: 'message', bytes: 1 << 20 },
      { t: 0, dir: 'forward', until: 100_000, kind: 'state', state: 1, ns: 5_000 },
    ]);
    await clock.frame(100);
    await clock.frame(100); // the frame ending at 300 µs crosses the hit
    expect(cursor.time()).toBe(250_000);
    const s = replay.state();
    expect(s.playing).toBe(false);
    expect(s.stopped?.kind).toBe('trigger');
    expect(s.stopped?.kind === 'trigger' && s.stopped.trigger.id).toBe(recv.id);
    expect(s.event?.ref).toBe(7);
    expect(describeStop(s.stopped!)).toMatch(/^stopped by trigger "MPI_Recv longer than 5 µs" at 250 µs/);
    // Going on does not fire at the same place again.
    replay.play();
    await clock.frame(100);
    expect(cursor.time()).toBeCloseTo(350_000, 6);
  });

  it('the earliest of a trigger and a breakpoint wins', async () => {
    const calls: FindParams[] = [];
    const { clock, cursor, replay } = setup(1_000_000, { find: finder([180_000], calls) });
    replay.addTrigger({ kind: 'counter', counter: 0, value: 10 });
    replay.addBreakpoint(150_000);
    replay.setSpeed(1e6);
    replay.play();
    await clock.frame(200);
    expect(cursor.time()).toBe(150_000);
    expect(replay.state().stopped?.kind).toBe('breakpoint');
    // The trigger was asked only up to the breakpoint.
    expect(calls[0]!.until).toBe(150_000);
    replay.play();
    await clock.frame(200);
    expect(cursor.time()).toBe(180_000);
    expect(replay.state().stopped?.kind).toBe('trigger');
  });

  it('a pause while /find is out drops its answer', async () => {
    let release: (e: EventRef) => void = () => {};
    const { clock, cursor, replay } = setup(1_000_000, {
      find: () => new Promise<EventRef>((r) => (release = r)),
    });
    replay.addTrigger({ kind: 'message', bytes: 10 });
    replay.play();
    await clock.frame(100);
    replay.pause();
    release({ found: true, time: 500, row: 0, kind: 'message', ref: 1, text: '' });
    await replay.idle();
    await flush();
    expect(cursor.time()).toBe(0);
    expect(replay.state().stopped).toBeNull();
  });

  it('follow live keeps the cursor at the newest clock; play leaves it', async () => {
    const { clock, cursor, replay } = setup(1000);
    replay.setFollowLive(true);
    expect(cursor.time()).toBe(1000);
    replay.setEnd(5000);
    expect(cursor.time()).toBe(5000);
    replay.jump(2000);
    expect(replay.state().followLive).toBe(false);
    replay.setEnd(9000);
    expect(cursor.time()).toBe(2000);
    replay.setFollowLive(true);
    expect(cursor.time()).toBe(9000);
    replay.play(-1);
    expect(replay.state().followLive).toBe(false);
    await clock.frame(1);
    expect(cursor.time()).toBeLessThan(9000);
  });

  it('jump clamps to the trace and tells listeners', () => {
    const { cursor, replay } = setup(1000);
    const states: boolean[] = [];
    replay.onChange((s) => states.push(s.playing));
    replay.jump(-5);
    expect(cursor.time()).toBe(0);
    replay.jump(700);
    expect(cursor.time()).toBe(700);
    replay.jump(5000);
    expect(cursor.time()).toBe(1000);
    expect(states.length).toBeGreaterThan(0);
  });
});
