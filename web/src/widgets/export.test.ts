// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Painter } from '../render/painter';
import { exportView, PNG_SCALE, renderPng, renderSvg, safeFileName, setExportCaption, type RenderCanvas } from './export';
import { exportCaption, layoutCaption, rangeText } from './export_caption';

const paint = (p: Painter): void => {
  p.fillRect(1, 2, 3, 4, '#abcdef');
  p.text(5, 6, 'hi & bye', { color: '#000' });
};

/** A canvas whose context records calls and that encodes to a fixed blob. */
function fakeCanvas(log: string[]): (w: number, h: number) => RenderCanvas {
  return (width, height) => {
    log.push(`canvas ${width}x${height}`);
    const ctx = new Proxy(
      { measureText: (t: string) => ({ width: t.length }) } as Record<string, unknown>,
      {
        get(t, key: string) {
          if (key in t) return t[key];
          return (...args: unknown[]) => log.push(`${key}(${args.join(',')})`);
        },
        set(_t, key: string, value: unknown) {
          log.push(`${key}=${String(value)}`);
          return true;
        },
      },
    );
    return {
      width,
      height,
      getContext: () => ctx,
      convertToBlob: () => Promise.resolve(new Blob(['png'], { type: 'image/png' })),
    } as RenderCanvas;
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('renderSvg', () => {
  it('returns an SVG document with the painted shapes on white', () => {
    const svg = renderSvg({ width: 120, height: 80 }, paint);
    expect(svg).toContain('width="120" height="80"');
    expect(svg).toContain('<rect x="0" y="0" width="120" height="80" fill="#ffffff"/>');
    expect(svg).toContain('<rect x="1" y="2" width="3" height="4" fill="#abcdef"/>');
    expect(svg).toContain('hi &amp; bye');
  });
});

describe('renderPng', () => {
  it('paints at twice the size with a scale transform', async () => {
    const log: string[] = [];
    const blob = await renderPng({ width: 100, height: 50 }, paint, fakeCanvas(log));
    expect(blob.type).toBe('image/png');
    expect(log[0]).toBe(`canvas ${100 * PNG_SCALE}x${50 * PNG_SCALE}`);
    expect(log).toContain('setTransform(2,0,0,2,0,0)');
    expect(log).toContain('fillRect(0,0,100,50)');
    expect(log).toContain('fillRect(1,2,3,4)');
    expect(log).toContain('fillText(hi & bye,5,6)');
  });

  it('fails when there is no 2D context', async () => {
    const none = (width: number, height: number): RenderCanvas => ({ width, height, getContext: () => null });
    await expect(renderPng({ width: 10, height: 10 }, paint, none)).rejects.toThrow(/2D/);
  });
});

describe('exportView', () => {
  it('downloads <name>.svg through an <a download> click', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:fake';
    });
    URL.revokeObjectURL = vi.fn();
    const clicks: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ download: this.download, href: this.href });
    });
    await exportView('histogram', { width: 50, height: 40 }, paint, 'svg');
    expect(clicks).toEqual([{ download: 'histogram.svg', href: 'blob:fake' }]);
    expect(created[0]!.type).toBe('image/svg+xml');
    const text = await created[0]!.text();
    expect(text).toContain('<svg');
    expect(text).toContain('fill="#abcdef"');
    expect(document.querySelector('a')).toBeNull();
  });

  it('sanitises file names', () => {
    expect(safeFileName('a/b:c')).toBe('a_b_c');
    expect(safeFileName('  ')).toBe('export');
  });
});

describe('the footer of an export', () => {
  const caption = {
    trace: 'demo.plx',
    range: { from: 1_000_000, to: 3_500_000 },
    states: [
      { name: 'MPI_Recv', color: '#c0392b' },
      { name: 'compute', color: '#27ae60' },
    ],
  };

  it('names the trace, the time range and the states below the view in an SVG', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:fake';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await exportView('t', { width: 400, height: 100 }, paint, 'svg', caption);
    const svg = await created[0]!.text();
    const height = Number(/height="(\d+)"/.exec(svg)![1]);
    expect(height).toBeGreaterThan(100);
    expect(svg).toContain('demo.plx');
    expect(svg).toContain(rangeText(caption.range));
    expect(rangeText(caption.range)).toBe('1.000 ms – 3.500 ms (2.5 ms)');
    expect(svg).toContain('MPI_Recv');
    expect(svg).toMatch(/<rect x="\d+(\.\d+)?" y="1\d\d(\.\d+)?" width="10" height="10" fill="#c0392b"\/>/);
  });

  it('takes the caption from setExportCaption when none is given', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:fake';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    setExportCaption((name) => (name === 'x' ? caption : null));
    await exportView('x', { width: 400, height: 100 }, paint, 'svg');
    await exportView('y', { width: 400, height: 100 }, paint, 'svg');
    setExportCaption(null);
    expect(await created[0]!.text()).toContain('compute');
    expect(await created[1]!.text()).not.toContain('compute');
  });

  it('lists the visible states shown, in legend order', () => {
    const summary = { name: 'n', states: [0, 1, 2, 3].map((i) => ({ index: i, name: `s${i}` })) };
    const style = { color: (i: number) => `#00000${i}`, visible: (i: number) => i !== 2 };
    expect(exportCaption(summary, style, null, [3, 2, 0, 3]).states).toEqual([
      { name: 's0', color: '#000000' },
      { name: 's3', color: '#000003' },
    ]);
    expect(exportCaption(summary, style, null, null).states.map((s) => s.name)).toEqual(['s0', 's1', 's3']);
  });

  it('wraps the legend to the picture width', () => {
    const many = { ...caption, states: Array.from({ length: 40 }, (_, i) => ({ name: `state ${i}`, color: '#123456' })) };
    const narrow = layoutCaption(many, 200, (t) => t.length * 7);
    const wide = layoutCaption(many, 2000, (t) => t.length * 7);
    expect(narrow.height).toBeGreaterThan(wide.height);
    for (const it of narrow.items) expect(it.x).toBeLessThan(200);
  });
});
