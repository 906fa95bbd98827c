import { describe, expect, it } from 'vitest';
import { CanvasPainter, type Canvas2D } from './canvas_painter';

/** A fake 2D context that records property sets and calls. */
function recordingContext(): { ctx: Canvas2D; log: string[] } {
  const log: string[] = [];
  const props: Record<string, unknown> = {};
  const target: Record<string, unknown> = {
    measureText: (t: string) => {
      log.push(`measureText(${t})`);
      return { width: t.length * 7 };
    },
  };
  const ctx = new Proxy(target, {
    get(_t, key: string) {
      if (key in target) return target[key];
      if (key in props) return props[key];
      return (...args: unknown[]) => log.push(`${key}(${args.join(',')})`);
    },
    set(_t, key: string, value: unknown) {
      props[key] = value;
      log.push(`${key}=${String(value)}`);
      return true;
    },
  });
  return { ctx: ctx as unknown as Canvas2D, log };
}

describe('CanvasPainter', () => {
  it('has the size it was given', () => {
    const { ctx } = recordingContext();
    const p = new CanvasPainter(ctx, 300, 150);
    expect(p.width).toBe(300);
    expect(p.height).toBe(150);
  });

  it('sets fillStyle only when the colour changes', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    p.fillRect(0, 0, 10, 10, '#ff0000');
    p.fillRect(10, 0, 10, 10, '#ff0000');
    p.fillRect(20, 0, 10, 10, '#00ff00');
    p.fillRect(30, 0, 10, 10, '#00ff00');
    expect(log).toEqual([
      'fillStyle=#ff0000',
      'fillRect(0,0,10,10)',
      'fillRect(10,0,10,10)',
      'fillStyle=#00ff00',
      'fillRect(20,0,10,10)',
      'fillRect(30,0,10,10)',
    ]);
  });

  it('skips empty rectangles', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    p.fillRect(0, 0, 0, 10, '#000');
    p.fillRect(0, 0, 10, -1, '#000');
    expect(log).toEqual([]);
  });

  it('caches stroke style and line width', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    p.line(0, 0, 10, 10, '#123456');
    p.line(0, 5, 10, 5, '#123456');
    p.strokeRect(1, 2, 3, 4, '#123456', 2);
    expect(log.filter((l) => l.startsWith('strokeStyle='))).toEqual(['strokeStyle=#123456']);
    expect(log.filter((l) => l.startsWith('lineWidth='))).toEqual(['lineWidth=1', 'lineWidth=2']);
    expect(log).toContain('moveTo(0,5)');
    expect(log).toContain('lineTo(10,5)');
    expect(log).toContain('strokeRect(1,2,3,4)');
  });

  it('strokes separate segments and fills triangles as one path each', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    p.segments([0, 0, 10, 0, 5, 5, 9, 9], 'red', 2);
    expect(log).toEqual([
      'strokeStyle=red',
      'lineWidth=2',
      'beginPath()',
      'moveTo(0,0)',
      'lineTo(10,0)',
      'moveTo(5,5)',
      'lineTo(9,9)',
      'stroke()',
    ]);
    log.length = 0;
    p.triangles([0, 0, 4, 0, 2, 3, 10, 10, 14, 10, 12, 13], 'blue');
    expect(log.filter((l) => l === 'fill()' || l === 'closePath()' || l.startsWith('moveTo'))).toEqual([
      'moveTo(0,0)',
      'closePath()',
      'moveTo(10,10)',
      'closePath()',
      'fill()',
    ]);
    log.length = 0;
    p.segments([1, 2], 'red');
    p.triangles([1, 2, 3, 4], 'red');
    expect(log).toEqual([]);
  });

  it('draws polylines and closed polygons', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    p.polygon([0, 0, 10, 0, 10, 10], 'blue');
    expect(log).toEqual([
      'fillStyle=blue',
      'beginPath()',
      'moveTo(0,0)',
      'lineTo(10,0)',
      'lineTo(10,10)',
      'closePath()',
      'fill()',
    ]);
    log.length = 0;
    p.polyline([0, 0, 5, 5, 9, 1], 'red', 3);
    expect(log).toEqual([
      'strokeStyle=red',
      'lineWidth=3',
      'beginPath()',
      'moveTo(0,0)',
      'lineTo(5,5)',
      'lineTo(9,1)',
      'stroke()',
    ]);
  });

  it('sets font, alignment and baseline for text once', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    p.text(5, 6, 'a', { color: '#000', font: '11px monospace', align: 'right', baseline: 'middle' });
    p.text(5, 20, 'b', { color: '#000', font: '11px monospace', align: 'right', baseline: 'middle' });
    expect(log).toEqual([
      'fillStyle=#000',
      'font=11px monospace',
      'textAlign=right',
      'textBaseline=middle',
      'fillText(a,5,6)',
      'fillText(b,5,20)',
    ]);
  });

  it('measures text with the font and caches widths', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    expect(p.measureText('abc', '10px sans-serif')).toBe(21);
    expect(p.measureText('abc', '10px sans-serif')).toBe(21);
    expect(log).toEqual(['font=10px sans-serif', 'measureText(abc)']);
  });

  it('clips to a rectangle and forgets cached styles on restore', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 100, 100);
    p.fillRect(0, 0, 1, 1, 'red');
    p.save();
    p.clip(10, 10, 20, 20);
    p.fillRect(0, 0, 1, 1, 'green');
    p.restore();
    // The context restored fillStyle to red: the painter must not think it is green.
    p.fillRect(0, 0, 1, 1, 'green');
    expect(log).toEqual([
      'fillStyle=red',
      'fillRect(0,0,1,1)',
      'save()',
      'beginPath()',
      'rect(10,10,20,20)',
      'clip()',
      'fillStyle=green',
      'fillRect(0,0,1,1)',
      'restore()',
      'fillStyle=green',
      'fillRect(0,0,1,1)',
    ]);
  });

  it('clears with or without a colour', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 40, 30);
    p.clear();
    p.clear('#fff');
    expect(log).toEqual(['clearRect(0,0,40,30)', 'fillStyle=#fff', 'fillRect(0,0,40,30)']);
  });

  it('sets the style again after invalidate()', () => {
    const { ctx, log } = recordingContext();
    const p = new CanvasPainter(ctx, 10, 10);
    p.fillRect(0, 0, 1, 1, 'red');
    p.invalidate();
    p.fillRect(0, 0, 1, 1, 'red');
    expect(log.filter((l) => l === 'fillStyle=red')).toHaveLength(2);
  });
});
