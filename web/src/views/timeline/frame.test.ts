// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { RowLayout } from '../../base/layout';
import { fakeApi, fakeStates, fixtureSummary, RecordingPainter, stubCanvas } from '../common/testing';
import { TimelineFrame, type TimelineFrameHost } from './frame';
import { TimelineGeometry } from './geometry';

// The view's parts as far as a frame reads them: the tile drawn is a stand-in
// (no tile data: paint.test.ts paints tiles), what matters is what a frame
// does with the parts' answers.
function setup(o: { skip?: boolean; tile?: boolean; compact?: boolean; blinking?: boolean } = {}) {
  stubCanvas();
  const summary = fixtureSummary();
  const layout = new RowLayout(summary);
  const onFirstDraw = vi.fn();
  const requestDraw = vi.fn();
  const compactPaint = vi.fn();
  const canvas = document.createElement('canvas');
  const geometryOf = (width: number, height: number) =>
    new TimelineGeometry({ from: 0, to: summary.duration }, width, height, layout, 0, 150);
  const host = {
    options: () => ({ api: fakeApi({}), summary, style: fakeStates(summary), onFirstDraw }),
    geometry: () => geometryOf(800, 300),
    geometryOf,
    layout: () => layout,
    pinned: () => [1],
    tiles: {
      ensure: vi.fn(), fresh: true, skipFrame: () => !!o.skip, painted: vi.fn(),
      current: o.tile ? { tile: null } : null, covers: () => false,
    },
    compact: {
      on: !!o.compact, ensure: vi.fn(), paint: compactPaint, mark: vi.fn(), painted: false, order: [2, 0, 1],
    },
    selection: { selected: null, message: null },
    overlays: {
      highlighted: [], blink: () => 0, criticalPath: null, anomalies: null, waitsFor: () => null, blinking: !!o.blinking,
    },
    areas: { area: () => null, shown: () => null },
    strips: { paint: vi.fn() },
    input: { dragging: false, pointer: null, pointerAt: null, areaDrag: null, range: null },
    requestDraw,
  } as unknown as TimelineFrameHost;
  const frame = new TimelineFrame(canvas, host);
  return { frame, canvas, onFirstDraw, requestDraw, compactPaint };
}

describe('TimelineFrame', () => {
  it('paints nothing and reports the frame skipped while the tiles hold it', () => {
    const { frame, canvas } = setup({ skip: true });
    const p = new RecordingPainter();
    expect(frame.draw(p)).toBe(false);
    expect(p.ops).toEqual([]);
    expect(canvas.dataset['labelWidth']).toBeUndefined();
  });

  it('paints, then sets the test hooks from the geometry and the rows', () => {
    const { frame, canvas } = setup();
    const p = new RecordingPainter();
    expect(frame.draw(p)).toBe(true);
    expect(p.ops.length).toBeGreaterThan(0);
    expect(canvas.dataset['labelWidth']).toBe('150');
    expect(canvas.dataset['tileCovers']).toBe('0');
    expect(canvas.dataset['rowsCount']).toBe('3');
    expect(canvas.dataset['rowsOrder']).toBe('2,0,1');
    expect(canvas.dataset['hover']).toBe('');
  });

  it('tells of the first draw once, when a tile was drawn', () => {
    const none = setup();
    none.frame.draw(new RecordingPainter());
    expect(none.onFirstDraw).not.toHaveBeenCalled();
    expect(none.frame.drawn).toBe(false);
    const { frame, onFirstDraw } = setup({ tile: true });
    frame.draw(new RecordingPainter());
    frame.draw(new RecordingPainter());
    expect(onFirstDraw).toHaveBeenCalledTimes(1);
    expect(frame.drawn).toBe(true);
  });

  it('asks for another frame while something blinks', () => {
    const { frame, requestDraw } = setup({ blinking: true });
    frame.draw(new RecordingPainter());
    expect(requestDraw).toHaveBeenCalledTimes(1);
  });

  it('paints the compact mode at the painter size, on the canvas only on screen', () => {
    const { frame, compactPaint } = setup({ compact: true });
    frame.paint(new RecordingPainter(640, 200), false);
    const [, ctx, g] = compactPaint.mock.calls[0]!;
    expect(ctx).toBeNull();
    expect([g.width, g.height]).toEqual([640, 200]);
  });
});
