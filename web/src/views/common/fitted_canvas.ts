// What every canvas that fills its parent's width shares: the element, the
// parent's width taken when attached and whenever it resizes, sizes in CSS
// pixels, at most one pending animation frame, and what detach() releases.
// ChartCanvas (the panels' charts) and the animation's Stage build on it.
import { CanvasPainter } from '../../render/canvas_painter';
import { el } from './dom';

export abstract class FittedCanvas {
  readonly canvas: HTMLCanvasElement;
  protected cssWidth: number;
  protected cssHeight: number;
  private observer: ResizeObserver | null = null;
  private frame: number | null = null;

  protected constructor(attrs: Record<string, string | undefined>, width: number, height: number) {
    this.canvas = el('canvas', attrs);
    this.canvas.style.display = 'block';
    this.cssWidth = width;
    this.cssHeight = height;
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

  /** Position of a mouse event in CSS pixels of the canvas. */
  eventPos(ev: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  /** Appends the canvas to `parent` and takes its width; `resized` runs when
   * the parent (or `watch`) resizes, told whether the width changed. */
  protected attachTo(parent: HTMLElement, resized: (wider: boolean) => void, watch?: HTMLElement): void {
    parent.append(this.canvas);
    this.measure(parent);
    if (typeof ResizeObserver === 'undefined') return;
    this.observer = new ResizeObserver(() => resized(this.measure(parent)));
    this.observer.observe(parent);
    if (watch) this.observer.observe(watch);
  }

  /** Runs `draw` at the next animation frame, once however often asked before it. */
  protected atNextFrame(draw: () => void): void {
    if (this.frame !== null) return;
    if (typeof requestAnimationFrame === 'undefined') {
      draw();
      return;
    }
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      draw();
    });
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

/** The device pixels per CSS pixel. */
export function devicePixelRatio(): number {
  return (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
}

/** Sizes `c` for the CSS size at `dpr` (its pixel buffer only when that changes). */
export function sizeCanvas(c: HTMLCanvasElement, width: number, height: number, dpr: number): void {
  const w = Math.max(1, Math.round(width * dpr));
  const h = Math.max(1, Math.round(height * dpr));
  if (c.width !== w) c.width = w;
  if (c.height !== h) c.height = h;
}

/** Sizes `c` for the CSS size at `dpr` and returns a painter in CSS pixels
 * over it; null without a 2D context. */
export function canvasPainter(c: HTMLCanvasElement, width: number, height: number, dpr: number): CanvasPainter | null {
  sizeCanvas(c, width, height, dpr);
  c.style.width = `${width}px`;
  c.style.height = `${height}px`;
  const ctx = context2d(c);
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return new CanvasPainter(ctx, width, height);
}

/** The canvas's 2D context, or null (jsdom without a canvas implementation). */
export function context2d(c: HTMLCanvasElement): CanvasRenderingContext2D | null {
  try {
    return c.getContext('2d');
  } catch {
    return null;
  }
}
