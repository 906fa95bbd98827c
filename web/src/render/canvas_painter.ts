// Painter on a 2D canvas context: the screen and PNG export. The caller sizes
// the canvas and applies the devicePixelRatio transform; coordinates here are
// CSS pixels. Views draw thousands of rectangles per frame, so the context's
// fill/stroke style, line width and font are cached and set only on change.
import type { Painter, TextStyle } from './painter';

const DEFAULT_FONT = '12px sans-serif';

/** The part of CanvasRenderingContext2D the painter uses (lets tests pass a fake). */
export type Canvas2D = Pick<
  CanvasRenderingContext2D,
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'font'
  | 'textAlign'
  | 'textBaseline'
  | 'fillRect'
  | 'strokeRect'
  | 'clearRect'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'fill'
  | 'stroke'
  | 'rect'
  | 'clip'
  | 'save'
  | 'restore'
  | 'fillText'
  | 'measureText'
>;

interface CachedState {
  fill: string | null;
  stroke: string | null;
  lineWidth: number | null;
  font: string | null;
  align: CanvasTextAlign | null;
  baseline: CanvasTextBaseline | null;
}

function unknownState(): CachedState {
  return { fill: null, stroke: null, lineWidth: null, font: null, align: null, baseline: null };
}

export class CanvasPainter implements Painter {
  private state: CachedState = unknownState();
  /** Cached states saved by save(); the context restores its own. */
  private readonly stack: CachedState[] = [];
  private readonly widths = new Map<string, number>();

  constructor(
    private readonly ctx: Canvas2D | CanvasRenderingContext2D,
    readonly width: number,
    readonly height: number,
  ) {}

  /**
   * Forgets the cached context state. Call it after changing the context
   * directly (fillStyle, font, ...) or resizing its canvas (which resets it).
   */
  invalidate(): void {
    this.state = unknownState();
  }

  clear(color?: string): void {
    if (color === undefined) {
      this.ctx.clearRect(0, 0, this.width, this.height);
    } else {
      this.setFill(color);
      this.ctx.fillRect(0, 0, this.width, this.height);
    }
  }

  fillRect(x: number, y: number, w: number, h: number, color: string): void {
    if (w <= 0 || h <= 0) return;
    this.setFill(color);
    this.ctx.fillRect(x, y, w, h);
  }

  strokeRect(x: number, y: number, w: number, h: number, color: string, lineWidth = 1): void {
    this.setStroke(color, lineWidth);
    this.ctx.strokeRect(x, y, w, h);
  }

  line(x1: number, y1: number, x2: number, y2: number, color: string, lineWidth = 1): void {
    this.setStroke(color, lineWidth);
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
  }

  polyline(points: readonly number[], color: string, lineWidth = 1): void {
    if (points.length < 4) return;
    this.setStroke(color, lineWidth);
    this.path(points);
    this.ctx.stroke();
  }

  polygon(points: readonly number[], fill: string): void {
    if (points.length < 6) return;
    this.setFill(fill);
    this.path(points);
    this.ctx.closePath();
    this.ctx.fill();
  }

  segments(points: readonly number[], color: string, lineWidth = 1): void {
    if (points.length < 4) return;
    this.setStroke(color, lineWidth);
    const ctx = this.ctx;
    ctx.beginPath();
    for (let i = 0; i + 3 < points.length; i += 4) {
      ctx.moveTo(points[i]!, points[i + 1]!);
      ctx.lineTo(points[i + 2]!, points[i + 3]!);
    }
    ctx.stroke();
  }

  triangles(points: readonly number[], fill: string): void {
    if (points.length < 6) return;
    this.setFill(fill);
    const ctx = this.ctx;
    ctx.beginPath();
    for (let i = 0; i + 5 < points.length; i += 6) {
      ctx.moveTo(points[i]!, points[i + 1]!);
      ctx.lineTo(points[i + 2]!, points[i + 3]!);
      ctx.lineTo(points[i + 4]!, points[i + 5]!);
      ctx.closePath();
    }
    ctx.fill();
  }

  text(x: number, y: number, text: string, style: TextStyle): void {
    this.setFill(style.color);
    this.setFont(style.font ?? DEFAULT_FONT);
    const align = style.align ?? 'left';
    if (this.state.align !== align) {
      this.ctx.textAlign = align;
      this.state.align = align;
    }
    const baseline = style.baseline ?? 'alphabetic';
    if (this.state.baseline !== baseline) {
      this.ctx.textBaseline = baseline;
      this.state.baseline = baseline;
    }
    this.ctx.fillText(text, x, y);
  }

  measureText(text: string, font: string = DEFAULT_FONT): number {
    const key = font + '\u0000' + text;
    const known = this.widths.get(key);
    if (known !== undefined) return known;
    this.setFont(font);
    const w = this.ctx.measureText(text).width;
    if (this.widths.size > 4096) this.widths.clear();
    this.widths.set(key, w);
    return w;
  }

  save(): void {
    this.stack.push({ ...this.state });
    this.ctx.save();
  }

  clip(x: number, y: number, w: number, h: number): void {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.rect(x, y, w, h);
    ctx.clip();
  }

  restore(): void {
    this.ctx.restore();
    // The context is back to the saved state; so is our idea of it.
    this.state = this.stack.pop() ?? unknownState();
  }

  private path(points: readonly number[]): void {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.moveTo(points[0]!, points[1]!);
    for (let i = 2; i + 1 < points.length; i += 2) ctx.lineTo(points[i]!, points[i + 1]!);
  }

  private setFill(color: string): void {
    if (this.state.fill !== color) {
      this.ctx.fillStyle = color;
      this.state.fill = color;
    }
  }

  private setStroke(color: string, lineWidth: number): void {
    if (this.state.stroke !== color) {
      this.ctx.strokeStyle = color;
      this.state.stroke = color;
    }
    if (this.state.lineWidth !== lineWidth) {
      this.ctx.lineWidth = lineWidth;
      this.state.lineWidth = lineWidth;
    }
  }

  private setFont(font: string): void {
    if (this.state.font !== font) {
      this.ctx.font = font;
      this.state.font = font;
    }
  }
}
