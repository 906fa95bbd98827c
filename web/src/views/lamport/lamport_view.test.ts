// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { LamportParams, LamportResult } from '../../protocol/api.gen';
import { fakeContext, fixtureSummary, flush, RecordingPainter, viewHost } from '../common/testing';
import { clockToX, laneTop, layoutRows, plotFor, rowAnchorY } from './lamport_layout';
import { ARROW_COLOR, CURSOR_COLOR } from './lamport_paint';
import { LAMPORT_VIEW, LamportView } from './lamport_view';

function lamport(): LamportResult {
  return {
    min_clock: 1,
    max_clock: 7,
    truncated: false,
    slices: [
      { id: 10, row: 0, state: 0, depth: 0, begin_clock: 1, end_clock: 4, begin: 100, end: 400 },
      { id: 20, row: 2, state: 2, depth: 0, begin_clock: 2, end_clock: 7, begin: 150, end: 700 },
    ],
    messages: [
      { id: 5, send_row: 0, recv_row: 2, send_clock: 4, recv_clock: 6, send_time: 400, recv_time: 600, bytes: 2048, tag: 3 },
      { id: 6, send_row: 2, recv_row: 1, send_clock: 6, recv_clock: 7, send_time: 600, recv_time: 650, bytes: 8, tag: 0 },
    ],
  };
}

const host = viewHost();

function setup(handler: (p: LamportParams) => LamportResult | Promise<LamportResult> = () => lamport()) {
  const f = fakeContext({ lamport: handler });
  const view = new LamportView(f.ctx, { debounceMs: 10 });
  view.mount(host());
  return { ...f, view };
}

const W = 800;
const H = 300;

