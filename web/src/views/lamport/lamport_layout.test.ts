import { describe, expect, it } from 'vitest';
import type { LamportResult } from '../../protocol/api.gen';
import { fixtureSummary } from '../common/testing';
import {
  clockToX,
  cursorClock,
  cursorFrontier,
  fitClocks,
  HEADER_HEIGHT,
  LANE_HEIGHT,
  laneTop,
  layoutRows,
  MAX_ROWS_HEIGHT,
  messageAt,
  panClocks,
  rowAnchorY,
  rowEvents,
  RULER_HEIGHT,
  sliceAt,
  xToClock,
  zoomClocks,
} from './lamport_layout';

/** Row 0 computes (clock 1..4), sends to row 2 (clock 4 → 6); row 2 waits (clock 2..7). */
function fixtureLamport(): LamportResult {
  return {
    min_clock: 1,
    max_clock: 7,
    truncated: false,
    slices: [
      { id: 10, row: 0, state: 0, depth: 0, begin_clock: 1, end_clock: 4, begin: 100, end: 400 },
      { id: 11, row: 0, state: 1, depth: 1, begin_clock: 2, end_clock: 3, begin: 200, end: 300 },
      { id: 20, row: 2, state: 2, depth: 0, begin_clock: 2, end_clock: 7, begin: 150, end: 700 },
    ],
    messages: [{ id: 5, send_row: 0, recv_row: 2, send_clock: 4, recv_clock: 6, send_time: 400, recv_time: 600, bytes: 2048, tag: 3 }],
  };
}

const plot = { x: 100, w: 600 };

describe('lamport rows', () => {
  it('groups threads under process headers like the timeline, lanes by depth', () => {
    const l = layoutRows(fixtureSummary());
    expect(l.headers.map((h) => h.label)).toEqual(['rank 0', 'rank 1']);
    expect(l.rows.map((r) => [r.row, r.label, r.lanes])).toEqual([
      [0, 'main', 3],
      [1, 'worker', 1],
      [2, 'main', 2],
      [3, 'worker <io>', 1],
    ]);
    expect(l.headers[0]!.y).toBe(RULER_HEIGHT);
    expect(l.rows[0]!.y).toBe(RULER_HEIGHT + HEADER_HEIGHT);
    expect(l.rows[0]!.height).toBe(3 * LANE_HEIGHT + 4);
    expect(l.headers[1]!.y).toBe(l.rows[1]!.y + l.rows[1]!.height);
    expect(rowAnchorY(l, 0)).toBe(l.rows[0]!.y + 2 + LANE_HEIGHT / 2);
    expect(laneTop(l, 0, 1)).toBe(l.rows[0]!.y + 2 + LANE_HEIGHT);
    expect(laneTop(l, 1, 5)).toBe(l.rows[1]!.y + 2); // one lane: deeper slices share it
    expect(rowAnchorY(l, 9)).toBeNaN();
  });

  it('squeezes many rows into the height limit', () => {
    const s = fixtureSummary();
    const threads = Array.from({ length: 1000 }, (_, i) => ({ ...s.threads[0]!, index: i, process: i, max_depth: 0 }));
    const processes = threads.map((t) => ({ ...s.processes[0]!, index: t.index, name: `rank ${t.index}`, threads: [t.index] }));
    const l = layoutRows({ processes, threads });
    expect(l.headers).toHaveLength(0);
    expect(l.height - RULER_HEIGHT).toBeLessThanOrEqual(MAX_ROWS_HEIGHT);
    expect(l.laneHeight).toBe(1);
    expect(l.rows[999]!.label).toBe('rank 999 main');
  });
});

