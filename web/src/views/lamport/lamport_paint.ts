// Drawing of the logical-time diagram through the Painter (screen, PNG, SVG):
// ruler in clock ticks, process and thread labels, slice bars, message arrows
// and the replay cursor's frontier.
import type { LamportResult } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { niceTicks } from '../common/ticks';
import type { StateStyle } from '../context';
import {
  clockToX,
  cursorFrontier,
  LABEL_WIDTH,
  rowAnchorY,
  RULER_HEIGHT,
  sliceRect,
  type ClockWindow,
  type Plot,
  type RowEvents,
  type RowsLayout,
} from './lamport_layout';

export const ARROW_COLOR = '#111111';
export const ARROW_HOVER = '#ff6f00';
export const CURSOR_COLOR = '#d81b60';
const FONT = '11px sans-serif';
const BOLD = 'bold 11px sans-serif';
const TEXT = '#333333';
const AXIS = '#9e9e9e';
const ROW_LINE = '#eeeeee';
const HEAD = 6;

export interface LamportPicture {
  result: LamportResult | null;
  layout: RowsLayout;
  events: Map<number, RowEvents>;
  clocks: ClockWindow;
  plot: Plot;
  /** replay cursor time; NaN = not drawn */
  cursor: number;
  /** hovered message / slice (indices into result), -1 none */
  hoverMessage: number;
  hoverSlice: number;
}

/** Draws the picture; returns how many message arrows were drawn. */
export function paintLamport(p: Painter, pic: LamportPicture, states: StateStyle): number {
  const { layout: l, plot, clocks } = pic;
  const right = plot.x + plot.w;
  // Ruler: integer clock ticks.
  p.line(plot.x, RULER_HEIGHT - 1, right, RULER_HEIGHT - 1, AXIS);
  const ticks = niceTicks(clocks.from, clocks.to, Math.max(2, Math.floor(plot.w / 80))).filter((v) => Number.isInteger(v));
  for (const v of ticks) {
    const x = clockToX(v, clocks, plot);
    p.line(x, RULER_HEIGHT - 5, x, RULER_HEIGHT - 1, AXIS);
    p.text(x, RULER_HEIGHT - 6, String(v), { color: TEXT, font: FONT, align: 'center', baseline: 'bottom' });
  }
  p.text(4, RULER_HEIGHT - 6, 'Lamport clock', { color: TEXT, font: FONT, align: 'left', baseline: 'bottom' });
  // Labels: process headers, thread rows indented, faint lines between rows.
  for (const h of l.headers) {
    p.text(4, h.y + 8, h.label, { color: TEXT, font: BOLD, align: 'left', baseline: 'middle' });
    p.line(0, h.y, right, h.y, ROW_LINE);
  }
  const indent = l.headers.length > 0 ? 16 : 4;
  for (const r of l.rows) {
    if (r.height >= 9) p.text(indent, r.y + r.height / 2, r.label, { color: TEXT, font: FONT, align: 'left', baseline: 'middle' });
    if (l.padding > 0) p.line(plot.x, r.y + r.height, right, r.y + r.height, ROW_LINE);
  }
  p.line(LABEL_WIDTH - 1, RULER_HEIGHT, LABEL_WIDTH - 1, l.height, AXIS);
  const r = pic.result;
  if (!r) return 0;
  p.save();
  p.clip(plot.x, RULER_HEIGHT, plot.w, Math.max(0, l.height - RULER_HEIGHT));
  for (let i = 0; i < r.slices.length; i++) {
    const s = r.slices[i]!;
    if (!states.visible(s.state)) continue;
    const b = sliceRect(s, l, clocks, plot);
    if (!b || b.x > right || b.x + b.w < plot.x) continue;
    p.fillRect(b.x, b.y, b.w, b.h, states.color(s.state));
    if (i === pic.hoverSlice) p.strokeRect(b.x, b.y, b.w, b.h, '#000000', 1.5);
  }
  let arrows = 0;
  for (let i = 0; i < r.messages.length; i++) {
    const m = r.messages[i]!;
    const y1 = rowAnchorY(l, m.send_row);
    const y2 = rowAnchorY(l, m.recv_row);
    if (Number.isNaN(y1) || Number.isNaN(y2)) continue;
    arrows++;
    const hover = i === pic.hoverMessage;
    drawArrow(p, clockToX(m.send_clock, clocks, plot), y1, clockToX(m.recv_clock, clocks, plot), y2, hover ? ARROW_HOVER : ARROW_COLOR, hover ? 2.5 : 1);
  }
  if (!Number.isNaN(pic.cursor) && l.rows.length > 0) {
    p.polyline(cursorFrontier(l, pic.events, pic.cursor, clocks, plot), CURSOR_COLOR, 2);
  }
  p.restore();
  return arrows;
}

/** A line from (x1, y1) to (x2, y2) with a filled head at the second point. */
export function drawArrow(p: Painter, x1: number, y1: number, x2: number, y2: number, color: string, width: number): void {
  p.line(x1, y1, x2, y2, color, width);
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = Math.hypot(dx, dy);
  if (len < HEAD) return;
  const ux = dx / len;
  const uy = dy / len;
  const bx = x2 - ux * HEAD;
  const by = y2 - uy * HEAD;
  p.polygon([x2, y2, bx - uy * (HEAD / 2), by + ux * (HEAD / 2), bx + uy * (HEAD / 2), by - ux * (HEAD / 2)], color);
}
