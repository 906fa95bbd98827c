// Painter that builds a standalone SVG document (SVG export). Same coordinates
// as the canvas painter, so a view's paint() gives the same picture.
import type { Painter, TextStyle } from './painter';

const DEFAULT_FONT = '12px sans-serif';

/** Escapes text for SVG element content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&#39;';
    }
  });
}

/** A number for an attribute: at most 2 decimals, no trailing zeros. */
function num(v: number): string {
  if (!Number.isFinite(v)) return '0';
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

/** 'fill="…"' (and fill-opacity for rgba colours, which not every SVG tool reads). */
function paintAttr(name: 'fill' | 'stroke', color: string): string {
  const m = /^rgba\(\s*([^,]+),\s*([^,]+),\s*([^,]+),\s*([^)]+)\)$/i.exec(color.trim());
  if (m) {
    const rgb = `rgb(${m[1]!.trim()},${m[2]!.trim()},${m[3]!.trim()})`;
    return `${name}="${escapeXml(rgb)}" ${name}-opacity="${escapeXml(m[4]!.trim())}"`;
  }
  return `${name}="${escapeXml(color)}"`;
}

export interface ParsedFont {
  style: string;
  weight: string;
  size: number;
  family: string;
}

/** Splits a CSS font shorthand ('bold 11px monospace') into its parts. */
export function parseFont(font: string): ParsedFont {
  const out: ParsedFont = { style: 'normal', weight: 'normal', size: 12, family: 'sans-serif' };
  const m = /(\d+(?:\.\d+)?)px(?:\s*\/\s*\S+)?\s+(.+)$/.exec(font.trim());
  if (!m) return out;
  out.size = Number(m[1]);
  out.family = m[2]!.trim();
  const before = font.slice(0, m.index).trim().split(/\s+/).filter((t) => t !== '');
  for (const t of before) {
    if (t === 'italic' || t === 'oblique') out.style = t;
    else if (t === 'bold' || t === 'bolder' || t === 'lighter' || /^\d{3}$/.test(t)) out.weight = t;
  }
  return out;
}

const BASELINES: Record<NonNullable<TextStyle['baseline']>, string> = {
  top: 'text-before-edge',
  middle: 'central',
  bottom: 'text-after-edge',
  alphabetic: 'alphabetic',
};
const ANCHORS: Record<NonNullable<TextStyle['align']>, string> = {
  left: 'start',
  center: 'middle',
  right: 'end',
};

type Measure = (text: string, font: string) => number;

let sharedMeasure: Measure | null = null;

/** Text width from an OffscreenCanvas when there is one, else ~0.6 em per character. */
function defaultMeasure(): Measure {
  if (sharedMeasure) return sharedMeasure;
  let ctx: OffscreenCanvasRenderingContext2D | null = null;
  try {
    if (typeof OffscreenCanvas !== 'undefined') ctx = new OffscreenCanvas(1, 1).getContext('2d');
  } catch {
    ctx = null;
  }
  if (ctx) {
    const c = ctx;
    sharedMeasure = (text, font) => {
      c.font = font;
      return c.measureText(text).width;
    };
  } else {
    sharedMeasure = (text, font) => text.length * parseFont(font).size * 0.6;
  }
  return sharedMeasure;
}

export class SvgPainter implements Painter {
  private readonly body: string[] = [];
  private readonly defs: string[] = [];
  /** For each open save(): the number of clip groups opened since. */
  private readonly saves: number[] = [];
  /** Clip groups opened outside any save(). */
  private openGroups = 0;
  private clipIds = 0;
  private readonly measure: Measure;

  constructor(
    readonly width: number,
    readonly height: number,
    options: { measure?: Measure } = {},
  ) {
    this.measure = options.measure ?? defaultMeasure();
  }

  clear(color?: string): void {
    this.body.length = 0;
    this.defs.length = 0;
    this.saves.length = 0;
    this.openGroups = 0;
    if (color !== undefined) this.fillRect(0, 0, this.width, this.height, color);
  }

  fillRect(x: number, y: number, w: number, h: number, color: string): void {
    if (w <= 0 || h <= 0) return;
    this.body.push(
      `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" ${paintAttr('fill', color)}/>`,
    );
  }

  strokeRect(x: number, y: number, w: number, h: number, color: string, lineWidth = 1): void {
    this.body.push(
      `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" fill="none" ` +
        `${paintAttr('stroke', color)} stroke-width="${num(lineWidth)}"/>`,
    );
  }

