// The selected message on the timeline: its arrow drawn thick in the
// selection colour over the others, and its two ends marked, the end the flow
// keys go on from ("]", "[", "p") filled, the other a ring.
import type { Painter } from '../../render/painter';
import type { TimelineGeometry } from './geometry';
import type { SelectedMessage } from './selection';

export const MESSAGE_COLOR = '#1565c0';
/** Half the size of an end's mark, px. */
export const END_MARK = 5;

/** Screen points of the message's ends; null when a row is not shown (collapsed or unknown). */
export function messagePoints(g: TimelineGeometry, m: SelectedMessage): { x1: number; y1: number; x2: number; y2: number } | null {
  const y1 = g.rowAnchorY(m.sendRow);
  const y2 = m.recvRow >= 0 ? g.rowAnchorY(m.recvRow) : NaN;
  if (Number.isNaN(y1) || Number.isNaN(y2)) return null;
  return { x1: g.timeToX(m.send), y1, x2: g.timeToX(m.recv), y2 };
}

export function paintSelectedMessage(p: Painter, g: TimelineGeometry, m: SelectedMessage): void {
  const pts = messagePoints(g, m);
  if (!pts) return;
  const { x1, y1, x2, y2 } = pts;
  p.line(x1, y1, x2, y2, MESSAGE_COLOR, 3);
  const len = Math.hypot(x2 - x1, y2 - y1);
  if (len >= 4) {
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const size = 10;
    const bx = x2 - ux * size;
    const by = y2 - uy * size;
    p.polygon([x2, y2, bx - uy * size * 0.5, by + ux * size * 0.5, bx + uy * size * 0.5, by - ux * size * 0.5], MESSAGE_COLOR);
  }
  mark(p, x1, y1, m.focus === 'send');
  mark(p, x2, y2, m.focus === 'recv');
}

/** A diamond at (x, y): filled for the focused end, a ring otherwise. */
function mark(p: Painter, x: number, y: number, filled: boolean): void {
  const r = END_MARK;
  const pts = [x, y - r, x + r, y, x, y + r, x - r, y];
  if (filled) {
    p.polygon(pts, MESSAGE_COLOR);
  } else {
    p.polygon(pts, '#ffffff');
    p.polyline([...pts, x, y - r], MESSAGE_COLOR, 2);
  }
}