describe('logical-time view', () => {
  it('is registered as "lamport", "Logical time"', () => {
    expect(LAMPORT_VIEW.id).toBe('lamport');
    expect(LAMPORT_VIEW.title).toBe('Logical time');
  });

  it('asks for the timeline window and draws bars by state colour and arrows at their clocks', async () => {
    const { view, api } = setup();
    await flush();
    expect(api.calls[0]).toEqual({ endpoint: 'lamport', params: { from: 0, to: 1_000_000, limit: 100_000 } });
    const p = new RecordingPainter(W, H);
    view.paint(p);
    const l = layoutRows(fixtureSummary());
    const plot = plotFor(W);
    const win = { from: 0, to: 8 }; // fit: 1..7 and a clock of margin
    expect(view.clockWindow()).toEqual(win);
    const bars = p.ops.filter((o) => o.op === 'fillRect' && o.color !== undefined && ['#1f77b4', '#2ca02c'].includes(o.color));
    expect(bars.map((b) => b.color)).toEqual(['#1f77b4', '#2ca02c']);
    expect(bars[0]!.args[0]).toBe(clockToX(1, win, plot));
    expect(bars[0]!.args[2]).toBeCloseTo(clockToX(4, win, plot) - clockToX(1, win, plot));
    expect(bars[0]!.args[1]).toBe(laneTop(l, 0, 0));
    const arrows = p.ops.filter((o) => o.op === 'line' && o.color === ARROW_COLOR);
    expect(arrows).toHaveLength(2);
    expect(arrows[0]!.args).toEqual([clockToX(4, win, plot), rowAnchorY(l, 0), clockToX(6, win, plot), rowAnchorY(l, 2)]);
    expect(p.ops.filter((o) => o.op === 'polygon' && o.color === ARROW_COLOR)).toHaveLength(2); // heads
    expect(p.texts()).toEqual(expect.arrayContaining(['rank 0', 'rank 1', 'main', 'worker', 'Lamport clock']));
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=lamport-chart]')!;
    expect(canvas).not.toBeNull();
    view.unmount();
  });

  it('leaves hidden states out and follows colour changes', async () => {
    const { view, states } = setup();
    await flush();
    states.hidden.add(0);
    states.colors.set(2, '#123456');
    const p = new RecordingPainter(W, H);
    view.paint(p);
    const fills = p.ops.filter((o) => o.op === 'fillRect').map((o) => o.color);
    expect(fills).not.toContain('#1f77b4');
    expect(fills).toContain('#123456');
  });

  it('draws the replay cursor as a frontier and redraws when it moves', async () => {
    const { view, replay } = setup();
    await flush();
    replay.seek(400);
    const p = new RecordingPainter(W, H);
    view.paint(p);
    const frontier = p.ops.find((o) => o.op === 'polyline' && o.color === CURSOR_COLOR)!;
    const pts = frontier.args[0] as number[];
    const plot = plotFor(W);
    expect(pts[0]).toBe(clockToX(4, { from: 0, to: 8 }, plot)); // row 0's last event at 400: the send, clock 4
    replay.seek(100);
    const q = new RecordingPainter(W, H);
    view.paint(q);
    const pts2 = q.ops.find((o) => o.op === 'polyline' && o.color === CURSOR_COLOR)!.args[0] as number[];
    expect(pts2[0]).toBe(clockToX(1, { from: 0, to: 8 }, plot));
  });

  it('refetches on a timeline window change (debounced) and on a live update', async () => {
    vi.useFakeTimers();
    const { api, timeline, updates, view } = setup();
    await vi.runAllTimersAsync();
    expect(api.calls).toHaveLength(1);
    timeline.moveTo(100, 500);
    timeline.moveTo(200, 600);
    await vi.advanceTimersByTimeAsync(20);
    expect(api.calls).toHaveLength(2);
    expect(api.calls[1]!.params).toEqual({ from: 200, to: 600, limit: 100_000 });
    updates.fire({ ...fixtureSummary(), duration: 2_000_000 });
    await vi.runAllTimersAsync();
    expect(api.calls).toHaveLength(3);
    view.unmount();
  });

  it('drops a stale answer', async () => {
    const resolvers: ((r: LamportResult) => void)[] = [];
    const { view, timeline } = setup(() => new Promise((r) => resolvers.push(r)));
    timeline.moveTo(0, 10);
    await new Promise((r) => setTimeout(r, 30));
    expect(resolvers).toHaveLength(2);
    resolvers[1]!({ ...lamport(), min_clock: 100, max_clock: 200, slices: [], messages: [] });
    await flush();
    resolvers[0]!(lamport());
    await flush();
    expect(view.clockWindow()).toEqual({ from: 98, to: 202 });
  });

  it('says when the answer was truncated', async () => {
    setup(() => ({ ...lamport(), truncated: true }));
    await flush();
    const note = host().querySelector<HTMLElement>('[data-testid=lamport-truncated]')!;
    expect(note.hidden).toBe(false);
    expect(note.textContent).toMatch(/zoom the timeline in/i);
  });

  it('zooms in clock space with the wheel and fits back', async () => {
    const { view } = setup();
    await flush();
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=lamport-chart]')!;
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -300, clientX: 400, clientY: 50, cancelable: true }));
    const w = view.clockWindow();
    expect(w.to - w.from).toBeLessThan(8);
    host().querySelector<HTMLButtonElement>('[data-testid=lamport-fit]')!.click();
    expect(view.clockWindow()).toEqual({ from: 0, to: 8 });
  });

  it('shows size and tag of a hovered message; a click on a bar jumps the timeline to it', async () => {
    const { timeline } = setup();
    await flush();
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=lamport-chart]')!;
    // jsdom: the canvas sits at (0, 0) and is 600 px wide.
    const l = layoutRows(fixtureSummary());
    const plot = plotFor(600);
    const win = { from: 0, to: 8 };
    const mx = (clockToX(4, win, plot) + clockToX(6, win, plot)) / 2;
    const my = (rowAnchorY(l, 0) + rowAnchorY(l, 2)) / 2;
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: mx, clientY: my }));
    const tip = host().querySelector<HTMLElement>('[data-testid=lamport-tooltip]')!;
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toBe('rank 0 · main → rank 1 · main: 2 KiB, tag 3; clock 4 → 6');
    const bx = clockToX(2, win, plot);
    const by = laneTop(l, 0, 0) + 4;
    canvas.dispatchEvent(new MouseEvent('mousedown', { clientX: bx, clientY: by, buttons: 1 }));
    canvas.dispatchEvent(new MouseEvent('mouseup', { clientX: bx, clientY: by }));
    expect(timeline.jumps).toEqual([{ row: 0, begin: 100, end: 400, slice: 10 }]);
    // A drag pans and does not jump.
    canvas.dispatchEvent(new MouseEvent('mousedown', { clientX: bx, clientY: by, buttons: 1 }));
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: bx + 40, clientY: by, buttons: 1 }));
    canvas.dispatchEvent(new MouseEvent('mouseup', { clientX: bx + 40, clientY: by }));
    expect(timeline.jumps).toHaveLength(1);
  });

  it('unsubscribes everything on unmount', async () => {
    const { view, timeline, replay, updates, api } = setup();
    await flush();
    view.unmount();
    expect(timeline.listeners.size).toBe(0);
    replay.seek(5);
    updates.fire(fixtureSummary());
    timeline.moveTo(1, 2);
    await new Promise((r) => setTimeout(r, 30));
    expect(api.calls).toHaveLength(1);
  });

  it('shows errors', async () => {
    setup(() => {
      throw new Error("parameter 'to': must be greater than 'from'");
    });
    await flush();
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toBe("parameter 'to': must be greater than 'from'");
  });
});
