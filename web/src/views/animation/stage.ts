// The animation's canvas: fills its parent's width, sharp on high-DPI screens,
// with a cached background (drawn through the Painter only when the layout,
// size or colours change) copied under each frame, and at most one frame per
// animation frame however often something asks for a redraw.
import { CanvasPainter } from '../../render/canvas_painter';
import type { Painter } from '../../render/painter';
import { el } from '../common/dom';

export interface StageCallbacks {
  /** The CSS height for a CSS width. */
  heightFor(width: number): number;
  /** Paints the background (white already filled). */
  background(p: Painter): void;
  /** Draws one frame over the background; the context is in CSS pixels. */
  frame(ctx: CanvasRenderingContext2D, width: number, height: number): void;
  /** After the size changed (before the next frame). */
  resized(width: number, height: number): void;
}

export class Stage {
  readonly canvas: HTMLCanvasElement;
  private readonly bg: HTMLCanvasElement;
  private observer: ResizeObserver | null = null;
  private raf: number | null = null;
  private bgDirty = true;
  private cssWidth: number;
  private cssHeight = 1;
  private dpr = 1;
  /** frames drawn so far, and the milliseconds spent drawing them */
  frames = 0;
  drawMs = 0;

  constructor(
    private readonly cb: StageCallbacks,
    testid: string,
    fallbackWidth = 800,
  ) {
    this.canvas = el('canvas', { 'data-testid': testid });
    this.canvas.style.display = 'block';
    this.bg = document.createElement('canvas');
    this.cssWidth = fallbackWidth;
  }

  /** Appends the canvas to `parent`; redraws when its width or `watch`'s size changes. */
  attach(parent: HTMLElement, watch?: HTMLElement): void {
    parent.append(this.canvas);
    this.measure(parent);
    if (typeof ResizeObserver !== 'undefined') {
      this.observer = new ResizeObserver(() => {
        const wider = this.measure(parent);
        if (wider || Math.round(this.cb.heightFor(this.cssWidth)) !== this.cssHeight) this.relayout();
      });
      this.observer.observe(parent);
      if (watch) this.observer.observe(watch);
    }
    this.relayout();
  }

  detach(): void {
    this.observer?.disconnect();
    this.observer = null;
    if (this.raf !== null && typeof cancelAnimationFrame !== 'undefined') cancelAnimationFrame(this.raf);
    this.raf = null;
    this.canvas.remove();
  }

  get width(): number {
    return this.cssWidth;
  }

  get height(): number {
    return this.cssHeight;
  }

  /** The height or layout may have changed: resize, new background, redraw. */
  relayout(): void {
    this.cssHeight = Math.max(1, Math.round(this.cb.heightFor(this.cssWidth)));
    this.dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
    const w = Math.max(1, Math.round(this.cssWidth * this.dpr));
    const h = Math.max(1, Math.round(this.cssHeight * this.dpr));
    for (const c of [this.canvas, this.bg]) {
      if (c.width !== w) c.width = w;
      if (c.height !== h) c.height = h;
    }
    this.canvas.style.width = `${this.cssWidth}px`;
    this.canvas.style.height = `${this.cssHeight}px`;
    this.cb.resized(this.cssWidth, this.cssHeight);
    this.bgDirty = true;
    this.schedule();
  }

  /** The background must be painted again (colours or legend changed). */
  invalidateBackground(): void {
    this.bgDirty = true;
    this.schedule();
  }

  /** Draws at the next animation frame (once, however often called before it). */
  schedule(): void {
    if (this.raf !== null) return;
    if (typeof requestAnimationFrame === 'undefined') {
      this.draw();
      return;
    }
    this.raf = requestAnimationFrame(() => {
      this.raf = null;
      this.draw();
    });
  }

  /** Draws now. */
  draw(): void {
    const ctx = context(this.canvas);
    if (!ctx) return;
    const start = performance.now();
    if (this.bgDirty) {
      const bctx = context(this.bg);
      if (!bctx) return;
      bctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
      const p = new CanvasPainter(bctx, this.cssWidth, this.cssHeight);
      p.clear('#ffffff');
      this.cb.background(p);
      this.bgDirty = false;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.bg, 0, 0);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    this.cb.frame(ctx, this.cssWidth, this.cssHeight);
    this.frames++;
    this.drawMs += performance.now() - start;
  }

  /** Position of a mouse event in CSS pixels of the canvas. */
  eventPos(ev: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  private measure(parent: HTMLElement): boolean {
    const w = Math.floor(parent.clientWidth);
    if (w > 0 && w !== this.cssWidth) {
      this.cssWidth = w;
      return true;
    }
    return false;
  }
}

function context(c: HTMLCanvasElement): CanvasRenderingContext2D | null {
  try {
    return c.getContext('2d');
  } catch {
    return null; // jsdom without a canvas implementation
  }
}
