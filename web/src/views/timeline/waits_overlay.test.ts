import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANE_HEIGHT, RowLayout } from '../../base/layout';
import type { EndpointTypes, WaitsWindow, WaitsWindowParams, WaitSpan } from '../../protocol/api.gen';
import { fakeStates, fixtureSummary, RecordingPainter } from '../common/testing';
import type { ApiClient } from '../context';
import { TimelineGeometry } from './geometry';
import { paintTimeline, type PaintModel } from './paint';
import { TWO_RANKS } from './test_rows';
import {
  markWaits, paramsKey, rowStrips, waitBoxes, waitColor, WaitsOverlay, waitsParams, waitsStatus, WAITS_SPANS,
} from './waits_overlay';
import { stripColor, stripText } from './waits_overlay_paint';

const geometry = (from = 0, to = 1000, height = 300) => new TimelineGeometry({ from, to }, 1200, height, new RowLayout(TWO_RANKS), 0, 200);

const span = (row: number, begin: number, end: number, kind = 'late-sender', depth = 0): WaitSpan => ({
  row, kind, begin, end, cause_row: 1 - row, slice: { id: row * 100 + begin, row, state: 0, begin, end: end + 10, depth },
});

function answer(waits: WaitSpan[], extra: Partial<WaitsWindow> = {}): WaitsWindow {
  return {
    from: 0, to: 1000, rows: 2, waits, matched: waits.length, complete: true,
    rows_waiting: [{ row: 0, wait: 100, run_wait: 300 }, { row: 1, wait: 500, run_wait: 600 }],
    imbalance: { units: 2, max: 500, min: 100, mean: 300, max_row: 1, min_row: 0, imbalance: 0.4, percent: 66.7 },
    ...extra,
  };
}

/** A stand-in for the canvas: only its dataset is used. */
const fakeCanvas = (): HTMLElement => ({ dataset: {} as DOMStringMap }) as HTMLElement;

describe('waits overlay: what it asks', () => {
  it('asks for the window, and for the rows on screen only when some are off it', () => {
    const tall = waitsParams(geometry(10.4, 990.6), 2);
    expect(tall).toEqual({ limit: WAITS_SPANS, from: 10, to: 991 });
    // 60 px of rows: only the first thread row (under its host and process headers) is on screen.
    const short = waitsParams(new TimelineGeometry({ from: 0, to: 1000 }, 1200, 24 + 60, new RowLayout(TWO_RANKS), 0, 200), 2);
    expect(short.rows).toEqual([0]);
    expect(paramsKey(short)).not.toEqual(paramsKey(tall));
    expect(paramsKey({ ...tall })).toEqual(paramsKey(tall));
  });
});

describe('waits overlay: where each wait goes', () => {
  it('draws a wait over its call lane, from begin to end, clipped and at least 2 px', () => {
    const g = geometry();
    const spans = [span(0, 250, 500, 'collective', 1), span(1, 990, 990.1), span(1, -500, 100), span(0, 1500, 1600), span(0, -300, -100)];
    const boxes = waitBoxes(spans, g);
    expect(boxes).toHaveLength(3); // the last two are off the window
    expect(boxes[0]).toEqual({ x: 450, y: g.laneTop(0, 1), w: 250, h: LANE_HEIGHT - 1, kind: 'collective' });
    expect(boxes[1]!.w).toBe(2);
    expect(boxes[1]!.x).toBeCloseTo(1189.05, 1);
    expect(boxes[2]!.x).toBe(199); // clipped at the plot's left edge
    expect(boxes[2]!.w).toBe(101);
    expect(boxes[2]!.y).toBe(g.laneTop(1, 0));
  });
  it('marks a folded row on its header, and leaves unknown rows out', () => {
    const layout = new RowLayout(TWO_RANKS, new Set(['process:0']));
    const g = new TimelineGeometry({ from: 0, to: 1000 }, 1200, 300, layout, 0, 200);
    const boxes = waitBoxes([span(0, 0, 100), span(7, 0, 100)], g);
    expect(boxes).toHaveLength(1);
    const item = layout.itemOfRow(0)!;
    expect(boxes[0]!.y).toBe(g.toScreenY(item.y) + 2);
  });
  it('gives each kind its colour', () => {
    expect(new Set(['late-sender', 'late-receiver', 'collective'].map(waitColor)).size).toBe(3);
    expect(waitColor('other')).toBe('#616161');
  });
});

