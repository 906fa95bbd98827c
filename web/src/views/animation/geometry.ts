// Where a setup lands on the canvas: one uniform scale fitting its bounds into
// the drawing area, and every node's centre and half-size in CSS pixels,
// computed once per layout and size (the hot path only reads these arrays).
import type { Bounds, Setup, Shape } from './setup_model';

export const SHAPE_CODE: Record<Shape, number> = { circle: 0, square: 1, diamond: 2, hexagon: 3 };

export interface Geometry {
  scale: number;
  /** pixel = offset + scale * unit */
  ox: number;
  oy: number;
  /** per node: centre and half-size (px), shape code */
  x: Float32Array;
  y: Float32Array;
  r: Float32Array;
  shape: Uint8Array;
  /** per node: its kind */
  kind: Uint16Array;
}

/** Smallest half-size of a node on screen, so huge layouts stay visible. */
export const MIN_RADIUS = 1;

/** What a setup covers: its own bounds, else every node and element. */
export function setupBounds(setup: Setup): Bounds {
  if (setup.bounds) return setup.bounds;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const add = (x: number, y: number, pad = 0): void => {
    x0 = Math.min(x0, x - pad);
    y0 = Math.min(y0, y - pad);
    x1 = Math.max(x1, x + pad);
    y1 = Math.max(y1, y + pad);
  };
  for (const n of setup.nodes) add(n.x, n.y, (setup.kinds[n.kind]?.size ?? 1) / 2);
  for (const e of setup.edges) {
    if (e.bend === 0) continue;
    // the middle of a bent edge is `bend` to the right of its way
    const a = setup.nodes[e.from]!;
    const b = setup.nodes[e.to]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    add((a.x + b.x) / 2 - ((b.y - a.y) / len) * e.bend, (a.y + b.y) / 2 + ((b.x - a.x) / len) * e.bend);
  }
  for (const e of setup.elements) {
    if (e.type === 'line') {
      add(e.x1, e.y1);
      add(e.x2, e.y2);
    } else if (e.type === 'box') {
      add(e.x, e.y);
      add(e.x + e.w, e.y + e.h);
    } else {
      add(e.x, e.y, e.size / 2);
    }
  }
  if (!Number.isFinite(x0)) return { x: 0, y: 0, w: 1, h: 1 };
  return { x: x0, y: y0, w: Math.max(x1 - x0, 1e-9), h: Math.max(y1 - y0, 1e-9) };
}

/** Fits the setup into the rectangle (left, top, width, height) in CSS pixels. */
export function fitGeometry(setup: Setup, left: number, top: number, width: number, height: number): Geometry {
  const b = setupBounds(setup);
  const scale = Math.max(1e-9, Math.min(width / b.w, height / b.h));
  const ox = left + (width - b.w * scale) / 2 - b.x * scale;
  const oy = top + (height - b.h * scale) / 2 - b.y * scale;
  const n = setup.nodes.length;
  const g: Geometry = {
    scale,
    ox,
    oy,
    x: new Float32Array(n),
    y: new Float32Array(n),
    r: new Float32Array(n),
    shape: new Uint8Array(n),
    kind: new Uint16Array(n),
  };
  for (let i = 0; i < n; i++) {
    const node = setup.nodes[i]!;
    const kind = setup.kinds[node.kind]!;
    g.x[i] = ox + node.x * scale;
    g.y[i] = oy + node.y * scale;
    g.r[i] = Math.max(MIN_RADIUS, (kind.size * scale) / 2);
    g.shape[i] = SHAPE_CODE[kind.shape];
    g.kind[i] = node.kind;
  }
  return g;
}

/** The topmost node under (px, py) (at least 4 px wide to hit), or -1. */
export function nodeAt(g: Geometry, px: number, py: number): number {
  for (let i = g.x.length - 1; i >= 0; i--) {
    const r = Math.max(4, g.r[i]!);
    if (Math.abs(px - g.x[i]!) <= r && Math.abs(py - g.y[i]!) <= r) return i;
  }
  return -1;
}

const HEX = Array.from({ length: 6 }, (_, k) => [Math.cos(Math.PI / 6 + (k * Math.PI) / 3), Math.sin(Math.PI / 6 + (k * Math.PI) / 3)] as const);
const CIRCLE = Array.from({ length: 20 }, (_, k) => [Math.cos((k * Math.PI) / 10), Math.sin((k * Math.PI) / 10)] as const);

/** A shape's outline as polygon points (circles as 20-gons) for the Painter. */
export function shapePoints(shape: number, cx: number, cy: number, r: number): number[] {
  switch (shape) {
    case 1:
      return [cx - r, cy - r, cx + r, cy - r, cx + r, cy + r, cx - r, cy + r];
    case 2:
      return [cx, cy - r, cx + r, cy, cx, cy + r, cx - r, cy];
    case 3:
      return HEX.flatMap(([c, s]) => [cx + c * r, cy + s * r]);
    default:
      return CIRCLE.flatMap(([c, s]) => [cx + c * r, cy + s * r]);
  }
}

/** Adds a shape to the current path of a 2D context (no beginPath: callers batch). */
export function shapePath(ctx: CanvasRenderingContext2D, shape: number, cx: number, cy: number, r: number): void {
  switch (shape) {
    case 1:
      ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
      return;
    case 2:
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r, cy);
      ctx.lineTo(cx, cy + r);
      ctx.lineTo(cx - r, cy);
      ctx.closePath();
      return;
    case 3:
      ctx.moveTo(cx + HEX[0]![0] * r, cy + HEX[0]![1] * r);
      for (let k = 1; k < 6; k++) ctx.lineTo(cx + HEX[k]![0] * r, cy + HEX[k]![1] * r);
      ctx.closePath();
      return;
    default:
      ctx.moveTo(cx + r, cy);
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  }
}
