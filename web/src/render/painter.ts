// The drawing surface every view paints on. One implementation draws on a
// canvas (the screen and PNG export), one builds an SVG document (SVG export),
// so a view's paint code is written once and exports look like the screen.

/** Colours are CSS colour strings ('#rrggbb', 'rgba(...)'). */
export interface TextStyle {
  color: string;
  /** CSS font shorthand, e.g. '12px sans-serif'. */
  font?: string;
  align?: 'left' | 'center' | 'right';
  baseline?: 'top' | 'middle' | 'bottom' | 'alphabetic';
}

export interface Painter {
  /** Size of the surface in CSS pixels. */
  readonly width: number;
  readonly height: number;
  clear(color?: string): void;
  fillRect(x: number, y: number, w: number, h: number, color: string): void;
  strokeRect(x: number, y: number, w: number, h: number, color: string, lineWidth?: number): void;
  line(x1: number, y1: number, x2: number, y2: number, color: string, lineWidth?: number): void;
  /** An open polyline through points [x0, y0, x1, y1, ...]. */
  polyline(points: readonly number[], color: string, lineWidth?: number): void;
  /** A closed, filled polygon through points [x0, y0, x1, y1, ...]. */
  polygon(points: readonly number[], fill: string): void;
  /**
   * Straight segments [x1, y1, x2, y2, ...] stroked as one path: one drawing
   * operation for thousands of message arrows, and where they cross a
   * translucent colour is not laid on twice.
   */
  segments(points: readonly number[], color: string, lineWidth?: number): void;
  /** Filled triangles [x0, y0, x1, y1, x2, y2, ...] (six numbers each), filled as one path. */
  triangles(points: readonly number[], fill: string): void;
  text(x: number, y: number, text: string, style: TextStyle): void;
  /** Width of `text` in pixels in `font`. */
  measureText(text: string, font?: string): number;
  /** Drawing after this is clipped to the rectangle until the matching restore(). */
  save(): void;
  clip(x: number, y: number, w: number, h: number): void;
  restore(): void;
}
