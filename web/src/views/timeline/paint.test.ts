import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { decodeTile, FLAG_MERGED } from '../../engine/tile';
import { encodeTile } from '../../engine/tile_encode';
import { fakeStates, fixtureSummary, RecordingPainter } from '../common/testing';
import { TimelineGeometry } from './geometry';
import { paintTimeline, REPLAY_COLOR, type PaintModel } from './paint';

function model(replayX: number | null | undefined, width = 800): { p: RecordingPainter; m: PaintModel } {
  const summary = fixtureSummary();
  const p = new RecordingPainter(width, 300);
  const g = new TimelineGeometry({ from: 0, to: 1000 }, width, 300, new RowLayout(summary), 0);
  const m: PaintModel = {
    g, tile: null, states: summary.states, style: fakeStates(summary), counters: [], selected: null,
    highlights: [], blink: 0, criticalPath: null, anomalies: null, range: null, cursorX: null,
  };
  if (replayX !== undefined) m.replayX = replayX;
  return { p, m };
}

describe('paintTimeline: the replay cursor', () => {
  it('draws a line over the rows and a handle on the ruler at replayX', () => {
    const { p, m } = model(500);
    paintTimeline(p, m, new Map());
    const lines = p.ops.filter((o) => o.op === 'line' && o.color === REPLAY_COLOR);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.args.slice(0, 3)).toEqual([500, 24, 500]);
    expect(p.ops.some((o) => o.op === 'polygon' && o.color === REPLAY_COLOR)).toBe(true);
  });
  it('draws nothing outside the plot or without a cursor', () => {
    for (const x of [null, undefined, 100, 900]) {
      const { p, m } = model(x);
      paintTimeline(p, m, new Map());
      expect(p.ops.some((o) => o.color === REPLAY_COLOR), String(x)).toBe(false);
    }
  });
});

describe('paintTimeline: message arrows', () => {
  it('draws all arrows of a style as one stroke of lines and one fill of heads', () => {
    const { p, m } = model(undefined);
    const arrows = Array.from({ length: 50 }, (_, i) => ({
      send: 10 * i, recv: 10 * i + 100, from_row: 0, to_row: 1, ref: i, flags: i % 10 === 0 ? FLAG_MERGED : 0,
    }));
    m.tile = decodeTile(encodeTile({ from: 0, to: 1000, width: 800, arrows }));
    paintTimeline(p, m, new Map());
    const count = (op: string, per: number): number[] =>
      p.ops.filter((o) => o.op === op).map((o) => (o.args[0] as number[]).length / per);
    expect(count('segments', 4)).toEqual([45, 5]);
    expect(count('triangles', 6)).toEqual([45, 5]);
    const arrowColor = (o: { color?: string }): boolean => /^rgba\((30,30,30|20,20,20)/.test(o.color ?? '');
    expect(p.ops.filter(arrowColor).map((o) => o.op)).toEqual(['segments', 'triangles', 'segments', 'triangles']);
  });
});
