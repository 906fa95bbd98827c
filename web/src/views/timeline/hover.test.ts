// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { decodeTile } from '../../engine/tile';
import { encodeTile } from '../../engine/tile_encode';
import { fixtureSummary } from '../common/testing';
import { LABEL_WIDTH, TimelineGeometry } from './geometry';
import { describeHit, rowName, TimelineHover } from './hover';

const summary = { ...fixtureSummary(), event_types: [{ index: 0, name: 'marker', category: '' }] };
// 1000 ns over 1000 px from 1.5008 s: 1 ns per px.
const T0 = 1_500_800_000;
const tile = decodeTile(
  encodeTile({
    from: T0,
    to: T0 + 1000,
    width: 1000,
    slices: [
      { begin: T0 + 100, end: T0 + 120.65 * 1, row: 0, state: 1, ref: 11, depth: 0, flags: 0 },
      { begin: T0 + 600, end: T0 + 600.4, row: 2, state: 2, ref: 5, depth: 0, flags: 1 },
    ],
    instants: [{ time: T0 + 700, row: 3, type: 0, ref: 21, flags: 0 }],
    arrows: [{ send: T0 + 450, recv: T0 + 454.5, from_row: 0, to_row: 2, ref: 31, flags: 0 }],
  }),
);

describe('describeHit', () => {
  it('names a slice, its duration and times that differ, and its row', () => {
    const lines = describeHit(tile, { kind: 'slice', index: 0, merged: false }, summary);
    expect(lines[0]).toBe('MPI_Send · 20.65 ns');
    const [b, e] = lines[1]!.split(' – ');
    expect(b).not.toBe(e);
    expect(lines[2]).toBe('rank 0 · main');
  });
  it('says when several slices are merged under the pointer', () => {
    const lines = describeHit(tile, { kind: 'slice', index: 1, merged: true }, summary);
    expect(lines[0]).toMatch(/^MPI_Wait/);
    expect(lines.at(-1)).toMatch(/merged/);
  });
  it('names a message by its ends and time in flight, sent and received apart', () => {
    const lines = describeHit(tile, { kind: 'arrow', index: 0, merged: false }, summary);
    expect(lines[0]).toBe('message · 4.5 ns in flight');
    expect(lines[1]).toBe('rank 0 · main → rank 1 · main');
    const m = /^sent (.*), received (.*)$/.exec(lines[2]!);
    expect(m && m[1] !== m[2]).toBe(true);
  });
  it('names an instant by its event type', () => {
    expect(describeHit(tile, { kind: 'instant', index: 0, merged: false }, summary)[0]).toBe('marker');
    expect(rowName(summary, 3)).toBe('rank 1 · worker <io>');
    expect(rowName(summary, 9)).toBe('row 9');
  });
});

describe('TimelineHover', () => {
  const g = new TimelineGeometry({ from: T0, to: T0 + 1000 }, LABEL_WIDTH + 1000, 400, new RowLayout(summary), 0);
  it('shows the words of what is under the pointer and sets data-hover; hides over nothing', () => {
    const canvas = document.createElement('canvas');
    const hover = new TimelineHover(canvas);
    const y = g.laneMiddle(0, 0);
    hover.update(g, tile, { x: g.timeToX(T0 + 110), y }, summary, () => true);
    expect(hover.element.hidden).toBe(false);
    expect(canvas.dataset['hover']).toMatch(/^MPI_Send · 20.65 ns\n/);
    expect(hover.element.textContent).toContain('rank 0 · main');
    hover.update(g, tile, { x: g.timeToX(T0 + 300), y }, summary, () => true);
    expect(hover.element.hidden).toBe(true);
    expect(canvas.dataset['hover']).toBe('');
    // A hidden state is not under the pointer.
    hover.update(g, tile, { x: g.timeToX(T0 + 110), y }, summary, (s) => s !== 1);
    expect(hover.element.hidden).toBe(true);
    hover.update(g, tile, null, summary, () => true);
    expect(hover.element.hidden).toBe(true);
  });
});
