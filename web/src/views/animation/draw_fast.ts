// The animation's hot path: what paint_dynamic.ts paints, drawn straight on a
// 2D canvas with one path and one fill per colour (nodes sorted into colour
// buckets only when their colours change), one stroke for all message lines
// and one fill for all arrow heads. No allocation per node or message.
import { shapePath } from './geometry';
import {
  arrowSize,
  COUNT_FONT,
  HOVER_COLOR,
  INFO_FONT,
  MESSAGE_COLOR,
  MESSAGE_LINE,
  UNDELIVERED_COLOR,
  undeliveredMarker,
  type DynamicFrame,
} from './paint_dynamic';
import { MARGIN, TOP } from './paint_static';

/** Nodes grouped by palette colour: node order[start[c] .. start[c+1]) have colour c. */
export class ColorBuckets {
  order = new Int32Array(0);
  start = new Int32Array(1);

  /** Sorts nodes by colour (a counting sort). */
  build(nodeColor: Int32Array, paletteSize: number): void {
    const n = nodeColor.length;
    if (this.order.length !== n) this.order = new Int32Array(n);
    if (this.start.length !== paletteSize + 1) this.start = new Int32Array(paletteSize + 1);
    const start = this.start;
    start.fill(0);
    for (let i = 0; i < n; i++) start[nodeColor[i]! + 1]!++;
    for (let c = 0; c < paletteSize; c++) start[c + 1]! += start[c]!;
    const next = start.slice(0, paletteSize);
    for (let i = 0; i < n; i++) this.order[next[nodeColor[i]!]!++] = i;
  }
}

/** Draws nodes, messages, markers, hover and info on `ctx` (CSS pixel transform already set). */
export function drawDynamic(ctx: CanvasRenderingContext2D, f: DynamicFrame, buckets: ColorBuckets): void {
  const { g } = f;
  const { order, start } = buckets;
  for (let c = 0; c + 1 < start.length; c++) {
    const b = start[c]!;
    const e = start[c + 1]!;
    if (b === e) continue;
    ctx.beginPath();
    for (let k = b; k < e; k++) {
      const i = order[k]!;
      shapePath(ctx, g.shape[i]!, g.x[i]!, g.y[i]!, g.r[i]!);
    }
    ctx.fillStyle = f.palette[c]!;
    ctx.fill();
  }
  if (f.hovered >= 0 && f.hovered < g.x.length) {
    const h = f.hovered;
    ctx.beginPath();
    shapePath(ctx, g.shape[h]!, g.x[h]!, g.y[h]!, g.r[h]! + 2);
    ctx.strokeStyle = HOVER_COLOR;
    ctx.lineWidth = 2;
    ctx.stroke();
  }
  if (f.showMessages) drawMessages(ctx, f);
  ctx.font = INFO_FONT;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#333333';
  ctx.fillText(f.info, MARGIN, TOP / 2 + 2);
}

function drawMessages(ctx: CanvasRenderingContext2D, f: DynamicFrame): void {
  const m = f.messages;
  const mv = m.moving;
  if (m.count > 0) {
    ctx.beginPath();
    for (let k = 0; k < m.count; k++) {
      const o = 6 * k;
      ctx.moveTo(mv[o]!, mv[o + 1]!);
      ctx.lineTo(mv[o + 2]!, mv[o + 3]!);
    }
    ctx.strokeStyle = MESSAGE_LINE;
    ctx.lineWidth = 1;
    ctx.stroke();
    const size = arrowSize(f.g);
    const h = size * 0.6;
    ctx.beginPath();
    for (let k = 0; k < m.count; k++) {
      const o = 6 * k;
      const dx = mv[o + 2]! - mv[o]!;
      const dy = mv[o + 3]! - mv[o + 1]!;
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len;
      const uy = dy / len;
      const x = mv[o + 4]!;
      const y = mv[o + 5]!;
      ctx.moveTo(x + ux * size, y + uy * size);
      ctx.lineTo(x - ux * size - uy * h, y - uy * size + ux * h);
      ctx.lineTo(x - ux * size + uy * h, y - uy * size - ux * h);
      ctx.closePath();
    }
    ctx.fillStyle = MESSAGE_COLOR;
    ctx.fill();
  }
  if (m.undeliveredNodes.length > 0) {
    ctx.beginPath();
    for (const node of m.undeliveredNodes) {
      const u = undeliveredMarker(f.g, node);
      shapePath(ctx, 0, u.x, u.y, u.r);
    }
    ctx.fillStyle = UNDELIVERED_COLOR;
    ctx.fill();
    ctx.font = COUNT_FONT;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    for (const node of m.undeliveredNodes) {
      const u = undeliveredMarker(f.g, node);
      ctx.fillText(String(m.undelivered[node]), u.x + u.r + 1, u.y);
    }
  }
}
