// Painting the waits overlay (waits_overlay.ts has the data): each wait a
// hatched translucent band in its kind's colour over the waiting call, with
// a solid edge along the lane's bottom; each thread row's imbalance strip at
// the right edge of the label column (its length the share of the window
// the row spent waiting, its colour blue below the ranks' mean, red above,
// a black tick at the mean, the percentage written in it); and a key with
// the status ("waits: 120 of 649 shown") in the plot's bottom-right corner.
import { formatDuration } from '../../base/format';
import type { Painter } from '../../render/painter';
import { RULER_HEIGHT, type TimelineGeometry } from './geometry';
import { WAIT_COLORS, WAIT_LABELS, waitBoxes, waitColor, type RowStrip, type WaitKind, type WaitsPaint } from './waits_overlay';

export const STRIP_WIDTH = 40;
const STRIP_HEIGHT = 11;
const STRIP_FONT = '9px sans-serif';
const KEY_FONT = '11px sans-serif';
const HATCH_STEP = 6;

/** `hex` (#rrggbb) with alpha `a`. */
function rgba(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${a})`;
}

/** The waits as bands over the bars (called inside the plot's clip). */
export function paintWaits(p: Painter, g: TimelineGeometry, w: WaitsPaint): void {
  const boxes = waitBoxes(w.window.waits, g);
  const hatches = new Map<string, number[]>();
  for (const b of boxes) {
    const color = waitColor(b.kind);
    p.fillRect(b.x, b.y, b.w, b.h, rgba(color, 0.35));
    p.fillRect(b.x, b.y + b.h - 3, b.w, 3, color);
    if (b.w < HATCH_STEP) continue;
    // Diagonal hatching, cut to the band (drawn together per kind).
    let lines = hatches.get(color);
    if (!lines) hatches.set(color, (lines = []));
    for (let x = b.x - b.h + (HATCH_STEP - ((b.x - b.h) % HATCH_STEP)); x < b.x + b.w; x += HATCH_STEP) {
      // From (x, bottom) up to (x + h, top), clipped to [b.x, b.x + b.w].
      const x0 = Math.max(x, b.x);
      const x1 = Math.min(x + b.h, b.x + b.w);
      if (x1 <= x0) continue;
      lines.push(x0, b.y + b.h - (x0 - x), x1, b.y + b.h - (x1 - x));
    }
  }
  for (const [color, lines] of hatches) p.segments(lines, rgba(color, 0.8), 1);
}

/** The strip's fill: grey at the mean, toward blue below it and red above. */
export function stripColor(relative: number): string {
  const t = Math.max(-1, Math.min(1, relative));
  const grey = [158, 158, 158];
  const end = t >= 0 ? [211, 47, 47] : [66, 120, 200];
  const k = Math.abs(t);
  const c = grey.map((v, i) => Math.round(v + (end[i]! - v) * k));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** One row's strip text: "42%" of the window. */
export function stripText(s: RowStrip): string {
  const pct = s.share * 100;
  return pct >= 10 || pct === 0 ? `${Math.round(pct)}%` : `${pct.toFixed(1)}%`;
}

/** The imbalance strips in the label column (after the labels are painted). */
export function paintWaitStrips(p: Painter, g: TimelineGeometry, w: WaitsPaint): void {
  const { top, bottom } = g.visibleContent();
  const x = g.labelWidth - STRIP_WIDTH - 4;
  if (x < 20) return;
  p.save();
  p.clip(0, RULER_HEIGHT, g.labelWidth, g.height - RULER_HEIGHT);
  for (const it of g.layout.itemsIn(top, bottom)) {
    if (it.kind !== 'thread') continue;
    const s = w.strips.get(it.row);
    if (!s) continue;
    const y = g.toScreenY(it.y) + Math.max(1, Math.min(it.height, 18) / 2 - STRIP_HEIGHT / 2);
    p.fillRect(x - 1, y - 1, STRIP_WIDTH + 2, STRIP_HEIGHT + 2, '#ffffff');
    p.fillRect(x, y, STRIP_WIDTH, STRIP_HEIGHT, '#e4e4e4');
    if (s.share > 0) p.fillRect(x, y, Math.max(1, s.share * STRIP_WIDTH), STRIP_HEIGHT, stripColor(s.relative));
    p.fillRect(x + Math.min(STRIP_WIDTH - 1, s.mean * STRIP_WIDTH), y - 1, 1, STRIP_HEIGHT + 2, '#000000');
    p.text(x + STRIP_WIDTH - 2, y + STRIP_HEIGHT / 2 + 0.5, stripText(s), {
      color: '#111111', font: STRIP_FONT, align: 'right', baseline: 'middle',
    });
  }
  p.restore();
}

/** The key and status in the plot's bottom-right corner. */
export function paintWaitsKey(p: Painter, g: TimelineGeometry, w: WaitsPaint): void {
  const win = w.window;
  const most = win.imbalance.max_row >= 0 && win.imbalance.max > 0
    ? `  most: row ${win.imbalance.max_row} ${formatDuration(win.imbalance.max)}, mean ${formatDuration(win.imbalance.mean)}`
    : '';
  const parts: Array<{ text: string; color?: string }> = [{ text: w.status + most }];
  for (const k of Object.keys(WAIT_COLORS) as WaitKind[]) parts.push({ text: WAIT_LABELS[k], color: WAIT_COLORS[k] });
  const widths = parts.map((q) => p.measureText(q.text, KEY_FONT) + (q.color ? 14 : 0) + 10);
  const total = widths.reduce((a, b) => a + b, 0) + 6;
  const h = 18;
  const x0 = Math.max(g.plotLeft, g.width - total - 8);
  const y0 = g.height - h - 6;
  if (y0 < RULER_HEIGHT) return;
  p.fillRect(x0, y0, total, h, 'rgba(255,255,255,0.92)');
  p.strokeRect(x0, y0, total, h, '#9e9e9e', 1);
  let x = x0 + 6;
  parts.forEach((q, i) => {
    if (q.color) {
      p.fillRect(x, y0 + 4, 10, 10, rgba(q.color, 0.5));
      p.fillRect(x, y0 + 11, 10, 3, q.color);
      x += 14;
    }
    p.text(x, y0 + h / 2 + 0.5, q.text, { color: '#222222', font: KEY_FONT, baseline: 'middle' });
    x += widths[i]! - (q.color ? 14 : 0);
  });
}
