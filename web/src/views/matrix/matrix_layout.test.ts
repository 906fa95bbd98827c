import { describe, expect, it } from 'vitest';
import type { MatrixResult } from '../../protocol/api.gen';
import { EMPTY_CELL, HEAT_STOPS } from '../common/colors';
import { cellAt, cellColor, describeCell, layoutMatrix, maxValue } from './matrix_layout';

const matrix: MatrixResult = {
  kind: 'messages',
  labels: ['rank 0', 'rank 1', 'rank 2'],
  count: [
    [0, 99, 9],
    [1, 0, 0],
    [0, 0, 0],
  ],
  bytes: [
    [0, 1024, 512],
    [64, 0, 0],
    [0, 0, 0],
  ],
  latency: [
    [0, 2000, 1000],
    [4000, 0, 0],
    [0, 0, 0],
  ],
  total_count: 109,
  total_bytes: 1600,
  selection: null,
};

const measure = (s: string) => s.length * 6;

describe('matrix colours', () => {
  it('takes the maximum over cells with traffic', () => {
    expect(maxValue(matrix, 'count')).toBe(99);
    expect(maxValue(matrix, 'bytes')).toBe(1024);
    expect(maxValue(matrix, 'latency')).toBe(4000);
  });
  it('colours known values cold to hot, empty cells grey', () => {
    expect(cellColor(matrix, 'count', 0, 1, 99)).toBe(HEAT_STOPS[HEAT_STOPS.length - 1]);
    expect(cellColor(matrix, 'count', 2, 2, 99)).toBe(EMPTY_CELL);
    expect(cellColor(matrix, 'count', 0, 0, 99)).toBe(EMPTY_CELL);
    // log scale: 9 is log1p(9)/log1p(99) = 0.5 of the way: the middle stop
    expect(cellColor(matrix, 'count', 0, 2, 99)).toBe('#ffffbf');
    // latency is linear: 1000 of 4000 = 0.25, halfway between #4575b4 and #abd9e9
    expect(cellColor(matrix, 'latency', 0, 2, 4000)).toBe('#78a7cf');
    expect(cellColor(matrix, 'latency', 1, 0, 4000)).toBe(HEAT_STOPS[HEAT_STOPS.length - 1]);
  });
});

describe('layoutMatrix', () => {
  it('makes square cells after the label column, capped at 40 px', () => {
    const l = layoutMatrix(matrix.labels, 600, measure);
    expect(l.cell).toBe(40);
    expect(l.left).toBeGreaterThanOrEqual(36);
    expect(l.fullLabels).toBe(true);
    expect(l.labelled).toEqual([0, 1, 2]);
    expect(l.height).toBeGreaterThan(l.top + 3 * 40);
  });
  it('labels every k-th index when crowded', () => {
    const labels = Array.from({ length: 512 }, (_, i) => `rank ${i}`);
    const l = layoutMatrix(labels, 800, measure);
    expect(l.cell).toBeLessThan(2);
    expect(l.fullLabels).toBe(false);
    expect(l.labelled[1]! * l.cell).toBeGreaterThanOrEqual(13);
    expect(l.labelled[0]).toBe(0);
  });
  it('finds the cell under the pointer', () => {
    const l = layoutMatrix(matrix.labels, 600, measure);
    expect(cellAt(l, l.left + 45, l.top + 5)).toEqual({ row: 0, col: 1 });
    expect(cellAt(l, l.left - 1, l.top + 5)).toBeNull();
    expect(cellAt(l, l.left + 3 * l.cell + 1, l.top + 5)).toBeNull();
  });
  it('describes a cell', () => {
    expect(describeCell(matrix, 0, 1)).toBe('rank 0 → rank 1: 99 messages, 1 KiB, mean latency 2 µs');
    expect(describeCell({ ...matrix, kind: 'rma' }, 1, 0)).toBe('rank 1 → rank 0: 1 access, 64 B');
  });
});
