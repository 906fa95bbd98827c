// A canvas that fills its parent's width, is sharp on high-DPI screens and
// repaints through a Painter when resized, so screen and export share paint().
import type { Painter } from '../../render/painter';
import { canvasPainter, devicePixelRatio, FittedCanvas } from './fitted_canvas';

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

export class ChartCanvas extends FittedCanvas {
  constructor(
    private readonly paint: (p: Painter) => void,
    private readonly options: ChartCanvasOptions,
  ) {
    super({ class: 'chart-canvas', 'data-testid': options.testid }, options.fallbackWidth ?? 600, options.height);
  }

  /** Appends the canvas to `parent`, sizes it to the parent and watches for resizes. */
  attach(parent: HTMLElement): void {
    this.attachTo(parent, (wider) => {
      if (!wider) return;
      this.options.onResize?.(this.cssWidth);
      this.redraw();
    });
    this.redraw();
  }

  setHeight(height: number): void {
    if (height === this.cssHeight) return;
    this.cssHeight = height;
    this.redraw();
  }

  /** Repaints now. */
  redraw(): void {
    if (this.options.heightFor) this.cssHeight = Math.max(1, Math.round(this.options.heightFor(this.cssWidth)));
    const dpr = devicePixelRatio();
    const painter = canvasPainter(this.canvas, this.cssWidth, this.cssHeight, dpr);
    if (!painter) return;
    painter.clear();
    this.paint(painter);
  }

  /** Repaints at the next animation frame (coalesces bursts such as hover). */
  scheduleRedraw(): void {
    this.atNextFrame(() => this.redraw());
  }
}
