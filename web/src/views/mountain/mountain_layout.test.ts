import { describe, expect, it } from 'vitest';
import type { MountainResult } from '../../protocol/api.gen';
import { bucketAt, bucketsFor, bucketValues, stackAreas, timeToX, xToTime } from './mountain_layout';

const r: MountainResult = {
  from: 0,
  to: 100,
  buckets: 2,
  unit: 'thread',
  states: [0, 1, 2],
  values: [
    [1, 2],
    [3, 0],
    [0, 0],
  ],
};
const plot = { x: 200, y: 0, w: 400, h: 100 };
const win = { from: 0, to: 100 };
const all = () => true;

describe('mountain layout', () => {
  it('maps time exactly like the timeline, after the label column', () => {
    expect(timeToX(0, win, plot)).toBe(200);
    expect(timeToX(100, win, plot)).toBe(600);
    expect(timeToX(25, { from: 0, to: 50 }, plot)).toBe(400);
    expect(xToTime(400, win, plot)).toBe(50);
  });

  it('asks for one bucket per two pixels, within 1..8192', () => {
    expect(bucketsFor(800)).toBe(400);
    expect(bucketsFor(1)).toBe(1);
    expect(bucketsFor(100_000)).toBe(8192);
  });

  it('stacks step areas bottom up and leaves out empty states', () => {
    const areas = stackAreas(r, all, win, plot, 4);
    expect(areas.map((a) => a.state)).toEqual([0, 1]);
    // state 0: 1 then 2 threads of 4 -> y = 75 then 50, on the baseline y = 100
    expect(areas[0]!.points).toEqual([200, 75, 400, 75, 400, 50, 600, 50, 600, 100, 400, 100, 400, 100, 200, 100]);
    // state 1 on top of state 0: 1..4 then 2..2
    expect(areas[1]!.points).toEqual([200, 0, 400, 0, 400, 50, 600, 50, 600, 50, 400, 50, 400, 75, 200, 75]);
  });

  it('leaves out hidden states without a gap', () => {
    const areas = stackAreas(r, (s) => s !== 0, win, plot, 4);
    expect(areas.map((a) => a.state)).toEqual([1]);
    expect(areas[0]!.points.slice(0, 2)).toEqual([200, 25]);
  });

  it('follows the current window while an old answer is shown', () => {
    const zoomed = stackAreas(r, all, { from: 50, to: 100 }, plot, 4);
    // bucket 0 [0, 50] now lies left of the plot, bucket 1 fills it
    expect(zoomed[0]!.points.slice(0, 4)).toEqual([-200, 75, 200, 75]);
  });

  it('finds the bucket and its values under the pointer', () => {
    expect(bucketAt(r, win, plot, 250)).toBe(0);
    expect(bucketAt(r, win, plot, 450)).toBe(1);
    expect(bucketAt(r, win, plot, 100)).toBe(-1);
    expect(bucketValues(r, 0, all)).toEqual([
      { state: 1, value: 3 },
      { state: 0, value: 1 },
    ]);
    expect(bucketValues(r, 0, (s) => s !== 1)).toEqual([{ state: 0, value: 1 }]);
  });
});
