// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { encodeTile } from '../../engine/tile_encode';
import type { AtParams, AtResult, CounterTrack, TileParams, TraceSummary } from '../../protocol/api.gen';
import { EMPTY_CELL, HEAT_STOPS } from '../common/colors';
import { fakeContext, fixtureSummary, flush, RecordingPainter, type Handlers, viewHost } from '../common/testing';
import { layoutLights, layoutLines, timeToX } from './counters_layout';
import { buildModel, lightColor } from './counters_model';
import { CURSOR_COLOR, LINE_COLOR } from './counters_paint';
import { COUNTERS_VIEW, CountersView } from './counters_view';

const track = (index: number, thread: number, name: string, min: number, max: number): CounterTrack => ({
  index, thread, name, unit: '', min, max, samples: 10,
});

/** rank 0 (row 0) and rank 1 (row 2) each sample load (0..100) and mem (10..50). */
function summary(): TraceSummary {
  return {
    ...fixtureSummary(),
    counters: [track(0, 0, 'load', 0, 100), track(1, 0, 'mem', 10, 50), track(2, 2, 'load', 0, 80), track(3, 2, 'mem', 20, 30)],
  };
}

/** Values rise with time: load = t / 10000 (capped at 100), mem = 10 + t / 25000; rank 1 starts at t = 1000. */
function at(p: AtParams): AtResult {
  const load = Math.min(100, p.t / 10_000);
  const mem = Math.min(50, 10 + p.t / 25_000);
  const counters = [
    { track: 0, value: load, time: p.t },
    { track: 1, value: mem, time: p.t },
  ];
  if (p.t >= 1000) counters.push({ track: 2, value: load * 0.8, time: p.t }, { track: 3, value: 25, time: p.t });
  return { time: p.t, states: [], slices: [], counters, in_flight: [], in_flight_total: 0 };
}

function tile(p: TileParams): ArrayBuffer {
  const points = (p.counters ?? []).flatMap((t) => [
    { time: p.from, min: 0, max: 0, last: 0, track: t, count: 1 },
    { time: (p.from + p.to) / 2, min: 0, max: 50, last: 50, track: t, count: 4 },
  ]);
  return encodeTile({ from: p.from, to: p.to, width: p.width, points });
}

const host = viewHost();

function setup(handlers: Handlers = { at, tile }, s = summary()) {
  const f = fakeContext(handlers, s);
  const view = new CountersView(f.ctx, { debounceMs: 10 });
  view.mount(host());
  return { ...f, view };
}

const W = 600;

/** The cell colours of the lights matrix, row by row. */
function lights(view: CountersView, units = 2, metrics = 2): string[][] {
  const p = new RecordingPainter(W, 300);
  view.paint(p);
  const l = layoutLights(buildModel(summary()), W, (s) => s.length * 6.5);
  const cells = p.ops.filter((o) => o.op === 'fillRect' && (o.args[0] as number) >= l.left && (o.args[1] as number) >= l.top && (o.args[1] as number) < l.top + units * l.cellH);
  const out: string[][] = [];
  for (let u = 0; u < units; u++) out.push(cells.slice(u * metrics, (u + 1) * metrics).map((o) => o.color!));
  return out;
}