describe('clock axis', () => {
  it('maps clocks to x and back', () => {
    const win = { from: 0, to: 60 };
    expect(clockToX(0, win, plot)).toBe(100);
    expect(clockToX(60, win, plot)).toBe(700);
    expect(clockToX(15, win, plot)).toBe(250);
    expect(xToClock(250, win, plot)).toBe(15);
  });
  it('fits the result with a margin of at least one clock', () => {
    expect(fitClocks({ min_clock: 1, max_clock: 7 })).toEqual({ from: 0, to: 8 });
    expect(fitClocks({ min_clock: 0, max_clock: 1000 })).toEqual({ from: -20, to: 1020 });
  });
  it('zooms around the pointer and pans by pixels', () => {
    const win = { from: 0, to: 60 };
    const z = zoomClocks(win, plot, 250, 0.5);
    expect(z.to - z.from).toBe(30);
    expect(xToClock(250, z, plot)).toBeCloseTo(15);
    expect(panClocks(win, plot, 100)).toEqual({ from: -10, to: 50 });
  });
});

describe('replay cursor in logical time', () => {
  const ev = rowEvents(fixtureLamport());
  it('collects each row\'s events in time order', () => {
    expect([...ev.get(0)!.time]).toEqual([100, 200, 300, 400, 400]);
    expect([...ev.get(0)!.clock]).toEqual([1, 2, 3, 4, 4]);
    expect([...ev.get(2)!.time]).toEqual([150, 600, 700]);
    expect([...ev.get(2)!.clock]).toEqual([2, 6, 7]);
  });
  it('is at the clock of the last event at or before t, moving along slices in between', () => {
    const r0 = ev.get(0)!;
    expect(cursorClock(r0, 50)).toBeNaN();
    expect(cursorClock(r0, 100)).toBe(1);
    expect(cursorClock(r0, 150)).toBe(1.5); // halfway from begin (clock 1) to the nested begin (clock 2)
    expect(cursorClock(r0, 400)).toBe(4);
    expect(cursorClock(r0, 9999)).toBe(4);
    const r2 = ev.get(2)!;
    expect(cursorClock(r2, 375)).toBe(4); // halfway through 150..600 (clock 2..6)
    expect(cursorClock(undefined, 5)).toBeNaN();
  });
  it('never goes back as time goes on', () => {
    const r2 = ev.get(2)!;
    let last = -Infinity;
    for (let t = 150; t <= 800; t += 7) {
      const c = cursorClock(r2, t);
      expect(c).toBeGreaterThanOrEqual(last);
      last = c;
    }
  });
  it('draws a frontier through every row; rows without events sit at the left edge', () => {
    const l = layoutRows(fixtureSummary());
    const win = { from: 0, to: 8 };
    const pts = cursorFrontier(l, ev, 400, win, plot);
    expect(pts).toHaveLength(4 * 4);
    expect(pts[0]).toBe(clockToX(4, win, plot));
    expect(pts[4]).toBe(plot.x); // row 1: nothing
    expect(pts[8]).toBeCloseTo(clockToX(2 + (250 / 450) * 4, win, plot));
    expect(pts[1]).toBe(l.rows[0]!.y);
    expect(pts[3]).toBe(l.rows[0]!.y + l.rows[0]!.height);
  });
});

describe('hit testing', () => {
  const r = fixtureLamport();
  const l = layoutRows(fixtureSummary());
  const win = { from: 0, to: 8 };
  it('finds the message arrow near the pointer', () => {
    const x = (clockToX(4, win, plot) + clockToX(6, win, plot)) / 2;
    const y = (rowAnchorY(l, 0) + rowAnchorY(l, 2)) / 2;
    expect(messageAt(r, l, win, plot, x, y)).toBe(0);
    expect(messageAt(r, l, win, plot, x + 30, y)).toBe(-1);
  });
  it('finds the deepest slice under the pointer, skipping hidden states', () => {
    const x = clockToX(2.5, win, plot);
    expect(sliceAt(r, l, win, plot, x, laneTop(l, 0, 1) + 3)).toBe(1);
    expect(sliceAt(r, l, win, plot, x, laneTop(l, 0, 0) + 3)).toBe(0);
    expect(sliceAt(r, l, win, plot, x, laneTop(l, 0, 1) + 3, (s) => s !== 1)).toBe(-1);
    expect(sliceAt(r, l, win, plot, clockToX(5, win, plot), laneTop(l, 0, 0) + 3)).toBe(-1);
  });
});
