// The vertical scrolling of the timeline's rows. The canvas only ever shows
// the rows on screen, so the scrollbar is a narrow native scroller beside it
// holding an empty block as tall as all the rows: the browser then draws the
// bar and handles dragging it, and the position is read back from it. The
// position is kept here too, clamped so the last row stays at the bottom.
import { RULER_HEIGHT } from './geometry';

/** What the scrolling needs of the timeline. */
export interface RowScrollHost {
  /** Height (CSS px) of all rows as laid out now. */
  rowsHeight(): number;
  /** Height (CSS px) of the canvas, ruler included. */
  viewHeight(): number;
  /** The rows moved: draw again. */
  requestDraw(): void;
}

export class RowScroll {
  /** The scroller to put beside the canvas. */
  readonly element: HTMLElement;
  private readonly spacer: HTMLElement;
  private value = 0;
  private readonly onScroll = (): void => {
    const s = this.clamp(this.element.scrollTop);
    if (s !== this.value) {
      this.value = s;
      this.host.requestDraw();
    }
  };

  constructor(private readonly host: RowScrollHost) {
    this.element = document.createElement('div');
    this.element.className = 'timeline-scroll';
    this.spacer = document.createElement('div');
    this.element.appendChild(this.spacer);
    this.element.addEventListener('scroll', this.onScroll);
  }

  /** Content y (CSS px) at the ruler's bottom. */
  get top(): number {
    return this.value;
  }

  /** Width (CSS px) the scrollbar takes from the canvas. */
  get width(): number {
    return this.element.offsetWidth || 0;
  }

  /** `s` kept within 0 and the scroll that puts the last row at the bottom of a canvas `height` high. */
  clamp(s: number, height = this.host.viewHeight()): number {
    const max = Math.max(0, this.host.rowsHeight() - Math.max(0, height - RULER_HEIGHT));
    return Math.min(Math.max(0, s), max);
  }

  /** Scrolls so that content y `s` is at the ruler's bottom (clamped). */
  set(s: number): void {
    const next = this.clamp(s);
    if (next === this.value) return;
    this.value = next;
    // The scroller may hold its position rounded to pixels: leave it when it is within one.
    if (Math.abs(this.element.scrollTop - next) >= 1) this.element.scrollTop = next;
    this.host.requestDraw();
  }

  /** The rows or the canvas changed size: resize the scrollbar and keep the position within it. */
  update(): void {
    this.spacer.style.height = `${this.host.rowsHeight() + RULER_HEIGHT}px`;
    this.value = this.clamp(this.value);
    this.element.scrollTop = this.value;
  }

  destroy(): void {
    this.element.removeEventListener('scroll', this.onScroll);
  }
}