describe('waits overlay: the imbalance strips', () => {
  it("gives each row its share of the window and its place against the ranks' mean", () => {
    const strips = rowStrips(answer([]));
    expect(strips.get(0)).toEqual({ row: 0, share: 0.1, mean: 0.3, relative: -2 / 3, wait: 100, runWait: 300 });
    expect(strips.get(1)!.share).toBe(0.5);
    expect(strips.get(1)!.relative).toBeCloseTo(2 / 3, 9);
    expect(stripText(strips.get(0)!)).toBe('10%');
    expect(stripText({ ...strips.get(0)!, share: 0.042 })).toBe('4.2%');
    expect(stripColor(0)).toBe('rgb(158,158,158)');
    expect(stripColor(1)).toBe('rgb(211,47,47)');
    expect(stripColor(-5)).toBe('rgb(66,120,200)');
  });
  it('says how many of the waits are shown', () => {
    expect(waitsStatus(answer([span(0, 0, 1)], { matched: 649 }))).toBe('waits: 1 of 649 shown');
    expect(waitsStatus(answer([], { complete: false }))).toMatch(/of the run's longest/);
  });
});

describe('waits overlay: painting', () => {
  function model(waits: PaintModel['waits']): { p: RecordingPainter; m: PaintModel } {
    const summary = fixtureSummary();
    const p = new RecordingPainter(1200, 300);
    const g = new TimelineGeometry({ from: 0, to: 1000 }, 1200, 300, new RowLayout(summary), 0);
    const m: PaintModel = {
      g, tile: null, states: summary.states, style: fakeStates(summary), counters: [], selected: null,
      highlights: [], blink: 0, criticalPath: null, anomalies: null, range: null, cursorX: null, waits,
    };
    return { p, m };
  }
  it('paints bands, hatching, strips and the key only while on', () => {
    const row = fixtureSummary().threads[0]!.index;
    const win = answer([span(row, 100, 600)], { rows_waiting: [{ row, wait: 400, run_wait: 500 }] });
    const on = model({ window: win, strips: rowStrips(win), status: waitsStatus(win) });
    paintTimeline(on.p, on.m, new Map());
    const red = on.p.ops.filter((o) => o.color?.startsWith('rgba(229,57,53'));
    expect(red.some((o) => o.op === 'fillRect')).toBe(true);
    expect(red.some((o) => o.op === 'segments')).toBe(true);
    expect(on.p.ops.some((o) => o.op === 'text' && o.text === '40%')).toBe(true);
    expect(on.p.ops.some((o) => o.op === 'text' && String(o.text).startsWith('waits: 1 of 1 shown'))).toBe(true);
    const off = model(null);
    paintTimeline(off.p, off.m, new Map());
    expect(off.p.ops.some((o) => o.color?.startsWith('rgba(229,57,53'))).toBe(false);
    expect(off.p.ops.length).toBeLessThan(on.p.ops.length);
  });
});

describe('WaitsOverlay: asking as the window moves', () => {
  afterEach(() => vi.useRealTimers());

  function setup() {
    const asked: WaitsWindowParams[] = [];
    const pending: Array<(r: WaitsWindow) => void> = [];
    let draws = 0;
    const api = {
      get: (endpoint: keyof EndpointTypes, params: WaitsWindowParams) => {
        expect(endpoint).toBe('waits_window');
        asked.push(params);
        return new Promise<WaitsWindow>((resolve) => pending.push(resolve));
      },
    } as unknown as ApiClient;
    const overlay = new WaitsOverlay(() => draws++, 100);
    const canvas = fakeCanvas();
    return { overlay, api, asked, pending, canvas, draws: () => draws };
  }

  it('asks nothing while off, at once when turned on, then debounced with the newest window winning', async () => {
    vi.useFakeTimers();
    const { overlay, api, asked, pending, canvas } = setup();
    expect(overlay.sync(api, geometry(), 2, canvas)).toBeNull();
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toHaveLength(0);

    overlay.setOn(true);
    expect(overlay.sync(api, geometry(), 2, canvas)).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked.map((p) => [p.from, p.to])).toEqual([[0, 1000]]);
    pending.shift()!(answer([span(0, 1, 2)], { matched: 5 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(overlay.sync(api, geometry(), 2, canvas)?.status).toBe('waits: 1 of 5 shown');
    expect(canvas.dataset['waitsShown']).toBe('1');
    expect(canvas.dataset['waitsMatched']).toBe('5');
    expect(canvas.dataset['waitsWindow']).toBe('0,1000,*');

    // Panning: frames at 10, 20, 30 ms apart ask once, for the last window.
    for (const from of [100, 200, 300]) {
      overlay.sync(api, geometry(from, from + 1000), 2, canvas);
      await vi.advanceTimersByTimeAsync(30);
    }
    expect(asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(asked.map((p) => p.from)).toEqual([0, 300]);
    // While that runs, two more windows: only the newest is sent after it.
    overlay.sync(api, geometry(400, 1400), 2, canvas);
    await vi.advanceTimersByTimeAsync(150);
    overlay.sync(api, geometry(500, 1500), 2, canvas);
    await vi.advanceTimersByTimeAsync(150);
    expect(asked).toHaveLength(2);
    pending.shift()!(answer([], { from: 300, to: 1300 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(asked.map((p) => p.from)).toEqual([0, 300, 500]);
    pending.shift()!(answer([span(1, 600, 700), span(1, 800, 900)], { from: 500, to: 1500, matched: 2 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(canvas.dataset['waitsShown']).toBe('2');
    expect(canvas.dataset['waitsWindow']).toBe('500,1500,*');
    // The same window again asks nothing.
    overlay.sync(api, geometry(500, 1500), 2, canvas);
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toHaveLength(3);

    overlay.setOn(false);
    expect(overlay.sync(api, geometry(500, 1500), 2, canvas)).toBeNull();
    expect(canvas.dataset['waitsShown']).toBeUndefined();
  });

  it('drops an answer that comes after the overlay is turned off', async () => {
    vi.useFakeTimers();
    const { overlay, api, pending, canvas } = setup();
    overlay.setOn(true);
    overlay.sync(api, geometry(), 2, canvas);
    await vi.advanceTimersByTimeAsync(0);
    overlay.setOn(false);
    pending.shift()!(answer([span(0, 1, 2)]));
    await vi.advanceTimersByTimeAsync(0);
    expect(canvas.dataset['waitsShown']).toBeUndefined();
    overlay.setOn(true);
    expect(overlay.sync(api, geometry(), 2, canvas)).toBeNull();
  });

  it('clears the hooks', () => {
    const c = fakeCanvas();
    markWaits(c, answer([]), { from: 1, to: 2, rows: [3, 4] });
    expect(c.dataset['waitsWindow']).toBe('1,2,3 4');
    markWaits(c, null, null);
    expect(Object.keys(c.dataset)).toEqual([]);
  });
});
