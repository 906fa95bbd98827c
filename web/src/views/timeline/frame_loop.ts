// The timeline canvas's size and frames: the canvas fitted to its host (less
// the scrollbar) at the device's pixel ratio, one draw per animation frame
// however many times one is asked for, and the count and cost of the frames
// drawn (tests and benchmarks). TimelineView holds one and says what a frame
// draws.
import type { CanvasPainter } from '../../render/canvas_painter';
import { canvasPainter, devicePixelRatio } from '../common/fitted_canvas';

export class FrameLoop {
  /** the painter of the canvas at its size now; null before the first fit */
  painter: CanvasPainter | null = null;
  /** CSS px of the canvas */
  width = 0;
  height = 0;
  private dpr = 1;
  private frame = 0;
  private stopped = false;
  /** frames drawn, and the last one's ms */
  frames = 0;
  lastFrameMs = 0;
  private readonly observer: ResizeObserver;

  /**
   * `draw` paints a frame on `painter` (false: it skipped it); `resized` is
   * told the canvas got a new size (before that frame is drawn).
   */
  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly host: HTMLElement,
    private readonly scrollbarWidth: () => number,
    private readonly draw: (painter: CanvasPainter) => boolean,
    private readonly resized: () => void,
  ) {
    this.observer = new ResizeObserver(() => this.fit());
    this.observer.observe(host);
  }

  /** Whether the canvas has an area to draw on. */
  get sized(): boolean {
    return this.painter !== null && this.width > 0 && this.height > 0;
  }

  /** Draws at the next animation frame (once, however often asked). */
  request(): void {
    if (this.frame || this.stopped) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.drawNow();
    });
  }

  /** Draws now, timing the frame. */
  drawNow(): void {
    if (!this.sized) return;
    const t0 = performance.now();
    if (!this.draw(this.painter!)) return;
    this.frames++;
    this.lastFrameMs = performance.now() - t0;
  }

  /** Fits the canvas to the host; draws at once when its size or pixel ratio changed. */
  fit(): void {
    const rect = this.host.getBoundingClientRect();
    const w = Math.max(0, Math.floor(rect.width - this.scrollbarWidth()));
    const h = Math.max(0, Math.floor(rect.height));
    const dpr = devicePixelRatio();
    if (w === this.width && h === this.height && dpr === this.dpr && this.painter) return;
    this.width = w;
    this.height = h;
    this.dpr = dpr;
    this.painter = canvasPainter(this.canvas, w, h, dpr);
    this.resized();
    this.drawNow();
  }

  destroy(): void {
    this.stopped = true;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.observer.disconnect();
  }
}