describe('counters view', () => {
  it('is registered as "counters", "Counters"', () => {
    expect(COUNTERS_VIEW.id).toBe('counters');
    expect(COUNTERS_VIEW.title).toBe('Counters');
  });

  it('colours the lights from /at at the cursor, each metric on its own range', async () => {
    const { view, api, replay } = setup();
    await flush();
    expect(api.calls).toEqual([{ endpoint: 'at', params: { t: 0, limit: 0 } }]);
    // t = 0: load 0 (coldest), mem 10 (its minimum: coldest); rank 1 has no sample yet
    expect(lights(view)).toEqual([
      [HEAT_STOPS[0], HEAT_STOPS[0]],
      [EMPTY_CELL, EMPTY_CELL],
    ]);
    replay.seek(1_000_000);
    await flush();
    // load 100 of 0..100 and mem 50 of 10..50: hottest; rank 1 on the same ranges (the metric's, not its track's)
    expect(lights(view)).toEqual([
      [HEAT_STOPS[6], HEAT_STOPS[6]],
      [lightColor({ min: 0, max: 100 }, 80), lightColor({ min: 10, max: 50 }, 25)],
    ]);
    expect(lightColor({ min: 0, max: 100 }, 80)).not.toBe(HEAT_STOPS[6]);
    const p = new RecordingPainter(W, 300);
    view.paint(p);
    expect(p.texts()).toEqual(expect.arrayContaining(['load', 'mem', 'rank 0', 'rank 1', '100', '50', '25']));
    view.unmount();
  });

  it('coalesces /at while the cursor moves fast: one in flight, the newest next', async () => {
    const pending: (() => void)[] = [];
    const { api, replay, view } = setup({ at: (p) => new Promise((r) => pending.push(() => r(at(p)))), tile });
    for (const t of [10, 20, 30, 40]) replay.seek(t);
    expect(api.calls.map((c) => (c.params as AtParams).t)).toEqual([0]);
    pending[0]!();
    await flush();
    expect(api.calls.map((c) => (c.params as AtParams).t)).toEqual([0, 40]);
    pending[1]!();
    await flush();
    const p = new RecordingPainter(W, 300);
    view.paint(p);
    expect(p.texts().some((t) => t.startsWith('at 40 ns;'))).toBe(true);
    view.unmount();
  });

  it('draws bars per process for the chosen metric at the cursor', async () => {
    const { view, replay } = setup();
    replay.seek(500_000); // load 50, mem 30; rank 1: load 40, mem 25
    await flush();
    host().querySelector<HTMLButtonElement>('[data-testid=counters-mode-bars]')!.click();
    const select = host().querySelector<HTMLSelectElement>('[data-testid=counters-metric]')!;
    select.value = '1';
    select.dispatchEvent(new Event('change'));
    await flush();
    const p = new RecordingPainter(W, 260);
    view.paint(p);
    const bars = p.ops.filter((o) => o.op === 'fillRect');
    // mem on 10..50 (axis from 0): 30 → 30/50 of the plot, 25 → 25/50; colours by the metric's range
    expect(bars.map((b) => b.color)).toEqual([lightColor({ min: 10, max: 50 }, 30), lightColor({ min: 10, max: 50 }, 25)]);
    const h0 = bars[0]!.args[3] as number;
    const h1 = bars[1]!.args[3] as number;
    expect(h0 / h1).toBeCloseTo(30 / 25);
    expect(p.texts()).toEqual(expect.arrayContaining(['rank 0', 'rank 1', '30', '25']));
  });

  it('draws line graphs of the chosen tracks from the tile, with the cursor', async () => {
    const { view, api, replay, timeline } = setup();
    await flush();
    host().querySelector<HTMLButtonElement>('[data-testid=counters-mode-lines]')!.click();
    await flush();
    const tileCall = api.calls.find((c) => c.endpoint === 'tile')!;
    // jsdom: 600 px wide; the plot is what the line layout leaves
    expect(tileCall.params).toEqual({ rows: [0, 2], from: 0, to: 1_000_000, width: layoutLines([0, 2], 600).plot.w, arrows: false, counters: [0, 2] });
    replay.seek(250_000);
    const p = new RecordingPainter(W, 200);
    view.paint(p);
    const lines = p.ops.filter((o) => o.op === 'polyline' && o.color === LINE_COLOR);
    expect(lines).toHaveLength(2);
    const l = layoutLines([0, 2], W);
    const x = (t: number) => timeToX(t, { from: 0, to: 1_000_000 }, l.plot);
    // track 0 on 0..100: 0 at the strip's bottom, 50 halfway; step at the window's middle; held to the end
    const s0 = l.strips[0]!;
    expect(lines[0]!.args[0]).toEqual([x(0), s0.y + s0.h, x(500_000), s0.y + s0.h, x(500_000), s0.y + s0.h / 2, x(1_000_000), s0.y + s0.h / 2]);
    const cursor = p.ops.find((o) => o.op === 'line' && o.color === CURSOR_COLOR)!;
    expect(cursor.args[0]).toBe(x(250_000));
    // Unchecking a track refetches without it; a window change refetches.
    const box = host().querySelector<HTMLInputElement>('[data-testid=counters-track-2]')!;
    box.checked = false;
    box.dispatchEvent(new Event('change'));
    await flush();
    expect((api.calls[api.calls.length - 1]!.params as TileParams).counters).toEqual([0]);
    timeline.moveTo(1000, 2000);
    await new Promise((r) => setTimeout(r, 30));
    expect(api.calls[api.calls.length - 1]!.params).toMatchObject({ from: 1000, to: 2000, counters: [0] });
    view.unmount();
  });

  it('refetches after a live update with the new summary', async () => {
    const { api, updates, view } = setup();
    await flush();
    const s = summary();
    s.counters.push(track(4, 1, 'io', 0, 5));
    updates.fire(s);
    await flush();
    expect(api.calls.filter((c) => c.endpoint === 'at')).toHaveLength(2);
    const p = new RecordingPainter(W, 300);
    view.paint(p);
    expect(p.texts()).toContain('io');
    expect(p.texts()).toContain('rank 0 · worker');
  });

  it('says when the trace has no counters', async () => {
    const { api } = setup({ at, tile }, fixtureSummary());
    await flush();
    expect(host().querySelector<HTMLElement>('[data-testid=counters-empty]')!.hidden).toBe(false);
    expect(api.calls).toEqual([]);
  });

  it('unsubscribes on unmount', async () => {
    const { view, replay, timeline, updates, api } = setup();
    await flush();
    view.unmount();
    replay.seek(99);
    updates.fire(summary());
    timeline.moveTo(5, 6);
    await new Promise((r) => setTimeout(r, 30));
    expect(api.calls).toHaveLength(1);
    expect(timeline.listeners.size).toBe(0);
  });

  it('shows errors', async () => {
    setup({
      at: () => {
        throw new Error("parameter 't': not a number");
      },
      tile,
    });
    await flush();
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toBe("parameter 't': not a number");
  });
});
