// The cold -> hot colour scale of heat maps and its helpers.
import { parseHex as parseHexOrNull, rgbToHex, textColorOn } from '../../base/color';

export { textColorOn };

/** Stops of the heat scale (RdYlBu reversed): dark blue, light yellow, dark red. */
export const HEAT_STOPS: readonly string[] = ['#313695', '#4575b4', '#abd9e9', '#ffffbf', '#fdae61', '#d73027', '#a50026'];

/** Colour of a cell with nothing in it. */
export const EMPTY_CELL = '#f2f2f2';

function parseHex(c: string): [number, number, number] {
  return parseHexOrNull(c) ?? [0, 0, 0];
}

function hex(r: number, g: number, b: number): string {
  const clamp = (v: number): number => Math.round(Math.min(255, Math.max(0, v)));
  return rgbToHex(clamp(r), clamp(g), clamp(b));
}

/** The heat colour of t in [0, 1] (clamped), as '#rrggbb'. */
export function heatColor(t: number): string {
  const x = Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
  const pos = x * (HEAT_STOPS.length - 1);
  const i = Math.min(HEAT_STOPS.length - 2, Math.floor(pos));
  const f = pos - i;
  const a = parseHex(HEAT_STOPS[i]!);
  const b = parseHex(HEAT_STOPS[i + 1]!);
  return hex(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f);
}

/** v in [0, max] to [0, 1], logarithmically (log1p) or linearly. */
export function normalize(v: number, max: number, log: boolean): number {
  if (!(max > 0) || !(v > 0)) return 0;
  const t = log ? Math.log1p(v) / Math.log1p(max) : v / max;
  return Math.min(1, t);
}
