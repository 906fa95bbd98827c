import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
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
