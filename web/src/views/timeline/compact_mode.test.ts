// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { fakeApi, fakeStates, fixtureSummary } from '../common/testing';
import { ROWMAP_TILE_PX } from './compact';
import { CompactMode } from './compact_mode';
import { RULER_HEIGHT, TimelineGeometry } from './geometry';
import type { RowScroll } from './scroll';

const EMPTY = new RowLayout({ processes: [], threads: [], counters: [] });

/** A compact mode over the fixture's 4 rows (2 ranks of 2 threads), and a canvas 200 + 1000 by RULER + `rows` px. */
function setup(rows = 2) {
  const summary = fixtureSummary();
  const api = fakeApi({ rowmap: () => new ArrayBuffer(0) });
  let draws = 0;
  let changes = 0;
  const mode = new CompactMode(() => ({ api, summary, style: fakeStates(summary) }), () => draws++, () => changes++);
  const g = (scrollTop = 0) => new TimelineGeometry({ from: 0, to: summary.duration }, 1200, RULER_HEIGHT + rows, EMPTY, scrollTop);
  return { summary, api, mode, g, draws: () => draws, changes: () => changes };
}

/** A RowScroll stand-in that keeps its position. */
function fakeScroll(top = 0): RowScroll & { top: number } {
  const s = { top, update: () => {}, set: (v: number) => void (s.top = v) };
  return s as unknown as RowScroll & { top: number };
}

describe('compact mode', () => {
  it('turns on and off, tells its listeners, and keeps the normal scroll meanwhile', () => {
    const { mode, changes } = setup();
    const heard: Array<string | number | null> = [];
    mode.onChange(() => heard.push(mode.mode));
    const scroll = fakeScroll(120);
    mode.switch('fit', scroll);
    scroll.top = 0;
    mode.switch(8, scroll);
    expect(scroll.top).toBe(0);
    mode.switch(null, scroll);
    expect(scroll.top).toBe(120);
    expect(heard).toEqual(['fit', 8, null]);
    expect(changes()).toBe(3);
    expect(mode.rowHeight).toBe(8); // kept for the next time it is turned on
  });

  it('maps y to bands and rows: 4 rows over 2 px are 2 a band', () => {
    const { mode, g, summary } = setup(2);
    mode.set(true, 'fit');
    const geo = g();
    expect(mode.layout(geo.rowsHeight).group).toBe(2);
    expect(mode.rowsShown(geo)).toBe(summary.threads.length);
    expect(mode.rowAt(geo, RULER_HEIGHT + 1.5)).toBe(2);
    expect(mode.rowAt(geo, RULER_HEIGHT - 1)).toBe(-1);
    const area = mode.areaOf(geo, { from: 10, to: 5, top: 0.2, bottom: 0.7 });
    expect(area).toEqual({ from: 5, to: 10, rows: [0, 1] });
    expect(mode.areaOf(geo, { from: 5, to: 5, top: 0, bottom: 1 })).toBeNull();
  });

  it('asks /rowmap for the bands on screen with their rows, group and tile', () => {
    const { mode, g, api } = setup(2);
    mode.set(true, 'fit');
    mode.ensure(g());
    const asked = api.calls.filter((c) => c.endpoint === 'rowmap').map((c) => c.params as { rows: number[]; group: number; width: number });
    expect(asked.length).toBeGreaterThan(0);
    for (const p of asked) expect(p).toMatchObject({ rows: [0, 1, 2, 3], group: 2, width: ROWMAP_TILE_PX });
  });

  it('marks the canvas for tests', () => {
    const { mode, g } = setup(2);
    const canvas = document.createElement('canvas');
    mode.mark(canvas, g(), () => 3);
    expect({ ...canvas.dataset }).toEqual({ rowsShown: '3', rowsGroup: '1' });
    mode.set(true, 1);
    mode.mark(canvas, g(1), () => 3);
    expect(canvas.dataset).toMatchObject({ compact: '1', rowsShown: '2', rowsGroup: '1', rowsFirst: '1' });
  });
});
