import { describe, expect, it } from 'vitest';
import type { LayoutInput } from '../../base/layout';
import {
  CompactLayout,
  compactRows,
  parseRowHeight,
  planRowmaps,
  ROWMAP_TILE_PX,
  rowmapKey,
} from './compact';
import { TWO_RANKS } from './test_rows';

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('compact layout', () => {
  it('fits 16,384 rows in 976 px: 17 rows a band, a px a band', () => {
    const l = new CompactLayout(range(16384), 976, 'fit');
    expect(l.group).toBe(17);
    expect(l.bands).toBe(Math.ceil(16384 / 17));
    expect(l.bandHeight).toBe(1);
    expect(l.height).toBeLessThanOrEqual(976);
    // The last band holds what is left.
    expect(l.bandRows(l.bands - 1)).toEqual({ first: (l.bands - 1) * 17, last: 16383 });
    expect(l.rowsOfBands(0, l.bands)).toHaveLength(16384);
  });

  it('gives few rows taller bands when they fit, and a fixed height one row a band', () => {
    const few = new CompactLayout(range(100), 976, 'fit');
    expect(few.group).toBe(1);
    expect(few.bandHeight).toBe(9);
    const fixed = new CompactLayout(range(16384), 976, 8);
    expect(fixed.group).toBe(1);
    expect(fixed.bandHeight).toBe(8);
    expect(fixed.height).toBe(16384 * 8);
    expect(fixed.bandAt(17)).toBe(2);
    expect(fixed.bandAt(-1)).toBe(-1);
    expect(fixed.bandAt(fixed.height)).toBe(-1);
    expect(fixed.bandsIn(100, 100 + 976)).toEqual({ first: 12, end: 135 });
  });

  it('knows the band of a row in any order', () => {
    const l = new CompactLayout([5, 3, 9, 1], 2, 'fit');
    expect(l.group).toBe(2);
    expect(l.bandOfRow(9)).toBe(1);
    expect(l.bandOfRow(5)).toBe(0);
    expect(l.bandOfRow(7)).toBe(-1);
  });

  it('orders rows as the layout does (host, process, thread), whatever their indices', () => {
    const input: LayoutInput = {
      ...TWO_RANKS,
      processes: [
        { ...TWO_RANKS.processes[0]!, host: 'b' },
        { ...TWO_RANKS.processes[1]!, host: 'a' },
        { ...TWO_RANKS.processes[0]!, index: 2, host: 'a', threads: [2] },
      ],
      threads: [...TWO_RANKS.threads, { ...TWO_RANKS.threads[0]!, index: 2, process: 2 }],
    };
    expect(compactRows(input)).toEqual([0, 1, 2]);
    expect(compactRows({ ...input, processes: [input.processes[1]!, input.processes[0]!, input.processes[2]!] })).toEqual([1, 2, 0]);
  });

  it('reads row heights', () => {
    expect(parseRowHeight('fit')).toBe('fit');
    expect(parseRowHeight('8')).toBe(8);
    expect(parseRowHeight('3')).toBeNull();
    expect(parseRowHeight(null)).toBeNull();
  });
});

describe('planRowmaps', () => {
  it('covers the screen with aligned tiles within the trace, each within the server limit', () => {
    const l = new CompactLayout(range(16384), 976, 'fit');
    const reqs = planRowmaps(l, { from: 0, to: 1e9 }, 1386, 1e9, 0, 976);
    const res = Math.pow(2, Math.floor(Math.log2(1e9 / 1386)));
    const span = res * ROWMAP_TILE_PX;
    const tiles = Math.ceil(1e9 / span);
    expect(l.bandBlock).toBe(60); // 1024 rows of 17
    const blocks = Math.ceil(l.bands / l.bandBlock);
    expect(reqs).toHaveLength(tiles * blocks);
    for (const r of reqs) {
      expect(r.width * r.bands).toBeLessThanOrEqual(1048576);
      expect(r.from % span).toBe(0);
      expect(r.to - r.from).toBe(span);
      expect(r.group).toBe(17);
      expect(r.rows).toEqual(l.rowsOfBands(r.band, r.band + r.bands));
    }
    // Every row is asked for, once per time tile.
    expect(reqs.reduce((n, r) => n + r.rows.length, 0)).toBe(16384 * tiles);
    expect(new Set(reqs.map(rowmapKey)).size).toBe(reqs.length);
  });

  it('asks only for the band blocks on screen, and the same tiles after a small pan', () => {
    const l = new CompactLayout(range(16384), 976, 1);
    const a = planRowmaps(l, { from: 1000, to: 2000 }, 1000, 1e6, 300, 1276);
    expect(new Set(a.map((r) => r.band))).toEqual(new Set([256, 512, 768, 1024]));
    const b = planRowmaps(l, { from: 1001, to: 2001 }, 1000, 1e6, 300, 1276);
    expect(b.map(rowmapKey)).toEqual(a.map(rowmapKey));
  });

  it('asks for nothing outside the bands or the trace', () => {
    const l = new CompactLayout(range(10), 100, 'fit');
    expect(planRowmaps(l, { from: 0, to: 100 }, 100, 100, 200, 300)).toEqual([]);
    expect(planRowmaps(l, { from: 200, to: 300 }, 100, 100, 0, 100)).toEqual([]);
  });
});
