// The parts of the animation picture that change with the cursor: node colours,
// messages in flight, undelivered-message markers, the hovered node and the
// info line. This is the Painter version (exports, tests); draw_fast.ts draws
// the same on a canvas, batched by colour, every frame.
import type { Painter } from '../../render/painter';
import { shapePoints, type Geometry } from './geometry';
import type { MessageFrame } from './in_flight';
import { MARGIN, TOP } from './paint_static';

export const MESSAGE_LINE = 'rgba(40,40,40,0.22)';
export const MESSAGE_COLOR = '#1f3b73';
export const UNDELIVERED_COLOR = '#d62728';
export const HOVER_COLOR = '#000000';
export const INFO_FONT = '12px sans-serif';
export const COUNT_FONT = 'bold 10px sans-serif';

export interface DynamicFrame {
  g: Geometry;
  palette: readonly string[];
  /** per node: index into palette */
  nodeColor: Int32Array;
  messages: MessageFrame;
  showMessages: boolean;
  hovered: number;
  info: string;
}

/** Arrow head at (x, y) pointing from (x0, y0) to (x1, y1): 3 points. */
export function arrowPoints(x0: number, y0: number, x1: number, y1: number, x: number, y: number, size: number): number[] {
  const len = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const h = size * 0.6;
  return [x + ux * size, y + uy * size, x - ux * size - uy * h, y - uy * size + ux * h, x - ux * size + uy * h, y - uy * size - ux * h];
}

/** Size of a message's arrow head. */
export function arrowSize(g: Geometry): number {
  let r = Infinity;
  for (let i = 0; i < g.r.length; i++) r = Math.min(r, g.r[i]!);
  return Number.isFinite(r) ? Math.max(3, Math.min(6, r * 0.8)) : 4;
}

/** Where a node's undelivered marker sits: its upper right. */
export function undeliveredMarker(g: Geometry, node: number): { x: number; y: number; r: number } {
  const r = g.r[node]!;
  return { x: g.x[node]! + r * 0.75, y: g.y[node]! - r * 0.75, r: Math.max(3, Math.min(6, r * 0.5)) };
}

export function paintDynamic(p: Painter, f: DynamicFrame): void {
  const { g } = f;
  for (let i = 0; i < g.x.length; i++) p.polygon(shapePoints(g.shape[i]!, g.x[i]!, g.y[i]!, g.r[i]!), f.palette[f.nodeColor[i]!]!);
  if (f.hovered >= 0 && f.hovered < g.x.length) {
    const h = f.hovered;
    const pts = shapePoints(g.shape[h]!, g.x[h]!, g.y[h]!, g.r[h]! + 2);
    p.polyline([...pts, pts[0]!, pts[1]!], HOVER_COLOR, 2);
  }
  if (f.showMessages) {
    const m = f.messages;
    const size = arrowSize(g);
    for (let k = 0; k < m.count; k++) {
      const o = 6 * k;
      p.line(m.moving[o]!, m.moving[o + 1]!, m.moving[o + 2]!, m.moving[o + 3]!, MESSAGE_LINE);
    }
    for (let k = 0; k < m.count; k++) {
      const o = 6 * k;
      p.polygon(arrowPoints(m.moving[o]!, m.moving[o + 1]!, m.moving[o + 2]!, m.moving[o + 3]!, m.moving[o + 4]!, m.moving[o + 5]!, size), MESSAGE_COLOR);
    }
    for (const node of m.undeliveredNodes) {
      const u = undeliveredMarker(g, node);
      p.polygon(shapePoints(0, u.x, u.y, u.r), UNDELIVERED_COLOR);
      p.text(u.x + u.r + 1, u.y, String(m.undelivered[node]), { color: UNDELIVERED_COLOR, font: COUNT_FONT, baseline: 'middle' });
    }
  }
  p.text(MARGIN, TOP / 2 + 2, f.info, { color: '#333333', font: INFO_FONT, baseline: 'middle' });
}
