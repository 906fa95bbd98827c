// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Cursor } from '../engine/cursor';
import { ReplayController, type FrameClock } from '../engine/replay';
import type { EventRef, FindParams } from '../protocol/api.gen';
import { fakeApi, fixtureSummary, flush, type Handlers } from '../views/common/testing';
import { ReplayBar } from './replay_bar';

const manualClock = (): FrameClock & { t: number; fns: (() => void)[] } => {
  const c = {
    t: 0,
    fns: [] as (() => void)[],
    now: () => c.t,
    request: (fn: () => void) => c.fns.push(fn),
    cancel: () => {
      c.fns = [];
    },
  };
  return c;
};

let bar: ReplayBar | null = null;
afterEach(() => {
  bar?.destroy();
  bar = null;
  document.body.replaceChildren();
});

function setup(handlers: Handlers = {}, live = false) {
  const summary = fixtureSummary();
  const cursor = new Cursor(0);
  const clock = manualClock();
  const api = fakeApi(handlers);
  const replay = new ReplayController({
    api, cursor, end: summary.duration, clock, stateName: (s) => summary.states[s]?.name ?? '',
  });
  bar = new ReplayBar({ replay, summary, live });
  document.body.append(bar.el);
  const q = <T extends HTMLElement>(id: string): T => bar!.el.querySelector<T>(`[data-testid=${id}]`)!;
  return { replay, cursor, clock, api, q, summary };
}

const type = (input: HTMLInputElement, text: string): void => {
  input.value = text;
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
};
const key = (k: string, target: EventTarget = document.body): void => {
  target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
};

