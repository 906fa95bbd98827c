import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { fixtureSummary, RecordingPainter } from '../common/testing';
import { areaExtent, areaOf, areaSource, AREA_BORDER, AREA_FILL, paintArea, rowsCovered, TimelineArea, type AreaSelection } from './area';
import { LABEL_WIDTH, RULER_HEIGHT, TimelineGeometry } from './geometry';

// fixtureSummary's layout, content y: host node1 0–20, process rank 0 20–40,
// thread 0 40–86 (3 lanes), thread 1 86–104, host node2 104–124,
// process rank 1 124–144, thread 2 144–176, thread 3 176–194.
const summary = fixtureSummary();
const { processes } = summary;
const layout = (collapsed: string[] = []) => new RowLayout(summary, new Set(collapsed));

describe('area selection: rows', () => {
  it('takes the thread rows whose lines the drag covered, in either direction', () => {
    expect(rowsCovered(layout(), processes, 60, 150)).toEqual([0, 1, 2]);
    expect(rowsCovered(layout(), processes, 150, 60)).toEqual([0, 1, 2]);
    expect(rowsCovered(layout(), processes, 90, 90)).toEqual([1]);
    // Over headers only: no row (the threads are below them).
    expect(rowsCovered(layout(), processes, 0, 39)).toEqual([]);
  });

  it('counts a collapsed process or host as all its threads', () => {
    // rank 0 folded: host node1 0–20, process rank 0 20–40, host node2 40–60, rank 1 60–80, thread 2 80–112.
    expect(rowsCovered(layout(['process:0']), processes, 25, 30)).toEqual([0, 1]);
    expect(rowsCovered(layout(['process:0']), processes, 25, 90)).toEqual([0, 1, 2]);
    expect(rowsCovered(layout(['host:node2']), processes, 100, 110)).toEqual([1, 2, 3]);
  });

  it('makes no area of a drag without time or rows', () => {
    const l = layout();
    expect(areaOf({ from: 900, to: 100, top: 50, bottom: 95 }, l, processes)).toEqual({ from: 100, to: 900, rows: [0, 1] });
    expect(areaOf({ from: 100, to: 100, top: 50, bottom: 95 }, l, processes)).toBeNull();
    expect(areaOf({ from: 100, to: 900, top: 300, bottom: 400 }, l, processes)).toBeNull();
  });

  it('spans the lines of the rows as laid out now', () => {
    expect(areaExtent(layout(), [1, 2])).toEqual({ top: 86, bottom: 176 });
    expect(areaExtent(layout(['process:1']), [2, 3])).toEqual({ top: 124, bottom: 144 });
    expect(areaExtent(layout(), [7])).toBeNull();
  });

  it('includes the counter tracks under the last thread', () => {
    const withCounter = { ...summary, counters: [{ index: 0, thread: 1, name: 'cycles', unit: '', min: 0, max: 1, samples: 2 }] };
    const l = new RowLayout(withCounter);
    expect(areaExtent(l, [0, 1])).toEqual({ top: 40, bottom: 104 + 28 });
  });
});

describe('area selection: drawing and listeners', () => {
  it('draws a translucent box with a border and a label, clipped to the plot', () => {
    const p = new RecordingPainter(LABEL_WIDTH + 1000, 300);
    const g = new TimelineGeometry({ from: 0, to: 1000 }, LABEL_WIDTH + 1000, 300, layout(), 0);
    paintArea(p, g, { from: 100, to: 400, rows: [1, 2] });
    expect(p.ops[0]).toEqual({ op: 'save', args: [] });
    expect(p.ops[1]).toEqual({ op: 'clip', args: [LABEL_WIDTH, RULER_HEIGHT, 1000, 300 - RULER_HEIGHT] });
    expect(p.ops).toContainEqual({ op: 'fillRect', args: [LABEL_WIDTH + 100, RULER_HEIGHT + 86, 300, 90], color: AREA_FILL });
    expect(p.ops).toContainEqual({ op: 'strokeRect', args: [LABEL_WIDTH + 100, RULER_HEIGHT + 86, 300, 90], color: AREA_BORDER });
    expect(p.texts()).toEqual(['2 rows, 300 ns']);
    expect(p.ops.at(-1)).toEqual({ op: 'restore', args: [] });
  });

  it('tells listeners of a new or cleared area, not of the same one again', () => {
    const a = new TimelineArea();
    const heard: Array<AreaSelection | null> = [];
    const off = a.onAreaChange((x) => heard.push(x));
    a.set({ from: 1, to: 2, rows: [3] });
    a.set({ from: 1, to: 2, rows: [3] });
    a.set(null);
    a.set(null);
    off();
    a.set({ from: 5, to: 6, rows: [0] });
    expect(heard).toEqual([{ from: 1, to: 2, rows: [3] }, null]);
    expect(a.area()).toEqual({ from: 5, to: 6, rows: [0] });
    expect(areaSource(a)).toBe(a);
    expect(areaSource({ window: () => ({ from: 0, to: 1 }) })).toBeNull();
  });

  it('selects the area of a dragged box over the layout as it is now, and draws the box while dragged', () => {
    let l = layout();
    const a = new TimelineArea(() => l, () => processes);
    const box = { from: 400, to: 100, top: 25, bottom: 90 };
    expect(a.shown(box)).toEqual({ from: 100, to: 400, rows: [0, 1] });
    expect(a.shown(null)).toBeNull();
    l = layout(['host:node2']);
    a.select({ from: 10, to: 20, top: 100, bottom: 110 });
    expect(a.shown(null)).toEqual({ from: 10, to: 20, rows: [1, 2, 3] });
    a.select({ from: 10, to: 20, top: 500, bottom: 600 });
    expect(a.area()).toBeNull();
  });
});
