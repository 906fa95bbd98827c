import { describe, expect, it } from 'vitest';
import { escapeXml, parseFont, SvgPainter } from './svg_painter';

const fixed = { measure: (t: string) => t.length * 6 };

describe('SvgPainter', () => {
  it('produces a standalone SVG document of the given size', () => {
    const p = new SvgPainter(200, 100, fixed);
    const svg = p.toSvg();
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(svg).toContain('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">');
    expect(svg.trim().endsWith('</svg>')).toBe(true);
  });

  it('draws rects, lines, polylines and polygons', () => {
    const p = new SvgPainter(100, 100, fixed);
    p.fillRect(1, 2, 3.333, 4, '#ff0000');
    p.strokeRect(5, 6, 7, 8, 'blue', 2);
    p.line(0, 0, 10, 20, '#000');
    p.polyline([0, 0, 5, 5, 10, 0], 'green');
    p.polygon([0, 0, 5, 5, 10, 0], 'rgba(10, 20, 30, 0.5)');
    const svg = p.toSvg();
    expect(svg).toContain('<rect x="1" y="2" width="3.33" height="4" fill="#ff0000"/>');
    expect(svg).toContain('<rect x="5" y="6" width="7" height="8" fill="none" stroke="blue" stroke-width="2"/>');
    expect(svg).toContain('<line x1="0" y1="0" x2="10" y2="20" stroke="#000" stroke-width="1"/>');
    expect(svg).toContain('<polyline points="0,0 5,5 10,0" fill="none" stroke="green" stroke-width="1"/>');
    expect(svg).toContain('<polygon points="0,0 5,5 10,0" fill="rgb(10,20,30)" fill-opacity="0.5"/>');
  });

  it('draws segments and triangles as one path each', () => {
    const p = new SvgPainter(100, 100, fixed);
    p.segments([0, 0, 10, 0, 5, 5, 9, 9], 'rgba(30,30,30,0.7)', 2);
    p.triangles([0, 0, 4, 0, 2, 3, 10, 10, 14, 10, 12, 13], 'blue');
    const svg = p.toSvg();
    expect(svg).toContain(
      '<path d="M0 0L10 0M5 5L9 9" fill="none" stroke="rgb(30,30,30)" stroke-opacity="0.7" stroke-width="2"/>',
    );
    expect(svg).toContain('<path d="M0 0L4 0L2 3ZM10 10L14 10L12 13Z" fill="blue"/>');
  });

  it('skips empty rects and degenerate shapes', () => {
    const p = new SvgPainter(100, 100, fixed);
    p.fillRect(0, 0, 0, 5, 'red');
    p.polygon([0, 0, 1, 1], 'red');
    p.polyline([0, 0], 'red');
    expect(p.toSvg()).not.toMatch(/<rect|<polygon|<polyline/);
  });

  it('writes text with font, anchor and baseline, escaped', () => {
    const p = new SvgPainter(100, 100, fixed);
    p.text(10, 20, 'a < b & "c" \'d\' >', {
      color: '#333',
      font: 'bold 11px "DejaVu Sans", sans-serif',
      align: 'center',
      baseline: 'middle',
    });
    const svg = p.toSvg();
    expect(svg).toContain('&lt; b &amp; &quot;c&quot; &#39;d&#39; &gt;</text>');
    expect(svg).toContain('font-family="&quot;DejaVu Sans&quot;, sans-serif"');
    expect(svg).toContain('font-size="11"');
    expect(svg).toContain('font-weight="bold"');
    expect(svg).toContain('text-anchor="middle"');
    expect(svg).toContain('dominant-baseline="central"');
    expect(svg).not.toContain('a < b');
  });

  it('uses defaults for left/alphabetic text', () => {
    const p = new SvgPainter(100, 100, fixed);
    p.text(1, 2, 'x', { color: 'black' });
    const svg = p.toSvg();
    expect(svg).toContain('<text x="1" y="2" fill="black" font-family="sans-serif" font-size="12" xml:space="preserve">x</text>');
  });

  it('escapes colours in attributes', () => {
    const p = new SvgPainter(10, 10, fixed);
    p.fillRect(0, 0, 1, 1, '"><script>');
    expect(p.toSvg()).not.toContain('<script>');
  });

  it('clips with a clipPath group closed by restore', () => {
    const p = new SvgPainter(100, 100, fixed);
    p.save();
    p.clip(10, 10, 50, 40);
    p.fillRect(0, 0, 100, 100, 'red');
    p.restore();
    p.fillRect(0, 0, 5, 5, 'blue');
    const svg = p.toSvg();
    expect(svg).toContain('<clipPath id="clip0"><rect x="10" y="10" width="50" height="40"/></clipPath>');
    const g = svg.indexOf('<g clip-path="url(#clip0)">');
    const red = svg.indexOf('fill="red"');
    const close = svg.indexOf('</g>');
    const blue = svg.indexOf('fill="blue"');
    expect(g).toBeGreaterThan(0);
    expect(g < red && red < close && close < blue).toBe(true);
    expect(svg.match(/<g /g)?.length).toBe(svg.match(/<\/g>/g)?.length);
  });

  it('nests clips and closes groups left open', () => {
    const p = new SvgPainter(100, 100, fixed);
    p.save();
    p.clip(0, 0, 50, 50);
    p.save();
    p.clip(10, 10, 10, 10);
    p.fillRect(0, 0, 1, 1, 'red');
    p.restore();
    const svg = p.toSvg();
    expect(svg).toContain('url(#clip1)');
    expect(svg.match(/<g /g)?.length).toBe(2);
    expect(svg.match(/<\/g>/g)?.length).toBe(2);
  });

  it('measures text with the given function or ~0.6em per character', () => {
    expect(new SvgPainter(1, 1, fixed).measureText('abcd')).toBe(24);
    const p = new SvgPainter(1, 1);
    const w = p.measureText('abcd', '10px sans-serif');
    expect(w).toBeGreaterThan(0);
  });

  it('clear() starts over', () => {
    const p = new SvgPainter(10, 10, fixed);
    p.fillRect(0, 0, 1, 1, 'red');
    p.clear('#fff');
    const svg = p.toSvg();
    expect(svg).not.toContain('red');
    expect(svg).toContain('<rect x="0" y="0" width="10" height="10" fill="#fff"/>');
  });
});

describe('escapeXml / parseFont', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
  });
  it('parses font shorthands', () => {
    expect(parseFont('12px sans-serif')).toEqual({ style: 'normal', weight: 'normal', size: 12, family: 'sans-serif' });
    expect(parseFont('italic 600 9.5px/1.2 monospace')).toEqual({
      style: 'italic',
      weight: '600',
      size: 9.5,
      family: 'monospace',
    });
  });
});
