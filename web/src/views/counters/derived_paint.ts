// Drawing of the derived series: one strip per series over the timeline's
// window, a line per row through the bucket centres (gaps where a bucket
// has no value), the value range at the left.
import type { Painter } from '../../render/painter';
import { formatShort } from '../common/format';
import type { SeriesData } from './derived';

export const STRIP_H = 90;
export const LEFT = 170;
const FONT = '11px sans-serif';
const SMALL = '9px sans-serif';
const COLORS = ['#2f5f9f', '#d81b60', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#5d4037', '#9e9d24'];

export interface DerivedStrip {
  title: string;
  data: SeriesData | null;
  error?: string;
}

export function derivedHeight(strips: number): number {
  return strips === 0 ? 1 : strips * (STRIP_H + 8) + 4;
}

/** The finite range of a series, with 0 in it. */
export function valueRange(d: SeriesData): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const row of d.values) for (const v of row) if (Number.isFinite(v)) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
  return [lo, hi > lo ? hi : lo + 1];
}

export function paintDerived(p: Painter, strips: readonly DerivedStrip[], win: { from: number; to: number }): void {
  const plot = { x: LEFT, w: Math.max(10, p.width - LEFT - 10) };
  const xOf = (t: number): number => plot.x + ((t - win.from) / (win.to - win.from)) * plot.w;
  strips.forEach((s, i) => {
    const y = 4 + i * (STRIP_H + 8);
    p.fillRect(plot.x, y, plot.w, STRIP_H, '#fbfbfd');
    const title = s.title.length > 30 ? `${s.title.slice(0, 29)}…` : s.title;
    p.text(plot.x - 6, y + 8, title, { color: '#333333', font: FONT, align: 'right', baseline: 'middle' });
    if (s.error) p.text(plot.x - 6, y + 24, s.error.slice(0, 30), { color: '#b00020', font: SMALL, align: 'right', baseline: 'middle' });
    const d = s.data;
    if (!d) return;
    const [lo, hi] = valueRange(d);
    p.text(plot.x - 6, y + 18, formatShort(hi), { color: '#9e9e9e', font: SMALL, align: 'right', baseline: 'top' });
    p.text(plot.x - 6, y + STRIP_H, formatShort(lo), { color: '#9e9e9e', font: SMALL, align: 'right', baseline: 'bottom' });
    const yOf = (v: number): number => y + STRIP_H - ((v - lo) / (hi - lo)) * STRIP_H;
    p.save();
    p.clip(plot.x, y - 1, plot.w, STRIP_H + 2);
    d.values.forEach((row, r) => {
      const color = COLORS[r % COLORS.length]!;
      let line: number[] = [];
      const flush = (): void => {
        if (line.length >= 4) p.polyline(line, color, 1.2);
        else if (line.length === 2) p.fillRect(line[0]! - 1, line[1]! - 1, 2, 2, color);
        line = [];
      };
      row.forEach((v, b) => {
        if (!Number.isFinite(v)) return flush();
        line.push(xOf((d.edges[b]! + d.edges[b + 1]!) / 2), yOf(v));
      });
      flush();
    });
    p.restore();
  });
}
