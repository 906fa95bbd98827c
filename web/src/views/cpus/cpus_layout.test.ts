import { describe, expect, it } from 'vitest';
import type { CpuResult } from '../../protocol/api.gen';
import { fixtureSummary } from '../common/testing';
import { assignLanes, barAt, cpuBars, LANE_MIN, layoutCpus, MAX_LANES, ROW_GAP, ROW_H, rowHeight, timeToX } from './cpus_layout';
import { threadColor, threadLabel, threadLabels, threadLabelTid, UNKNOWN_THREAD } from '../common/threads';

const measure = (s: string): number => s.length * 6;

function result(): CpuResult {
  return {
    has_data: true,
    cpus: [0, 2, 5],
    migrations: 3,
    truncated: false,
    spans: [
      { cpu: 0, row: 0, begin: 0, end: 400 },
      { cpu: 0, row: 1, begin: 400, end: 1000 },
      { cpu: 2, row: 2, begin: 100, end: 600 },
      { cpu: 2, row: 3, begin: 300, end: 900 }, // overlaps the one before: second lane
    ],
  };
}

describe('thread colours and labels', () => {
  it('gives each thread a stable, distinct colour and unknown threads grey', () => {
    const colors = Array.from({ length: 40 }, (_, i) => threadColor(i));
    expect(new Set(colors).size).toBe(40);
    expect(threadColor(3)).toBe(colors[3]);
    for (const c of colors) expect(c).toMatch(/^#[0-9a-f]{6}$/);
    expect(threadColor(-1)).toBe(UNKNOWN_THREAD);
    expect(colors).not.toContain(UNKNOWN_THREAD);
  });

  it('labels a thread by its process and name', () => {
    expect(threadLabel(fixtureSummary(), 3)).toBe('rank 1 / worker <io>');
    expect(threadLabel(fixtureSummary(), 9)).toBe('row 9');
    expect(threadLabelTid(fixtureSummary(), 3)).toBe('rank 1 / worker <io> (tid 201)');
  });

  it('adds the tid to legend labels only where threads would read the same', () => {
    const s = fixtureSummary();
    s.threads[1]!.name = 'main'; // rank 0 now has two threads called main
    const labels = threadLabels(s, [0, 1, 2]);
    expect([...labels.values()]).toEqual(['rank 0 / main (tid 100)', 'rank 0 / main (tid 101)', 'rank 1 / main']);
  });
});

describe('CPU strip layout', () => {
  it('puts overlapping spans of a CPU in separate lanes, at most MAX_LANES', () => {
    const { lane, lanes } = assignLanes(result().spans);
    expect([...lane]).toEqual([0, 0, 0, 1]);
    expect(lanes.get(0)).toBe(1);
    expect(lanes.get(2)).toBe(2);
    const many = Array.from({ length: MAX_LANES + 2 }, (_, i) => ({ cpu: 1, row: i, begin: i, end: 100 + i }));
    const l = assignLanes(many);
    expect(l.lanes.get(1)).toBe(MAX_LANES);
    expect(Math.max(...l.lane)).toBe(MAX_LANES - 1);
    // A span that begins when another ended reuses its lane.
    expect([...assignLanes([{ cpu: 0, row: 0, begin: 0, end: 10 }, { cpu: 0, row: 1, begin: 10, end: 20 }]).lane]).toEqual([0, 0]);
  });

  it('has one row per CPU of the trace, even those without spans in the window', () => {
    const l = layoutCpus(result(), fixtureSummary(), 800, measure);
    expect(l.rows.map((r) => r.cpu)).toEqual([0, 2, 5]);
    expect(l.rows[1]!.y - l.rows[0]!.y).toBe(ROW_H + ROW_GAP);
    expect(l.rows.map((r) => r.lanes)).toEqual([1, 2, 1]);
    expect(l.plot.x + l.plot.w).toBeLessThanOrEqual(800);
    expect(l.axisY).toBeGreaterThan(l.rows[2]!.y + ROW_H);
  });

  it('makes a row taller when its lanes would be thinner than LANE_MIN', () => {
    expect(rowHeight(1)).toBe(ROW_H);
    expect(rowHeight(2)).toBe(ROW_H);
    expect(rowHeight(4)).toBe(4 * LANE_MIN + 3);
    const r: CpuResult = { ...result(), spans: Array.from({ length: 4 }, (_, i) => ({ cpu: 2, row: i, begin: i, end: 100 })) };
    const l = layoutCpus(r, fixtureSummary(), 800, measure);
    expect(l.rows[1]!.h).toBe(rowHeight(4));
    expect(l.rows[2]!.y).toBe(l.rows[1]!.y + rowHeight(4) + ROW_GAP);
    const bars = cpuBars(r, l, { from: 0, to: 100 });
    expect(bars.map((b) => b.h)).toEqual([LANE_MIN, LANE_MIN, LANE_MIN, LANE_MIN]);
    expect(bars[3]!.y + bars[3]!.h).toBeCloseTo(l.rows[1]!.y + l.rows[1]!.h);
  });

  it('maps each span to a bar at its times, in its thread colour, clipped to the window', () => {
    const r = result();
    const l = layoutCpus(r, fixtureSummary(), 800, measure);
    const win = { from: 200, to: 800 };
    const bars = cpuBars(r, l, win);
    expect(bars).toHaveLength(4);
    const [a, b, c, d] = bars;
    expect(a!.x).toBe(l.plot.x); // begins before the window
    expect(a!.w).toBeCloseTo(timeToX(400, win, l.plot) - l.plot.x);
    expect(b!.x).toBeCloseTo(timeToX(400, win, l.plot));
    expect(b!.x + b!.w).toBeCloseTo(l.plot.x + l.plot.w); // ends after it
    expect(bars.map((x) => x.color)).toEqual([0, 1, 2, 3].map(threadColor));
    expect(a!.y).toBe(l.rows[0]!.y);
    expect(a!.h).toBe(ROW_H);
    // Two lanes on CPU 2: half height each, one pixel apart.
    expect(c!.h).toBeCloseTo((ROW_H - 1) / 2);
    expect(d!.y).toBeCloseTo(c!.y + c!.h + 1);
  });

  it('keeps tiny spans one pixel wide and leaves spans outside the window out', () => {
    const r: CpuResult = { ...result(), spans: [{ cpu: 0, row: 0, begin: 500, end: 500.001 }, { cpu: 0, row: 0, begin: 2000, end: 3000 }] };
    const l = layoutCpus(r, fixtureSummary(), 800, measure);
    const bars = cpuBars(r, l, { from: 0, to: 1000 });
    expect(bars).toHaveLength(1);
    expect(bars[0]!.w).toBe(1);
  });

  it('lists the threads drawn in the legend, by row, wrapping to the width', () => {
    const wide = layoutCpus(result(), fixtureSummary(), 1200, measure);
    expect(wide.legend.map((x) => x.row)).toEqual([0, 1, 2, 3]);
    expect(wide.legend.map((x) => x.label)).toEqual(['rank 0 / main', 'rank 0 / worker', 'rank 1 / main', 'rank 1 / worker <io>']);
    expect(wide.legend.map((x) => x.color)).toEqual([0, 1, 2, 3].map(threadColor));
    expect(new Set(wide.legend.map((x) => x.y)).size).toBe(1);
    const narrow = layoutCpus(result(), fixtureSummary(), 300, measure);
    expect(new Set(narrow.legend.map((x) => x.y)).size).toBeGreaterThan(1);
    expect(narrow.height).toBeGreaterThan(wide.height);
  });

  it('finds the bar under the pointer', () => {
    const r = result();
    const l = layoutCpus(r, fixtureSummary(), 800, measure);
    const bars = cpuBars(r, l, { from: 0, to: 1000 });
    const d = bars[3]!;
    expect(barAt(bars, d.x + 2, d.y + d.h / 2)).toBe(3);
    const c = bars[2]!;
    expect(barAt(bars, c.x + 2, c.y + 1)).toBe(2);
    expect(barAt(bars, l.plot.x + 1, l.rows[2]!.y + 5)).toBe(-1); // CPU 5 has nothing
    expect(barAt(bars, 2, 2)).toBe(-1);
  });
});
