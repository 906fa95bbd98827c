// The parts of the animation picture that only change with the layout, the
// size or the colours: layout elements, edges, node outlines and labels, and
// the legend. Drawn through the Painter: into a cached background canvas on
// screen, straight into PNG/SVG exports.
import type { Painter } from '../../render/painter';
import { shapePoints, type Geometry } from './geometry';
import type { NamedColor, Setup, SetupEdge } from './setup_model';

export const TOP = 20;
export const BOTTOM = 22;
export const MARGIN = 12;
const OUTLINE = '#555555';
const LABEL_COLOR = '#333333';
const LEGEND_FONT = '11px sans-serif';

/** The drawing area of a picture of width x height: below the info line, above the legend. */
export function drawingArea(width: number, height: number): { left: number; top: number; width: number; height: number } {
  return { left: MARGIN, top: TOP + MARGIN / 2, width: Math.max(1, width - 2 * MARGIN), height: Math.max(1, height - TOP - BOTTOM - MARGIN) };
}

/** Points of an edge: straight, or a quadratic curve whose middle is `bend` units aside. */
export function edgePoints(e: SetupEdge, g: Geometry): number[] {
  const x0 = g.x[e.from]!;
  const y0 = g.y[e.from]!;
  const x1 = g.x[e.to]!;
  const y1 = g.y[e.to]!;
  if (e.bend === 0) return [x0, y0, x1, y1];
  const len = Math.hypot(x1 - x0, y1 - y0) || 1;
  // The control point twice as far aside puts the curve's middle at `bend`.
  const off = 2 * e.bend * g.scale;
  const cx = (x0 + x1) / 2 - ((y1 - y0) / len) * off;
  const cy = (y0 + y1) / 2 + ((x1 - x0) / len) * off;
  const pts: number[] = [];
  const steps = 12;
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    const a = (1 - t) * (1 - t);
    const b = 2 * (1 - t) * t;
    const c = t * t;
    pts.push(a * x0 + b * cx + c * x1, a * y0 + b * cy + c * y1);
  }
  return pts;
}

/** Whether node labels fit: nodes big enough and not too many. */
export function showNodeLabels(g: Geometry): boolean {
  if (g.x.length > 400) return false;
  let small = Infinity;
  for (let i = 0; i < g.r.length; i++) small = Math.min(small, g.r[i]!);
  return small >= 7;
}

export function paintStatic(p: Painter, setup: Setup, g: Geometry, legend: readonly NamedColor[]): void {
  const s = g.scale;
  const X = (x: number): number => g.ox + x * s;
  const Y = (y: number): number => g.oy + y * s;
  for (const e of setup.elements) {
    if (e.type === 'box' && e.fill) p.fillRect(X(e.x), Y(e.y), e.w * s, e.h * s, e.fill);
  }
  for (const e of setup.elements) {
    if (e.type === 'box') p.strokeRect(X(e.x), Y(e.y), e.w * s, e.h * s, e.color, e.width);
    else if (e.type === 'line') p.line(X(e.x1), Y(e.y1), X(e.x2), Y(e.y2), e.color, e.width);
  }
  for (const e of setup.edges) p.polyline(edgePoints(e, g), e.color, e.width);
  for (let i = 0; i < g.x.length; i++) {
    if (g.r[i]! >= 3) p.polygon(shapePoints(g.shape[i]!, g.x[i]!, g.y[i]!, g.r[i]! + 1), OUTLINE);
  }
  for (const e of setup.elements) {
    if (e.type !== 'label') continue;
    const px = Math.max(6, Math.min(40, e.size * s));
    p.text(X(e.x), Y(e.y), e.text, { color: e.color, font: `${px.toFixed(1)}px sans-serif`, align: e.align, baseline: 'middle' });
  }
  if (showNodeLabels(g)) {
    for (let i = 0; i < g.x.length; i++) {
      const label = setup.nodes[i]!.label;
      if (label) p.text(g.x[i]!, g.y[i]! + g.r[i]! + 2, label, { color: LABEL_COLOR, font: '10px sans-serif', align: 'center', baseline: 'top' });
    }
  }
  paintLegend(p, legend);
}

/** Swatches and names along the bottom; what does not fit is counted. */
export function paintLegend(p: Painter, legend: readonly NamedColor[]): void {
  const y = p.height - BOTTOM / 2;
  let x = MARGIN;
  for (let i = 0; i < legend.length; i++) {
    const item = legend[i]!;
    const w = 14 + p.measureText(item.name, LEGEND_FONT) + 12;
    if (x + w > p.width - 60 && i < legend.length - 1) {
      p.text(x, y, `+${legend.length - i} more`, { color: LABEL_COLOR, font: LEGEND_FONT, baseline: 'middle' });
      return;
    }
    p.fillRect(x, y - 5, 10, 10, item.color);
    p.strokeRect(x, y - 5, 10, 10, OUTLINE);
    p.text(x + 14, y, item.name, { color: LABEL_COLOR, font: LEGEND_FONT, baseline: 'middle' });
    x += w;
  }
}
