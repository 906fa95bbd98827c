import { describe, expect, it } from 'vitest';
import type { AnomalyRef, HistogramResult } from '../../protocol/api.gen';
import { barAt, binOf, layoutHistogram, MARGIN, selectedBins } from './histogram_layout';

function anomaly(id: number, duration: number): AnomalyRef {
  return {
    slice: { id, row: 0, state: 1, begin: 0, end: duration, depth: 0 },
    duration,
    median: 100,
    limit: 500,
    score: 5,
    method: 'robust',
  };
}

const result: HistogramResult = {
  state: 1,
  edges: [0, 1_000_000, 2_000_000, 3_000_000, 4_000_000],
  counts: [10, 5, 0, 2],
  total: 17,
  min: 10,
  max: 4_000_000,
  selection: [anomaly(7, 4_000_000), anomaly(8, 3_100_000)],
  selected: 2,
  area: null,
};

describe('binOf', () => {
  it('finds the bin of a value, the last one including its upper edge', () => {
    const e = result.edges;
    expect(binOf(e, 0)).toBe(0);
    expect(binOf(e, 999_999)).toBe(0);
    expect(binOf(e, 1_000_000)).toBe(1);
    expect(binOf(e, 4_000_000)).toBe(3);
    expect(binOf(e, 4_000_001)).toBe(-1);
    expect(binOf(e, -1)).toBe(-1);
    expect(binOf([5], 5)).toBe(-1);
  });
  it('marks the bins that hold selected slices', () => {
    expect([...selectedBins(result)]).toEqual([3]);
    expect([...selectedBins({ edges: result.edges, selection: [anomaly(1, 1_500_000), anomaly(2, 10)] })].sort()).toEqual([0, 1]);
  });
});

describe('layoutHistogram', () => {
  const L = layoutHistogram(result, 456, 234, false);

  it('fills the plot area between the margins', () => {
    expect(L.plot).toEqual({ x: MARGIN.left, y: MARGIN.top, w: 456 - MARGIN.left - MARGIN.right, h: 234 - MARGIN.top - MARGIN.bottom });
    expect(L.bars).toHaveLength(4);
    expect(L.bars[0]!.x).toBeCloseTo(L.plot.x);
    const last = L.bars[3]!;
    expect(last.x + last.w + 1).toBeCloseTo(L.plot.x + L.plot.w);
  });

  it('scales bar heights to counts and highlights selected bins', () => {
    const [a, b, c, d] = L.bars;
    expect(a!.h).toBeCloseTo(2 * b!.h);
    expect(c!.h).toBe(0);
    expect(d!.selected).toBe(true);
    expect(a!.selected).toBe(false);
    // the top y tick is at least the largest count
    expect(a!.y).toBeGreaterThanOrEqual(L.plot.y);
  });

  it('labels the x axis in durations and the y axis in counts', () => {
    expect(L.xTicks.map((t) => t.label)).toContain('1 ms');
    expect(L.xTicks.map((t) => t.label)).toContain('2 ms');
    expect(L.xTicks[0]!.label).toBe('0');
    expect(L.yTicks.map((t) => t.label)).toContain('10');
    for (const t of L.xTicks) expect(t.pos).toBeGreaterThanOrEqual(L.plot.x - 0.001);
  });

  it('uses a log axis for log bins', () => {
    const log: HistogramResult = { ...result, edges: [1000, 10_000, 100_000, 1_000_000, 10_000_000] };
    const l = layoutHistogram(log, 456, 234, true);
    const widths = l.bars.map((b) => b.w);
    for (const w of widths) expect(w).toBeCloseTo(widths[0]!);
    expect(l.xTicks.map((t) => t.label)).toEqual(['1 µs', '10 µs', '100 µs', '1 ms', '10 ms']);
  });

  it('finds the bar under the pointer', () => {
    const b = L.bars[1]!;
    expect(barAt(L, b.x + 1, L.plot.y + 5)?.bin).toBe(1);
    expect(barAt(L, b.x + 1, 0)).toBeNull();
  });

  it('survives an empty histogram', () => {
    const empty = layoutHistogram({ ...result, edges: [], counts: [], selection: [], total: 0 }, 300, 200, false);
    expect(empty.bars).toEqual([]);
  });
});
