// Screen geometry of the timeline: a label column on the left, the ruler on
// top, rows below it scrolled vertically, time along x in the plot area.
import { LANE_HEIGHT, type RowLayout } from '../../base/layout';
import { TimeScale, type TimeWindow } from '../../base/time_scale';
import type { HitGeometry } from './hit';

export const LABEL_WIDTH = 200;
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
  ) {
    this.scale = new TimeScale(window.from, window.to, LABEL_WIDTH, Math.max(1, width - LABEL_WIDTH));
  }

  get plotLeft(): number {
    return LABEL_WIDTH;
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
  /** Content range of rows on screen. */
  visibleContent(): { top: number; bottom: number } {
    return { top: this.scrollTop, bottom: this.scrollTop + this.rowsHeight };
  }
}
