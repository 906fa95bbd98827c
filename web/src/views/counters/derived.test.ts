import { describe, expect, it } from 'vitest';
import type { TilePoints } from '../../protocol/api.gen';
import {
  applyFilter,
  applyFilters,
  bucketEdges,
  counterBuckets,
  getDerivedSeriesParam,
  parseSeries,
  type SeriesData,
  serializeSeries,
  setDerivedSeriesParam,
} from './derived';

const data = (): SeriesData => ({
  labels: ['a', 'b'],
  edges: [0, 1e9, 2e9, 3e9, 4e9],
  values: [
    [4, 8, 2, 6],
    [1, NaN, 3, 5],
  ],
});

describe('derived series filters', () => {
  it('scales', () => {
    expect(applyFilter(data(), { kind: 'scale', k: 0.5 }).values[0]).toEqual([2, 4, 1, 3]);
  });
  it('moving average, min and max over trailing windows, skipping NaN', () => {
    expect(applyFilter(data(), { kind: 'avg', n: 2 }).values).toEqual([
      [4, 6, 5, 4],
      [1, 1, 3, 4],
    ]);
    expect(applyFilter(data(), { kind: 'min', n: 3 }).values[0]).toEqual([4, 4, 2, 2]);
    expect(applyFilter(data(), { kind: 'max', n: 3 }).values[0]).toEqual([4, 8, 8, 8]);
  });
  it('rate per second between bucket centres', () => {
    const r = applyFilter(data(), { kind: 'rate' }).values[0]!;
    expect(r[0]).toBeNaN();
    expect(r.slice(1)).toEqual([4, -6, 4]);
    const half = applyFilter({ ...data(), edges: [0, 5e8, 1e9, 1.5e9, 2e9] }, { kind: 'rate' }).values[0]!;
    expect(half.slice(1)).toEqual([8, -12, 8]);
  });
  it('sum and mean over rows', () => {
    expect(applyFilter(data(), { kind: 'sum' })).toEqual({ labels: ['sum'], edges: data().edges, values: [[5, 8, 5, 11]] });
    expect(applyFilter(data(), { kind: 'mean' }).values).toEqual([[2.5, 8, 2.5, 5.5]]);
  });
  it('chains in order', () => {
    expect(applyFilters(data(), [{ kind: 'avg', n: 2 }, { kind: 'sum' }, { kind: 'scale', k: 10 }]).values).toEqual([[50, 70, 80, 80]]);
    expect(applyFilters(data(), [{ kind: 'sum' }, { kind: 'avg', n: 2 }]).values).toEqual([[5, 6.5, 6.5, 8]]);
  });
});

describe('derived series sources', () => {
  it('cuts a window into integer edges as the server does', () => {
    expect(bucketEdges(0, 1000, 3)).toEqual([0, 333, 666, 1000]);
    expect(bucketEdges(100, 200, 4)).toEqual([100, 125, 150, 175, 200]);
  });
  it('buckets counter points: the last value at or before each bucket end', () => {
    const pts: TilePoints = {
      count: 4,
      time: new Float64Array([10, 5, 30, 15]),
      min: new Float64Array(4),
      max: new Float64Array(4),
      last: new Float64Array([2, 1, 3, 7]),
      track: new Uint32Array([0, 0, 0, 1]),
      samples: new Uint32Array([1, 1, 1, 1]),
    } as unknown as TilePoints;
    expect(counterBuckets(pts, [0, 1], [0, 4, 10, 20, 40])).toEqual([
      [NaN, 2, 2, 3],
      [NaN, NaN, 7, 7],
    ]);
  });
});

describe('derived series text', () => {
  it('round-trips sources and filters', () => {
    const text = 'st:MPI_*|avg5|sum;ctr:heap%20size|x2.5|rate;sp:compute|max3|mean;cat:mpi|min2';
    const list = parseSeries(text);
    expect(list).toEqual([
      { source: { kind: 'st', name: 'MPI_*' }, filters: [{ kind: 'avg', n: 5 }, { kind: 'sum' }] },
      { source: { kind: 'ctr', name: 'heap size' }, filters: [{ kind: 'scale', k: 2.5 }, { kind: 'rate' }] },
      { source: { kind: 'sp', name: 'compute' }, filters: [{ kind: 'max', n: 3 }, { kind: 'mean' }] },
      { source: { kind: 'cat', name: 'mpi' }, filters: [{ kind: 'min', n: 2 }] },
    ]);
    expect(serializeSeries(list)).toBe('st:MPI_*|avg5|sum;ctr:heap%20size|x2.5|rate;sp:compute|max3|mean;cat:mpi|min2');
  });
  it('leaves out what does not parse', () => {
    expect(parseSeries('xx:a;st:b|avg0;st:c|bogus;st:d|avg2;;st:%E0')).toEqual([{ source: { kind: 'st', name: 'd' }, filters: [{ kind: 'avg', n: 2 }] }]);
  });
  it('get/set for the view URL', () => {
    setDerivedSeriesParam('st:MPI_*|avg3|sum');
    expect(getDerivedSeriesParam()).toBe('st:MPI_*|avg3|sum');
    setDerivedSeriesParam('');
    expect(getDerivedSeriesParam()).toBe('');
  });
});
