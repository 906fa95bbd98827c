import { describe, expect, it } from 'vitest';
import { RecordingPainter, fixtureSummary } from '../common/testing';
import { threadColor, UNKNOWN_THREAD } from '../common/threads';
import { blockAt, iterationBlocks, iterToX, layoutLoop, loopTimeToX, threadsOf, threadSums, timeBars } from './loops_layout';
import { estimatedFill, HATCH_STEP, paintBlock } from './loops_paint';
import { dynamicLoop } from './loops_testing';

const measure = (s: string): number => s.length * 6;

describe('iteration-space layout', () => {
  it('maps iterations onto the strip: first at its left edge, last + 1 at its right', () => {
    const { loop } = dynamicLoop();
    const plot = { x: 100, w: 640 };
    expect(iterToX(0, loop, plot)).toBe(100);
    expect(iterToX(32, loop, plot)).toBe(740);
    expect(iterToX(8, loop, plot)).toBe(260);
    const shifted = { ...loop, first: 10, last: 13 };
    expect(iterToX(12, shifted, plot)).toBe(420);
    expect(loopTimeToX(1500, loop, plot)).toBe(420);
  });

  it('draws one block per chunk over its iterations, coloured by thread number', () => {
    const { loop, chunks } = dynamicLoop();
    const l = layoutLoop(chunks, fixtureSummary(), 800, measure);
    const blocks = iterationBlocks(chunks, loop, l);
    expect(blocks).toHaveLength(4);
    expect(blocks.map((b) => b.color)).toEqual([1, 0, 1, 0].map(threadColor));
    chunks.forEach((c, i) => {
      expect(blocks[i]!.x).toBeCloseTo(iterToX(c.first, loop, l.plot));
      // A 1 px gap at the right keeps neighbours apart.
      expect(blocks[i]!.x + blocks[i]!.w + 1).toBeCloseTo(iterToX(c.last + 1, loop, l.plot));
      expect(blocks[i]!.y).toBe(l.iter.y);
      expect(blocks[i]!.estimated).toBe(false);
    });
  });

  it('gives each thread a lane in thread-number order (unknown last) and puts its chunks at their times', () => {
    const { loop, chunks } = dynamicLoop();
    const all = [...chunks, { row: 3, thread_num: -1, first: 32, last: 32, begin: 1900, end: 1950, estimated: false }];
    expect(threadsOf(all)).toEqual([
      { row: 0, threadNum: 0 },
      { row: 1, threadNum: 1 },
      { row: 3, threadNum: -1 },
    ]);
    const l = layoutLoop(chunks, fixtureSummary(), 800, measure);
    expect(l.lanes.map((x) => x.label)).toEqual(['thread 0', 'thread 1']);
    const bars = timeBars(chunks, loop, l);
    expect(bars[1]!.y).toBe(l.lanes[0]!.y); // thread 0's chunk in lane 0
    expect(bars[0]!.y).toBe(l.lanes[1]!.y);
    expect(bars[2]!.x).toBeCloseTo(loopTimeToX(1300, loop, l.plot));
    expect(bars[2]!.w + 1).toBeCloseTo(loopTimeToX(1700, loop, l.plot) - loopTimeToX(1300, loop, l.plot)); // a 1 px gap
    expect(l.timeAxisY).toBeGreaterThan(l.lanes[1]!.y + l.lanes[1]!.h);
  });

  it('names each thread number once in the legend, in its colour', () => {
    const { chunks } = dynamicLoop();
    const l = layoutLoop([...chunks, { row: 3, thread_num: -1, first: 0, last: 0, begin: 0, end: 0, estimated: false }], fixtureSummary(), 800, measure);
    expect(l.legend.map((x) => x.label)).toEqual(['thread 0 · rank 0 / main', 'thread 1 · rank 0 / worker', 'thread ? · rank 1 / worker <io>']);
    expect(l.legend.map((x) => x.color)).toEqual([threadColor(0), threadColor(1), UNKNOWN_THREAD]);
    expect(l.height).toBeGreaterThan(l.legend[0]!.y);
  });

  it('marks estimated times and draws them lighter and hatched in the thread colour', () => {
    const { loop, chunks } = dynamicLoop();
    const est = chunks.map((c) => ({ ...c, estimated: true }));
    const l = layoutLoop(est, fixtureSummary(), 800, measure);
    const bars = timeBars(est, loop, l);
    expect(bars.every((b) => b.estimated)).toBe(true);
    const p = new RecordingPainter();
    paintBlock(p, { ...bars[0]!, x: 10, y: 20, w: 60, h: 18 });
    const fills = p.ops.filter((o) => o.op === 'fillRect');
    expect(fills).toHaveLength(1);
    expect(fills[0]!.color).toBe(estimatedFill(threadColor(1)));
    expect(fills[0]!.color).not.toBe(threadColor(1));
    expect(p.ops.find((o) => o.op === 'clip')!.args).toEqual([10, 20, 60, 18]);
    const hatch = p.ops.filter((o) => o.op === 'line');
    expect(hatch.length).toBe(Math.ceil((60 + 18) / HATCH_STEP));
    expect(hatch.every((o) => o.color === threadColor(1))).toBe(true);
    // Measured: one solid fill, nothing else.
    const q = new RecordingPainter();
    paintBlock(q, timeBars(chunks, loop, l)[0]!);
    expect(q.ops.map((o) => [o.op, o.color])).toEqual([['fillRect', threadColor(1)]]);
  });

  it('sums chunks, iterations and busy time per thread', () => {
    const { chunks } = dynamicLoop();
    expect(threadSums(chunks)).toEqual([
      { row: 0, threadNum: 0, chunks: 2, iterations: 16, busy: 390 + 600, estimated: false },
      { row: 1, threadNum: 1, chunks: 2, iterations: 16, busy: 300 + 400, estimated: false },
    ]);
    expect(threadSums([{ ...chunks[0]!, estimated: true }])[0]!.estimated).toBe(true);
  });

  it('finds the chunk under the pointer', () => {
    const { loop, chunks } = dynamicLoop();
    const l = layoutLoop(chunks, fixtureSummary(), 800, measure);
    const blocks = iterationBlocks(chunks, loop, l);
    const b = blocks[2]!;
    expect(blockAt(blocks, b.x + b.w / 2, b.y + 5)).toBe(2);
    expect(blockAt(blocks, b.x + b.w / 2, b.y - 5)).toBe(-1);
  });
});
