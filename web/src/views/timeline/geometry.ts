// Screen geometry of the timeline: a label column on the left, the ruler on
// top, rows below it scrolled vertically, time along x in the plot area.
import { LANE_HEIGHT, type RowLayout } from '../../base/layout';
import { TimeScale, type TimeWindow } from '../../base/time_scale';
import type { HitGeometry } from './hit';

/** The label column's width unless the user dragged it (URL `labels`), and its bounds. */
export const LABEL_WIDTH = 200;
export const MIN_LABEL_WIDTH = 80;
export const MAX_LABEL_WIDTH = 600;

/** `w` rounded into [MIN_LABEL_WIDTH, MAX_LABEL_WIDTH]; LABEL_WIDTH when not a number. */
export function clampLabelWidth(w: number): number {
  if (!Number.isFinite(w)) return LABEL_WIDTH;
  return Math.round(Math.min(MAX_LABEL_WIDTH, Math.max(MIN_LABEL_WIDTH, w)));
}
export const RULER_HEIGHT = 24;

export class TimelineGeometry implements HitGeometry {
  readonly scale: TimeScale;

  constructor(
    readonly window: TimeWindow,
    /** whole canvas, CSS px */
    readonly width: number,
    readonly height: number,
    readonly layout: RowLayout,
    readonly scrollTop: number,
    /** the label column's width, CSS px: the plot starts there */
    readonly labelWidth: number = LABEL_WIDTH,
  ) {
    this.scale = new TimeScale(window.from, window.to, labelWidth, Math.max(1, width - labelWidth));
  }

  get plotLeft(): number {
    return this.labelWidth;
  }
  get plotWidth(): number {
    return this.scale.width;
  }
  /** Height of the rows area below the ruler. */
  get rowsHeight(): number {
    return Math.max(0, this.height - RULER_HEIGHT);
  }
  get maxScroll(): number {
    return Math.max(0, this.layout.height - this.rowsHeight);
  }

  timeToX(t: number): number {
    return this.scale.timeToX(t);
  }
  xToTime(x: number): number {
    return this.scale.xToTime(x);
  }
  /** content y → screen y */
  toScreenY(contentY: number): number {
    return RULER_HEIGHT + contentY - this.scrollTop;
  }
  /** screen y → content y */
  toContentY(screenY: number): number {
    return screenY - RULER_HEIGHT + this.scrollTop;
  }
  laneTop(row: number, depth: number): number {
    return this.toScreenY(this.layout.laneTop(row, depth));
  }
  rowAnchorY(row: number): number {
    return this.toScreenY(this.layout.rowAnchorY(row));
  }
  rowTop(row: number): number {
    return this.toScreenY(this.layout.rowTop(row));
  }
  get laneHeight(): number {
    return LANE_HEIGHT;
  }
  /** Screen y of the middle of `row`'s lane `depth`. */
  laneMiddle(row: number, depth: number): number {
    return this.laneTop(row, depth) + LANE_HEIGHT / 2;
  }
  /** Content range of rows on screen. */
  visibleContent(): { top: number; bottom: number } {
    return { top: this.scrollTop, bottom: this.scrollTop + this.rowsHeight };
  }
}
