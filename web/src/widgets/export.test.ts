// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Painter } from '../render/painter';
import { exportView, PNG_SCALE, renderPng, renderSvg, safeFileName, type RenderCanvas } from './export';

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
