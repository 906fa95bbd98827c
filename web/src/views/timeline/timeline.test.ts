// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Cursor } from '../../engine/cursor';
import type { Details } from '../../protocol/api.gen';
import { fakeApi, fakeStates, fixtureSummary, stubCanvas } from '../common/testing';
import { LABEL_WIDTH, RULER_HEIGHT } from './geometry';
import { WHEEL_ZOOM } from './input';
import { TimelineView, type TimelineStatus } from './timeline';

// jsdom lays nothing out and has no ResizeObserver: the host claims a size,
// and the canvas (at 0, 0) makes client coordinates canvas coordinates.
beforeEach(() => {
  stubCanvas();
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe(): void {}
      disconnect(): void {}
    },
  );
});

let view: TimelineView | null = null;
afterEach(() => {
  view?.destroy();
  view = null;
  vi.unstubAllGlobals();
  document.body.replaceChildren();
});

function setup(height = 400) {
  const summary = fixtureSummary();
  const host = document.createElement('div');
  host.getBoundingClientRect = () => ({ x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: LABEL_WIDTH + 1000, height, toJSON: () => '' });
  document.body.append(host);
  const replay = new Cursor(0);
  const statuses: TimelineStatus[] = [];
  const details: Array<Details | null> = [];
  view = new TimelineView(host, {
    api: fakeApi({}),
    summary,
    style: fakeStates(summary),
    replay,
    onStatus: (s) => statuses.push(s),
    onDetails: (d) => details.push(d),
  });
  const canvas = view.canvas;
  const pointer = (type: string, x: number, y: number, init: PointerEventInit = {}): void => {
    canvas.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 1, ...init }));
  };
  return { view, canvas, replay, statuses, details, pointer, duration: summary.duration };
}

describe('timeline view input', () => {
  it('zooms the view on a wheel around the pointer and tells the window listeners', () => {
    const { view, canvas, duration } = setup();
    const seen: Array<[number, number]> = [];
    view.onWindowChange((from, to) => seen.push([from, to]));
    const x = view.geometry().timeToX(duration / 4);
    canvas.dispatchEvent(new WheelEvent('wheel', { clientX: x, clientY: RULER_HEIGHT + 50, deltaY: -100, ctrlKey: true }));
    const w = view.window();
    expect(w.to - w.from).toBeCloseTo(duration * Math.exp(-100 * WHEEL_ZOOM), 3);
    expect(view.geometry().xToTime(x)).toBeCloseTo(duration / 4, 3);
    expect(seen).toEqual([[w.from, w.to]]);
  });

  it('reports the pointer time and the range being dragged in the status', () => {
    const { view, statuses, pointer } = setup();
    const x = view.geometry().timeToX(300_000);
    pointer('pointermove', x, RULER_HEIGHT + 50);
    expect(statuses.at(-1)?.pointer).toBeCloseTo(300_000, 3);
    pointer('pointerdown', x, RULER_HEIGHT + 50, { altKey: true });
    pointer('pointermove', view.geometry().timeToX(500_000), RULER_HEIGHT + 50);
    const range = statuses.at(-1)?.range;
    expect(range?.from).toBeCloseTo(300_000, 3);
    expect(range?.to).toBeCloseTo(500_000, 3);
  });

  it('moves the replay cursor on a click on the ruler', () => {
    const { view, replay, pointer } = setup();
    const x = view.geometry().timeToX(250_000);
    pointer('pointerdown', x, 5);
    pointer('pointerup', x, 5);
    expect(replay.time()).toBeCloseTo(250_000, 3);
  });

  it('fits the trace on F and clears the selection on Escape', () => {
    const { view, details, duration } = setup();
    view.setWindow({ from: 100_000, to: 200_000 });
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f' }));
    expect(view.window()).toEqual({ from: 0, to: duration });
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(details).toEqual([null]);
  });

  it('selects an area of rows and time with ctrl-drag, keeps it through a pan, clears it on Escape', () => {
    const { view, pointer } = setup();
    const heard: Array<ReturnType<TimelineView['area']>> = [];
    view.onAreaChange((a) => heard.push(a));
    // From the middle of thread 0 (rank 0's first thread) to the middle of thread 2 (rank 1's first).
    const y0 = view.geometry().laneMiddle(0, 1);
    const y1 = view.geometry().laneMiddle(2, 0);
    pointer('pointerdown', view.geometry().timeToX(200_000), y0, { ctrlKey: true });
    pointer('pointermove', view.geometry().timeToX(400_000), y1);
    expect(heard).toEqual([]);
    pointer('pointerup', view.geometry().timeToX(400_000), y1);
    const a = view.area()!;
    expect(a.rows).toEqual([0, 1, 2]);
    expect(a.from).toBeCloseTo(200_000, 3);
    expect(a.to).toBeCloseTo(400_000, 3);
    expect(heard).toEqual([a]);
    expect(view.window()).toEqual({ from: 0, to: 1_000_000 });
    // A plain drag pans and keeps it.
    pointer('pointerdown', view.geometry().timeToX(500_000), y0);
    pointer('pointermove', view.geometry().timeToX(450_000), y0);
    pointer('pointerup', view.geometry().timeToX(450_000), y0);
    expect(view.area()).toEqual(a);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(view.area()).toBeNull();
    expect(heard).toEqual([a, null]);
  });

  it('scrolls the row of an event the replay stops at into view, in the mode on screen', () => {
    const { view } = setup(RULER_HEIGHT + 60);
    const below = (row: number) => view.geometry().rowTop(row) >= view.geometry().height;
    expect(below(3)).toBe(true);
    view.showEvent({ kind: 'none', ref: -1, row: 3, time: 600_000 });
    const g = view.geometry();
    expect(g.rowTop(3)).toBeGreaterThanOrEqual(RULER_HEIGHT);
    expect(g.rowTop(3)).toBeLessThan(g.height);
    // Rows on screen stay where they are.
    const top = view.geometry().scrollTop;
    view.showEvent({ kind: 'none', ref: -1, row: 3, time: 600_000 });
    expect(view.geometry().scrollTop).toBe(top);
    // In the compact mode the bands stay (a slice found from a link leaves it).
    view.setCompactMode(8);
    view.showEvent({ kind: 'none', ref: -1, row: 0, time: 600_000 });
    expect(view.compactMode()).toBe(8);
    view.reveal(0, 600_000);
    expect(view.compactMode()).toBeNull();
  });
});
