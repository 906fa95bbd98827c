import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { decodeTile } from '../../engine/tile';
import { encodeTile } from '../../engine/tile_encode';
import { LABEL_WIDTH, RULER_HEIGHT, TimelineGeometry } from './geometry';
import { distanceToSegment, hitTest } from './hit';
import { TWO_RANKS } from './test_rows';

const input = TWO_RANKS;

// 1000 ns over 1000 px: 1 ns per px, plot starting at LABEL_WIDTH.
const geometry = (collapsed: Set<string> = new Set()) =>
  new TimelineGeometry({ from: 0, to: 1000 }, LABEL_WIDTH + 1000, 400, new RowLayout(input, collapsed), 0);

const tile = decodeTile(
  encodeTile({
    from: 0,
    to: 1000,
    width: 1000,
    slices: [
      { begin: 100, end: 400, row: 0, state: 0, ref: 11, depth: 0, flags: 0 },
      { begin: 150, end: 200, row: 0, state: 1, ref: 12, depth: 1, flags: 0 },
      { begin: 600, end: 600.4, row: 0, state: 2, ref: 5, depth: 0, flags: 1 },
      { begin: 100, end: 900, row: 1, state: 3, ref: 13, depth: 0, flags: 0 },
    ],
    instants: [{ time: 700, row: 1, type: 0, ref: 21, flags: 0 }],
    arrows: [{ send: 450, recv: 550, from_row: 0, to_row: 1, ref: 31, flags: 0 }],
  }),
);

describe('timeline geometry', () => {
  it('maps times and rows to canvas pixels', () => {
    const g = geometry();
    expect(g.timeToX(0)).toBe(LABEL_WIDTH);
    expect(g.timeToX(500)).toBe(LABEL_WIDTH + 500);
    expect(g.xToTime(LABEL_WIDTH + 250)).toBe(250);
    // host header, process header, then row 0.
    expect(g.rowTop(0)).toBe(RULER_HEIGHT + 40);
    expect(g.laneTop(0, 1)).toBe(RULER_HEIGHT + 40 + 2 + 14);
  });
});

describe('hitTest', () => {
  const g = geometry();
  const yOf = (row: number, depth: number) => g.laneTop(row, depth) + 5;

  it('finds bars by lane and time', () => {
    expect(hitTest(tile, g, g.timeToX(300), yOf(0, 0))).toEqual({ kind: 'slice', index: 0, merged: false });
    expect(hitTest(tile, g, g.timeToX(175), yOf(0, 1))).toEqual({ kind: 'slice', index: 1, merged: false });
    // depth 1 outside the inner slice: nothing.
    expect(hitTest(tile, g, g.timeToX(300), yOf(0, 1))).toBeNull();
    expect(hitTest(tile, g, g.timeToX(50), yOf(0, 0))).toBeNull();
  });

  it('gives thin merged bars at least a pixel', () => {
    expect(hitTest(tile, g, g.timeToX(600) + 0.9, yOf(0, 0))).toEqual({ kind: 'slice', index: 2, merged: true });
  });

  it('skips hidden states', () => {
    expect(hitTest(tile, g, g.timeToX(300), yOf(0, 0), (s) => s !== 0)).toBeNull();
  });

  it('finds arrows near their line and instants near their marker', () => {
    const y1 = g.rowAnchorY(0);
    const y2 = g.rowAnchorY(1);
    const midX = (g.timeToX(450) + g.timeToX(550)) / 2;
    expect(hitTest(tile, g, midX, (y1 + y2) / 2 + 1)).toEqual({ kind: 'arrow', index: 0, merged: false });
    expect(hitTest(tile, g, midX, (y1 + y2) / 2 + 12)?.kind).not.toBe('arrow');
    expect(hitTest(tile, g, g.timeToX(700) + 1, g.rowTop(1) + 2)).toEqual({ kind: 'instant', index: 0, merged: false });
  });

  it('does not hit bars of collapsed rows', () => {
    const gc = geometry(new Set(['process:0']));
    expect(hitTest(tile, gc, gc.timeToX(300), gc.rowTop(0) + 5)).toBeNull();
  });

  it('measures distance to a segment', () => {
    expect(distanceToSegment(5, 5, 0, 0, 10, 0)).toBe(5);
    expect(distanceToSegment(-3, 4, 0, 0, 10, 0)).toBe(5);
    expect(distanceToSegment(1, 1, 1, 1, 1, 1)).toBe(0);
  });
});
