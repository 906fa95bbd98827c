// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { MountainParams, MountainResult } from '../../protocol/api.gen';
import { fakeContext, flush, RecordingPainter, viewHost } from '../common/testing';
import { MOUNTAIN_VIEW, MountainView } from './mountain_view';

function mountain(p: MountainParams): MountainResult {
  const buckets = p.buckets ?? 200;
  return {
    from: p.from ?? 0,
    to: p.to ?? 1_000_000,
    buckets,
    unit: 'thread',
    states: [0, 1],
    values: [new Array<number>(buckets).fill(2), new Array<number>(buckets).fill(1)],
  };
}

const host = viewHost();

describe('mountain view', () => {
  it('is exported as its own factory', () => {
    expect(MOUNTAIN_VIEW.id).toBe('mountain');
  });

  it('fetches the timeline window with buckets = plot width / 2', async () => {
    const f = fakeContext({ mountain });
    const view = new MountainView(f.ctx, { labelWidth: 100 });
    view.mount(host());
    await flush();
    // jsdom: the canvas falls back to 600 px; the plot is 500 px wide
    expect(f.api.calls[0]).toEqual({ endpoint: 'mountain', params: { from: 0, to: 1_000_000, buckets: 250, unit: 'thread' } });
    view.unmount();
  });

  it("follows the timeline's label column: the plot starts at its edge, as many buckets as it is wide", async () => {
    vi.useFakeTimers();
    const f = fakeContext({ mountain });
    let labels = 150;
    const listeners = new Set<() => void>();
    const timeline = Object.assign(f.timeline, {
      labelWidth: () => labels,
      onViewChange: (l: () => void) => (listeners.add(l), () => void listeners.delete(l)),
    });
    const view = new MountainView({ ...f.ctx, timeline }, { labelWidth: 100 });
    view.mount(host());
    expect(view.plot(600, 90).x).toBe(150);
    expect(f.api.calls[0]!.params).toMatchObject({ buckets: 225 });
    labels = 300;
    for (const l of listeners) l();
    expect(view.plot(600, 90).x).toBe(300);
    vi.advanceTimersByTime(100);
    expect(f.api.calls[1]!.params).toMatchObject({ buckets: 150 });
    view.unmount();
    expect(listeners.size).toBe(0);
    vi.useRealTimers();
  });

  it('refetches after window changes, debounced, and drops stale answers', async () => {
    vi.useFakeTimers();
    const resolvers: (() => void)[] = [];
    const f = fakeContext({
      mountain: (p) =>
        new Promise<MountainResult>((resolve) => resolvers.push(() => resolve(mountain(p)))),
    });
    const view = new MountainView(f.ctx);
    view.mount(host());
    expect(f.api.calls).toHaveLength(1);
    f.timeline.moveTo(0, 500_000);
    f.timeline.moveTo(100, 400_000);
    vi.advanceTimersByTime(99);
    expect(f.api.calls).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(f.api.calls).toHaveLength(2);
    expect(f.api.calls[1]!.params).toMatchObject({ from: 100, to: 400_000 });
    f.timeline.moveTo(200, 300_000);
    vi.advanceTimersByTime(100);
    expect(f.api.calls).toHaveLength(3);
    // The newest answer ([200, 300000]) arrives first, then a stale one ([100, 400000]), which is dropped.
    resolvers[2]!();
    await vi.runAllTimersAsync();
    resolvers[1]!();
    await vi.runAllTimersAsync();
    const p = new RecordingPainter(800, 120);
    view.paint(p);
    const polys = p.ops.filter((o) => o.op === 'polygon');
    expect(polys).toHaveLength(2);
    // x of the first point is the plot's left edge for the window [200, 300000]
    const pts = polys[0]!.args[0] as number[];
    expect(pts[0]).toBeCloseTo(200);
    view.unmount();
    expect(f.timeline.listeners.size).toBe(0);
  });

  it('colours areas by state and leaves hidden ones out', async () => {
    const f = fakeContext({ mountain });
    const view = new MountainView(f.ctx);
    view.mount(host());
    await flush();
    const p = new RecordingPainter(800, 120);
    view.paint(p);
    expect(p.ops.filter((o) => o.op === 'polygon').map((o) => o.color)).toEqual(['#1f77b4', '#ff7f0e']);
    expect(p.texts()).toContain('threads');
    expect(p.texts()).toContain('4'); // y axis up to the 4 threads
    f.states.hidden.add(0);
    const q = new RecordingPainter(800, 120);
    view.paint(q);
    expect(q.ops.filter((o) => o.op === 'polygon').map((o) => o.color)).toEqual(['#ff7f0e']);
    view.unmount();
  });

  it('shows time and per-state counts on hover', async () => {
    const f = fakeContext({ mountain });
    const view = new MountainView(f.ctx);
    view.mount(host());
    await flush();
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=mountain-chart]')!;
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: 400 }));
    const tip = host().querySelector<HTMLElement>('[data-testid=mountain-tooltip]')!;
    expect(tip.hidden).toBe(false);
    // x = 400 of a 400 px plot starting at 200: half of [0, 1 ms]
    expect(tip.textContent).toContain('500 µs');
    expect(tip.textContent).toContain('compute: 2');
    expect(tip.textContent).toContain('MPI_Send: 1');
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: 50 }));
    expect(tip.hidden).toBe(true);
    view.unmount();
  });

  it('shows errors', async () => {
    const f = fakeContext({ mountain: () => Promise.reject(new Error('to: must be > from')) });
    new MountainView(f.ctx).mount(host());
    await flush();
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toBe('to: must be > from');
  });

  it('draws the replay cursor and refetches after a live update', async () => {
    vi.useFakeTimers();
    const f = fakeContext({ mountain });
    const view = new MountainView(f.ctx, { labelWidth: 100 });
    view.mount(host());
    await vi.advanceTimersByTimeAsync(0);
    f.replay.seek(500_000);
    const p = new RecordingPainter(600, 120);
    view.paint(p);
    const line = p.ops.find((o) => o.op === 'line' && o.color === '#c2185b');
    // plot from x=100, 500 px wide: the middle of [0, 1 ms]
    expect(line?.args.slice(0, 1)).toEqual([350]);
    const before = f.api.calls.length;
    f.updates.fire(f.ctx.summary);
    await vi.advanceTimersByTimeAsync(150);
    expect(f.api.calls.length).toBe(before + 1);
    view.unmount();
  });

  it('asks ahead for the page the replay turns to next and draws it at once when the window turns', async () => {
    vi.useFakeTimers();
    const f = fakeContext({ mountain });
    const view = new MountainView(f.ctx, { labelWidth: 100 });
    view.mount(host());
    f.timeline.moveTo(0, 200_000);
    await vi.advanceTimersByTimeAsync(150);
    const n = f.api.calls.length;
    f.replay.seek(50_000);
    f.replay.seek(90_000); // forward, not yet past the middle
    expect(f.api.calls.length).toBe(n);
    f.replay.seek(120_000);
    f.replay.seek(130_000); // asked once
    expect(f.api.calls.length).toBe(n + 1);
    expect(f.api.calls[n]!.params).toMatchObject({ from: 200_000, to: 400_000, buckets: 250 });
    await vi.advanceTimersByTimeAsync(0);
    f.timeline.moveTo(200_000, 400_000);
    const p = new RecordingPainter(600, 120);
    view.paint(p);
    // The new page's areas span the plot (x 100..600) before any debounce ran.
    const xs = p.ops.filter((o) => o.op === 'polygon').flatMap((o) => (o.args[0] as number[]).filter((_, i) => i % 2 === 0));
    expect(Math.min(...xs)).toBeCloseTo(100, 0);
    expect(Math.max(...xs)).toBeCloseTo(600, 0);
    await vi.advanceTimersByTimeAsync(150);
    expect(f.api.calls.length).toBe(n + 1); // and never asked again
    view.unmount();
    vi.useRealTimers();
  });
});

