// A canvas that fills its parent's width, is sharp on high-DPI screens and
// repaints through a Painter when resized, so screen and export share paint().
import { CanvasPainter } from '../../render/canvas_painter';
import type { Painter } from '../../render/painter';
import { el } from './dom';

export interface ChartCanvasOptions {
  /** CSS height in pixels. */
  height: number;
  /** Width when the parent has none yet (not laid out, tests). */
  fallbackWidth?: number;
  testid?: string;
  /** The height for a width, asked at every repaint (overrides `height`). */
  heightFor?: (width: number) => number;
  /** Called after the width changed (before the repaint). */
  onResize?: (width: number) => void;
}

export class ChartCanvas {
  readonly canvas: HTMLCanvasElement;
  private observer: ResizeObserver | null = null;
  private cssWidth: number;
  private cssHeight: number;
  private frame: number | null = null;

  constructor(
    private readonly paint: (p: Painter) => void,
    private readonly options: ChartCanvasOptions,
  ) {
    this.canvas = el('canvas', { class: 'chart-canvas', 'data-testid': options.testid });
    this.canvas.style.display = 'block';
    this.cssWidth = options.fallbackWidth ?? 600;
    this.cssHeight = options.height;
  }

  /** Appends the canvas to `parent`, sizes it to the parent and watches for resizes. */
  attach(parent: HTMLElement): void {
    parent.append(this.canvas);
    this.measure(parent);
    if (typeof ResizeObserver !== 'undefined') {
      this.observer = new ResizeObserver(() => {
        if (this.measure(parent)) {
          this.options.onResize?.(this.cssWidth);
          this.redraw();
        }
      });
      this.observer.observe(parent);
    }
    this.redraw();
  }

  detach(): void {
    this.observer?.disconnect();
    this.observer = null;
    if (this.frame !== null && typeof cancelAnimationFrame !== 'undefined') cancelAnimationFrame(this.frame);
    this.frame = null;
    this.canvas.remove();
  }

  get width(): number {
    return this.cssWidth;
  }

  get height(): number {
    return this.cssHeight;
  }

  setHeight(height: number): void {
    if (height === this.cssHeight) return;
    this.cssHeight = height;
    this.redraw();
  }

  /** Repaints now. */
  redraw(): void {
    if (this.options.heightFor) this.cssHeight = Math.max(1, Math.round(this.options.heightFor(this.cssWidth)));
    const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
    const w = Math.max(1, Math.round(this.cssWidth * dpr));
    const h = Math.max(1, Math.round(this.cssHeight * dpr));
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
    this.canvas.style.width = `${this.cssWidth}px`;
    this.canvas.style.height = `${this.cssHeight}px`;
    let ctx: CanvasRenderingContext2D | null = null;
    try {
      ctx = this.canvas.getContext('2d');
    } catch {
      ctx = null; // jsdom without a canvas implementation
    }
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const painter = new CanvasPainter(ctx, this.cssWidth, this.cssHeight);
    painter.clear();
    this.paint(painter);
  }

  /** Repaints at the next animation frame (coalesces bursts such as hover). */
  scheduleRedraw(): void {
    if (typeof requestAnimationFrame === 'undefined') {
      this.redraw();
      return;
    }
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.redraw();
    });
  }

  /** Position of a mouse event in CSS pixels of the canvas. */
  eventPos(ev: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  /** Takes the parent's content width; true when it changed. */
  private measure(parent: HTMLElement): boolean {
    const w = Math.floor(parent.clientWidth);
    if (w > 0 && w !== this.cssWidth) {
      this.cssWidth = w;
      return true;
    }
    return false;
  }
}
