// The animation's canvas: fills its parent's width, sharp on high-DPI screens,
// with a cached background (drawn through the Painter only when the layout,
// size or colours change) copied under each frame, and at most one frame per
// animation frame however often something asks for a redraw.
import { CanvasPainter } from '../../render/canvas_painter';
import type { Painter } from '../../render/painter';
import { context2d, devicePixelRatio, FittedCanvas, sizeCanvas } from '../common/fitted_canvas';

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

export class Stage extends FittedCanvas {
  private readonly bg: HTMLCanvasElement;
  private bgDirty = true;
  private dpr = 1;
  /** frames drawn so far, and the milliseconds spent drawing them */
  frames = 0;
  drawMs = 0;

  constructor(
    private readonly cb: StageCallbacks,
    testid: string,
    fallbackWidth = 800,
  ) {
    super({ 'data-testid': testid }, fallbackWidth, 1);
    this.bg = document.createElement('canvas');
  }

  /** Appends the canvas to `parent`; redraws when its width or `watch`'s size changes. */
  attach(parent: HTMLElement, watch?: HTMLElement): void {
    this.attachTo(
      parent,
      (wider) => {
        if (wider || Math.round(this.cb.heightFor(this.cssWidth)) !== this.cssHeight) this.relayout();
      },
      watch,
    );
    this.relayout();
  }

  /** The height or layout may have changed: resize, new background, redraw. */
  relayout(): void {
    this.cssHeight = Math.max(1, Math.round(this.cb.heightFor(this.cssWidth)));
    this.dpr = devicePixelRatio();
    for (const c of [this.canvas, this.bg]) sizeCanvas(c, this.cssWidth, this.cssHeight, this.dpr);
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
    this.atNextFrame(() => this.draw());
  }

  /** Draws now. */
  draw(): void {
    const ctx = context2d(this.canvas);
    if (!ctx) return;
    const start = performance.now();
    if (this.bgDirty) {
      const bctx = context2d(this.bg);
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
}
