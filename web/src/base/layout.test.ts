import { describe, expect, it } from 'vitest';
import { COUNTER_HEIGHT, HEADER_HEIGHT, LANE_HEIGHT, ROW_PADDING, RowLayout, threadRowHeight, type LayoutInput } from './layout';
import { clampWindow, MIN_SPAN, panWindow, TimeScale, windowAround, zoomWindow } from './time_scale';

function input(): LayoutInput {
  const proc = (index: number, host: string, threads: number[]) => ({
    index, rank: index, pid: 100 + index, host, name: `rank ${index}`, executable: '', arguments: '',
    clock_offset_ns: 0, clock_drift_ppm: 0, threads,
  });
  const thread = (index: number, process: number, max_depth: number) => ({
    index, process, tid: index, name: `thread ${index}`, begin: 0, end: 1, records: 1, max_depth,
  });
  return {
    processes: [proc(0, 'n1', [0, 1]), proc(1, 'n1', [2]), proc(2, 'n2', [3])],
    threads: [thread(0, 0, 2), thread(1, 0, 0), thread(2, 1, 0), thread(3, 2, 1)],
    counters: [{ index: 0, thread: 1, name: 'mem', unit: 'B', min: 0, max: 10, samples: 5 }],
  };
}

describe('RowLayout', () => {
  it('groups host → process → thread with counters under their thread', () => {
    const l = new RowLayout(input());
    expect(l.items.map((i) => `${i.kind}:${i.label}`)).toEqual([
      'host:n1', 'process:rank 0', 'thread:thread 0', 'thread:thread 1', 'counter:mem (B)',
      'process:rank 1', 'thread:thread 2', 'host:n2', 'process:rank 2', 'thread:thread 3',
    ]);
    expect(threadRowHeight(2)).toBe(3 * LANE_HEIGHT + 2 * ROW_PADDING);
    expect(l.rowTop(0)).toBe(2 * HEADER_HEIGHT);
    expect(l.rowTop(1)).toBe(2 * HEADER_HEIGHT + threadRowHeight(2));
    expect(l.laneTop(0, 1)).toBe(2 * HEADER_HEIGHT + ROW_PADDING + LANE_HEIGHT);
    expect(l.counterItem(0)!.y).toBe(l.rowTop(1) + threadRowHeight(0));
    const total = 5 * HEADER_HEIGHT + threadRowHeight(2) + 2 * threadRowHeight(0) + threadRowHeight(1) + COUNTER_HEIGHT;
    expect(l.height).toBe(total);
  });

  it('finds items and rows by y', () => {
    const l = new RowLayout(input());
    expect(l.itemAt(0)!.kind).toBe('host');
    expect(l.itemAt(l.rowTop(1) + 1)!.row).toBe(1);
    expect(l.itemAt(-1)).toBeUndefined();
    expect(l.itemAt(l.height)).toBeUndefined();
    expect(l.rowsIn(0, l.rowTop(1) + 1)).toEqual([0, 1]);
    expect(l.rowsIn(0, l.height)).toEqual([0, 1, 2, 3]);
    expect(l.tracksIn(0, l.height)).toEqual([0]);
  });

  it('hides the rows of collapsed groups and maps them to the header', () => {
    const l = new RowLayout(input(), new Set(['process:0', 'host:n2']));
    expect(l.items.map((i) => `${i.kind}:${i.label}`)).toEqual([
      'host:n1', 'process:rank 0', 'process:rank 1', 'thread:thread 2', 'host:n2',
    ]);
    expect(l.items[1]!.collapsed).toBe(true);
    expect(l.rowVisible(0)).toBe(false);
    expect(l.rowTop(0)).toBe(HEADER_HEIGHT); // the process header
    expect(l.rowTop(3)).toBe(l.items[4]!.y); // the host header
    expect(l.laneTop(0, 0)).toBeNaN();
    expect(l.rowAnchorY(0)).toBe(HEADER_HEIGHT + HEADER_HEIGHT / 2);
    expect(l.rowsIn(0, l.height)).toEqual([2]);
    expect(l.counterItem(0)).toBeUndefined();
    expect(l.rowTop(2)).toBe(3 * HEADER_HEIGHT);
  });
});

describe('time scale', () => {
  it('maps time to x and back', () => {
    const s = new TimeScale(1000, 3000, 200, 800);
    expect(s.timeToX(1000)).toBe(200);
    expect(s.timeToX(3000)).toBe(1000);
    expect(s.timeToX(2000)).toBe(600);
    expect(s.xToTime(600)).toBe(2000);
    expect(s.xToTime(s.timeToX(1234.5))).toBeCloseTo(1234.5);
    expect(s.resolution).toBe(2.5);
  });

  it('zooming keeps the time under the pointer in place', () => {
    const w = { from: 0, to: 10_000 };
    const s0 = new TimeScale(w.from, w.to, 200, 1000);
    const x = 450;
    const t = s0.xToTime(x);
    for (const f of [0.5, 0.9, 1.7]) {
      const z = zoomWindow(w, f, t);
      const s1 = new TimeScale(z.from, z.to, 200, 1000);
      expect(s1.timeToX(t)).toBeCloseTo(x, 9);
      expect(z.to - z.from).toBeCloseTo((w.to - w.from) * f);
    }
  });

  it('pans, clamps and frames', () => {
    expect(panWindow({ from: 0, to: 10 }, 5)).toEqual({ from: 5, to: 15 });
    expect(clampWindow({ from: 500, to: 510 }, 1000)).toEqual({ from: 500, to: 500 + MIN_SPAN });
    expect(clampWindow({ from: -5000, to: 5000 }, 1000)).toEqual({ from: -100, to: 1100 });
    expect(clampWindow({ from: 2000, to: 2100 }, 1000)).toEqual({ from: 1000, to: 1100 });
    const w = windowAround(1000, 2000, 0.1);
    expect(w.from).toBeCloseTo(900);
    expect(w.to).toBeCloseTo(2100);
  });
});