describe('ReplayBar', () => {
  it('has every control with its test id', () => {
    const { q } = setup();
    for (const id of ['replay-play', 'replay-step-forward', 'replay-step-back', 'replay-run-back', 'replay-run-forward',
      'replay-speed', 'replay-jump', 'replay-breakpoint-add', 'replay-trigger-add', 'replay-cursor', 'replay-stopped',
      'replay-trigger-kind', 'replay-trigger-state', 'replay-trigger-threshold', 'replay-breakpoint-time']) {
      expect(q(id), id).not.toBeNull();
    }
    // Follow live only for a live trace.
    expect(q('replay-follow-live').closest('label')!.hidden).toBe(true);
  });

  it('play toggles, run back plays backward, speed reaches the controller', () => {
    const { q, replay } = setup();
    q('replay-play').click();
    expect(replay.state().playing).toBe(true);
    expect(q('replay-play').dataset['playing']).toBe('true');
    q('replay-play').click();
    expect(replay.state().playing).toBe(false);
    replay.jump(500_000);
    q('replay-run-back').click();
    expect(replay.state()).toMatchObject({ playing: true, direction: -1 });
    const speed = q<HTMLSelectElement>('replay-speed');
    speed.value = '100000000';
    speed.dispatchEvent(new Event('change'));
    expect(replay.state().speed).toBe(1e8);
  });

  it('jump accepts 12.5ms, 1.2s and plain ns; refuses junk and says so', () => {
    const { q, cursor } = setup();
    const jump = q<HTMLInputElement>('replay-jump');
    type(jump, '12.5us');
    expect(cursor.time()).toBe(12_500);
    expect(q('replay-cursor').dataset['time']).toBe('12500');
    expect(q('replay-cursor').textContent).toBe('12.5 µs');
    type(jump, '700000');
    expect(cursor.time()).toBe(700_000);
    type(jump, 'soon');
    expect(cursor.time()).toBe(700_000);
    expect(jump.getAttribute('aria-invalid')).toBe('true');
    expect(jump.title).toMatch(/not a time/);
    type(jump, '0.1ms');
    expect(cursor.time()).toBe(100_000);
    expect(jump.hasAttribute('aria-invalid')).toBe(false);
  });

  it('breakpoints: add at the cursor or a typed time, list, remove', () => {
    const { q, replay } = setup();
    replay.jump(2000);
    q('replay-breakpoint-add').click();
    q<HTMLInputElement>('replay-breakpoint-time').value = '0.3ms';
    q('replay-breakpoint-add').click();
    expect(replay.breakpoints()).toEqual([2000, 300_000]);
    const items = bar!.el.querySelectorAll<HTMLElement>('[data-testid=replay-breakpoint]');
    expect([...items].map((i) => i.dataset['time'])).toEqual(['2000', '300000']);
    items[0]!.querySelector<HTMLElement>('[data-testid=replay-breakpoint-remove]')!.click();
    expect(replay.breakpoints()).toEqual([300_000]);
  });

  it('the trigger editor makes state, counter and message triggers', () => {
    const { q, replay } = setup();
    const states = q<HTMLSelectElement>('replay-trigger-state');
    expect([...states.options].map((o) => o.textContent)).toEqual(['any state', 'compute', 'MPI_Send', 'MPI_Wait']);
    states.value = '2';
    q<HTMLInputElement>('replay-trigger-threshold').value = '1.5ms';
    q('replay-trigger-add').click();
    const kind = q<HTMLSelectElement>('replay-trigger-kind');
    kind.value = 'message';
    kind.dispatchEvent(new Event('change'));
    expect(states.hidden).toBe(true);
    q<HTMLInputElement>('replay-trigger-threshold').value = '64k';
    q('replay-trigger-add').click();
    q<HTMLInputElement>('replay-trigger-threshold').value = 'lots';
    q('replay-trigger-add').click();
    expect(replay.triggers().map(({ id: _id, ...t }) => t)).toEqual([
      { kind: 'state', state: 2, ns: 1_500_000, label: 'MPI_Wait longer than 1.5 ms' },
      { kind: 'message', bytes: 64_000, label: 'message larger than 62.5 KiB' },
    ]);
    expect(bar!.el.querySelectorAll('[data-testid=replay-trigger]').length).toBe(2);
    bar!.el.querySelector<HTMLElement>('[data-testid=replay-trigger-remove]')!.click();
    expect(replay.triggers().map((t) => t.kind)).toEqual(['message']);
  });

  it('says which trigger stopped the run', async () => {
    const hit: EventRef = { found: true, time: 4000, row: 1, kind: 'state', ref: 3, text: 'MPI_Wait on main lasted long' };
    const { q, replay, clock } = setup({ find: (p: FindParams) => (p.until! >= 4000 ? hit : { ...hit, found: false }) });
    replay.addTrigger({ kind: 'state', state: 2, ns: 1000 });
    replay.setSpeed(1e6);
    q('replay-play').click();
    clock.t += 10;
    clock.fns.splice(0).forEach((f) => f());
    await flush();
    expect(q('replay-stopped').textContent).toBe(
      'stopped by trigger "MPI_Wait longer than 1 µs" at 4 µs: MPI_Wait on main lasted long');
    expect(q('replay-stopped').dataset['kind']).toBe('trigger');
    expect(q('replay-cursor').dataset['time']).toBe('4000');
  });

  it('keys: space plays and pauses, "." and "," step; not while typing in a field', async () => {
    const steps: string[] = [];
    const { q, replay } = setup({
      step: (p) => {
        steps.push(p.dir ?? 'forward');
        return { found: true, time: p.t + (p.dir === 'back' ? -10 : 10), row: 0, kind: 'begin', ref: 1, text: '' };
      },
    });
    key(' ');
    expect(replay.state().playing).toBe(true);
    key(' ');
    expect(replay.state().playing).toBe(false);
    key('.');
    await flush();
    key('.');
    await flush();
    key(',');
    await flush();
    expect(steps).toEqual(['forward', 'forward', 'back']);
    expect(replay.cursor.time()).toBe(10);
    key('.', q('replay-jump'));
    key(' ', q('replay-jump'));
    await flush();
    expect(steps.length).toBe(3);
    expect(replay.state().playing).toBe(false);
    // Space on a focused button is that button's click, not a second toggle.
    key(' ', q('replay-step-forward'));
    expect(replay.state().playing).toBe(false);
  });

  it('follow live shows for a live trace and drives the controller', () => {
    const { q, replay, cursor } = setup({}, true);
    const follow = q<HTMLInputElement>('replay-follow-live');
    expect(follow.closest('label')!.hidden).toBe(false);
    follow.checked = true;
    follow.dispatchEvent(new Event('change'));
    expect(replay.state().followLive).toBe(true);
    expect(cursor.time()).toBe(1_000_000);
    replay.jump(5);
    expect(follow.checked).toBe(false);
  });
});
