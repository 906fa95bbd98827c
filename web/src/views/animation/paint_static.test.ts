import { describe, expect, it } from 'vitest';
import { RecordingPainter } from '../common/testing';
import { fitGeometry, nodeAt, setupBounds } from './geometry';
import { meshLayout } from './layouts';
import { drawingArea, edgePoints, paintLegend, paintStatic } from './paint_static';
import type { Setup } from './setup_model';

const two = (): Setup => {
  const s = meshLayout([0, 1].map((i) => ({ label: `n${i}`, module: { by: 'row' as const, ids: [i] } })));
  s.elements = [
    { type: 'box', x: -1, y: -1, w: 4, h: 2, color: '#111111', fill: '#eeeeee', width: 1 },
    { type: 'label', x: 0, y: -2, text: 'board', color: '#222222', size: 1, align: 'left' },
  ];
  return s;
};

describe('static layer', () => {
  it('fits the setup uniformly into the drawing area, centred', () => {
    const s = two();
    expect(setupBounds(s)).toEqual({ x: -1, y: -2.5, w: 4, h: 3.5 });
    const g = fitGeometry(s, 0, 0, 400, 700);
    expect(g.scale).toBe(100);
    expect(g.x[1]! - g.x[0]!).toBe(200);
    expect(g.y[0]).toBeCloseTo(350 - 1.75 * 100 + 2.5 * 100);
    expect(g.r[0]).toBe(50);
    expect(nodeAt(g, g.x[1]! + 49, g.y[1]!)).toBe(1);
    expect(nodeAt(g, g.x[1]! + 51, g.y[1]!)).toBe(-1);
  });

  it('includes the middle of bent edges in the bounds', () => {
    const s = two();
    s.elements = [];
    s.edges = [{ from: 0, to: 1, color: '#000000', width: 1, bend: 3 }];
    expect(setupBounds(s)).toEqual({ x: -0.5, y: -0.5, w: 3, h: 3.5 });
  });

  it('bends an edge to the right of its way', () => {
    const g = fitGeometry(two(), 0, 0, 400, 700);
    const straight = edgePoints({ from: 0, to: 1, color: '#000', width: 1, bend: 0 }, g);
    expect(straight).toEqual([g.x[0], g.y[0], g.x[1], g.y[1]]);
    const bent = edgePoints({ from: 0, to: 1, color: '#000', width: 1, bend: 0.5 }, g);
    expect(bent).toHaveLength(26);
    // the middle point is `bend` units (50 px) below a left-to-right edge: to its right
    expect(bent[12]).toBeCloseTo((g.x[0]! + g.x[1]!) / 2);
    expect(bent[13]).toBeCloseTo(g.y[0]! + 50);
    expect(bent.slice(-2)).toEqual([g.x[1], g.y[1]]);
  });

  it('paints fills, then outlines, edges, node outlines, labels and the legend', () => {
    const s = two();
    const p = new RecordingPainter(400, 300);
    const a = drawingArea(400, 300);
    paintStatic(p, s, fitGeometry(s, a.left, a.top, a.width, a.height), [{ name: 'compute', color: '#1f77b4' }]);
    const kinds = p.ops.map((o) => `${o.op}${o.color ? ` ${o.color}` : ''}`);
    expect(kinds.slice(0, 3)).toEqual(['fillRect #eeeeee', 'strokeRect #111111', 'polyline #c8c8c8']);
    expect(kinds.filter((k) => k === 'polygon #555555')).toHaveLength(2);
    expect(p.texts()).toEqual(['board', 'n0', 'n1', 'compute']);
  });

  it('counts the legend entries that do not fit', () => {
    const p = new RecordingPainter(200, 100);
    paintLegend(p, Array.from({ length: 10 }, (_, i) => ({ name: `state ${i}`, color: '#000000' })));
    const texts = p.texts();
    expect(texts.at(-1)).toMatch(/^\+\d+ more$/);
    expect(texts.length - 1 + Number(texts.at(-1)!.match(/\d+/)![0])).toBe(10);
  });
});