  line(x1: number, y1: number, x2: number, y2: number, color: string, lineWidth = 1): void {
    this.body.push(
      `<line x1="${num(x1)}" y1="${num(y1)}" x2="${num(x2)}" y2="${num(y2)}" ` +
        `${paintAttr('stroke', color)} stroke-width="${num(lineWidth)}"/>`,
    );
  }

  polyline(points: readonly number[], color: string, lineWidth = 1): void {
    if (points.length < 4) return;
    this.body.push(
      `<polyline points="${pointList(points)}" fill="none" ${paintAttr('stroke', color)} ` +
        `stroke-width="${num(lineWidth)}"/>`,
    );
  }

  polygon(points: readonly number[], fill: string): void {
    if (points.length < 6) return;
    this.body.push(`<polygon points="${pointList(points)}" ${paintAttr('fill', fill)}/>`);
  }

  segments(points: readonly number[], color: string, lineWidth = 1): void {
    if (points.length < 4) return;
    const d: string[] = [];
    for (let i = 0; i + 3 < points.length; i += 4)
      d.push(`M${num(points[i]!)} ${num(points[i + 1]!)}L${num(points[i + 2]!)} ${num(points[i + 3]!)}`);
    this.body.push(
      `<path d="${d.join('')}" fill="none" ${paintAttr('stroke', color)} stroke-width="${num(lineWidth)}"/>`,
    );
  }

  triangles(points: readonly number[], fill: string): void {
    if (points.length < 6) return;
    const d: string[] = [];
    for (let i = 0; i + 5 < points.length; i += 6) {
      d.push(
        `M${num(points[i]!)} ${num(points[i + 1]!)}L${num(points[i + 2]!)} ${num(points[i + 3]!)}` +
          `L${num(points[i + 4]!)} ${num(points[i + 5]!)}Z`,
      );
    }
    this.body.push(`<path d="${d.join('')}" ${paintAttr('fill', fill)}/>`);
  }

  text(x: number, y: number, text: string, style: TextStyle): void {
    const f = parseFont(style.font ?? DEFAULT_FONT);
    let attrs =
      `x="${num(x)}" y="${num(y)}" ${paintAttr('fill', style.color)} ` +
      `font-family="${escapeXml(f.family)}" font-size="${num(f.size)}"`;
    if (f.weight !== 'normal') attrs += ` font-weight="${escapeXml(f.weight)}"`;
    if (f.style !== 'normal') attrs += ` font-style="${escapeXml(f.style)}"`;
    const anchor = ANCHORS[style.align ?? 'left'];
    if (anchor !== 'start') attrs += ` text-anchor="${anchor}"`;
    const baseline = BASELINES[style.baseline ?? 'alphabetic'];
    if (baseline !== 'alphabetic') attrs += ` dominant-baseline="${baseline}"`;
    this.body.push(`<text ${attrs} xml:space="preserve">${escapeXml(text)}</text>`);
  }

  measureText(text: string, font: string = DEFAULT_FONT): number {
    return this.measure(text, font);
  }

  save(): void {
    this.saves.push(0);
  }

  clip(x: number, y: number, w: number, h: number): void {
    const id = `clip${this.clipIds++}`;
    this.defs.push(
      `<clipPath id="${id}"><rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}"/></clipPath>`,
    );
    this.body.push(`<g clip-path="url(#${id})">`);
    if (this.saves.length > 0) this.saves[this.saves.length - 1]!++;
    else this.openGroups++;
  }

  restore(): void {
    const groups = this.saves.pop();
    if (groups === undefined) return;
    for (let i = 0; i < groups; i++) this.body.push('</g>');
  }

  /** The standalone SVG document. Groups still open are closed. */
  toSvg(): string {
    let open = this.openGroups;
    for (const g of this.saves) open += g;
    const parts = [
      '<?xml version="1.0" encoding="UTF-8"?>\n',
      `<svg xmlns="http://www.w3.org/2000/svg" width="${num(this.width)}" height="${num(this.height)}" ` +
        `viewBox="0 0 ${num(this.width)} ${num(this.height)}">\n`,
    ];
    if (this.defs.length > 0) parts.push('<defs>\n', this.defs.join('\n'), '\n</defs>\n');
    parts.push(this.body.join('\n'));
    if (this.body.length > 0) parts.push('\n');
    for (let i = 0; i < open; i++) parts.push('</g>\n');
    parts.push('</svg>\n');
    return parts.join('');
  }
}

function pointList(points: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i + 1 < points.length; i += 2) out.push(`${num(points[i]!)},${num(points[i + 1]!)}`);
  return out.join(' ');
}
