// The timeline's compact mode (compact.ts says what it shows): whether it is
// on and at which row height, what its bands show (the dominant state or a
// statistic of their rows, compact_stats.ts), the /rowmap tiles it asks for
// (with the stats when bands hold several rows), and its frame.
// The screen is painted as an image (ImageData, put once per frame) over
// the plot; while tiles load, the last complete image is drawn under the new
// one, moved and scaled to the new window and scroll, so the plot is never
// blank. TimelineView holds one and hands it the geometry; exports (a
// painter without a canvas) get rectangles instead of the image.
import { rgbToHex } from '../../base/color';
import type { TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import type { AreaBox, AreaSelection } from './area';
import { AREA_BORDER, AREA_FILL } from './area';
import {
  CompactLayout,
  compactRows,
  planRowmaps,
  rowmapTiling,
  type CompactRowHeight,
} from './compact';
import {
  BACKGROUND,
  cellAt,
  composeImage,
  describeCell,
  packColor,
  paintCompactLabels,
  paintRuns,
  type CompactFrame,
} from './compact_paint';
import type { BandStat } from './compact_stats';
import { RowmapTiles, type RowmapFetcher } from './compact_tiles';
import { RULER_HEIGHT, type TimelineGeometry } from './geometry';
import type { TimelineOptions } from './options';
import type { RowScroll } from './scroll';
import { FONT, paintRangeBox, paintTimeline, REPLAY_COLOR, type PaintModel } from './paint';

/** What paintTimeline draws under the bands: the ruler and an empty label column. */
const NO_ROWS: Omit<PaintModel, 'g' | 'style' | 'range'> = {
  tile: null, states: [], counters: [], selected: null, highlights: [], blink: 0,
  criticalPath: null, anomalies: null, cursorX: null,
};

/** What the compact mode reads of the timeline's options. */
export type CompactOptions = Pick<TimelineOptions, 'api' | 'summary' | 'style' | 'onError'>;

/** What is drawn over the compact plot: the same as in the normal mode. */
export interface CompactOverlays {
  range: { from: number; to: number } | null;
  cursorX: number | null;
  replayX: number | null;
  area: AreaSelection | null;
  /** the pointer (CSS px in the canvas), for the cell's words */
  pointer: { x: number; y: number } | null;
}

/** The last complete image and where it was: window, first row position at its top, rows per px. */
interface Snapshot {
  canvas: HTMLCanvasElement;
  from: number;
  to: number;
  rowTop: number;
  rowsPerPx: number;
  width: number;
  height: number;
}

export class CompactMode {
  private onValue = false;
  private heightValue: CompactRowHeight = 'fit';
  private statValue: BandStat = 'dominant';
  private rows: number[];
  private layoutMemo: CompactLayout | null = null;
  readonly tiles: RowmapTiles;
  private readonly listeners = new Set<() => void>();
  private image: HTMLCanvasElement | null = null;
  private snapshot: Snapshot | null = null;
  private data: ImageData | null = null;
  /** whether a frame was painted complete (the first draw of a page opened in compact mode) */
  painted = false;
  /** the words for the cell under the pointer, '' when none */
  hover = '';
  private readonly textWidths = new Map<string, number>();

  /** `requestDraw` when a tile came or the mode changed, `changed` when the mode or row height did. */
  constructor(
    private readonly options: () => CompactOptions,
    private readonly requestDraw: () => void,
    private readonly changed: () => void,
  ) {
    this.rows = compactRows(options().summary);
    this.tiles = new RowmapTiles(this.fetcher(), () => requestDraw(), (e) => options().onError?.(e));
  }

  /** How a /rowmap request is asked of the server. */
  fetcher(): RowmapFetcher {
    return (r) => {
      const stats = r.stats ? { stats: true } : {};
      return this.options().api.get('rowmap', { rows: r.rows, from: r.from, to: r.to, width: r.width, group: r.group, ...stats });
    };
  }

  /** The row height, or null when the mode is off. */
  get mode(): CompactRowHeight | null {
    return this.onValue ? this.heightValue : null;
  }

  get on(): boolean {
    return this.onValue;
  }
  get rowHeight(): CompactRowHeight {
    return this.heightValue;
  }

  /** What the bands show: their dominant state, or the min, median or max share of their rows in it. */
  get stat(): BandStat {
    return this.statValue;
  }

  /** Sets what the bands show (tiles are not asked again: they hold every statistic). */
  setStat(stat: BandStat): void {
    if (stat === this.statValue) return;
    this.statValue = stat;
    for (const l of [...this.listeners]) l();
    this.changed();
    this.requestDraw();
  }

  /** Turns the mode on or off and sets the row height (unchanged when absent). */
  set(on: boolean, rowHeight: CompactRowHeight = this.heightValue): void {
    if (on === this.onValue && rowHeight === this.heightValue) return;
    this.onValue = on;
    this.heightValue = rowHeight;
    for (const l of [...this.listeners]) l();
    this.changed();
    this.requestDraw();
  }

  /** Sets the mode (null: off) and `scroll`'s rows: the normal mode's scroll is kept meanwhile. */
  switch(rowHeight: CompactRowHeight | null, scroll: RowScroll): void {
    const was = this.onValue;
    if (!was && rowHeight !== null) this.normalScroll = scroll.top;
    this.set(rowHeight !== null, rowHeight ?? undefined);
    scroll.update();
    if (was && rowHeight === null) scroll.set(this.normalScroll);
  }
  private normalScroll = 0;

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A live trace's new snapshot: new rows, every tile asked again. */
  setSummary(summary: TraceSummary): void {
    this.rows = compactRows(summary);
    this.layoutMemo = null;
    this.tiles.invalidate();
  }

  /** The thread rows the bands hold, top to bottom (also while the mode is off). */
  get order(): readonly number[] {
    return this.rows;
  }

  /** The rows the bands hold, in order (the timeline's row view); null: every row as recorded. */
  setRows(rows: readonly number[] | null): void {
    const next = rows ? [...rows] : compactRows(this.options().summary);
    if (next.length === this.rows.length && next.every((r, i) => r === this.rows[i])) return;
    this.rows = next;
    this.layoutMemo = null;
    this.snapshot = null; // its bands were other rows
    this.tiles.invalidate();
    this.requestDraw();
  }

  /** The bands over a rows area `rowsHeight` CSS px high. */
  layout(rowsHeight: number): CompactLayout {
    const m = this.layoutMemo;
    if (m && m.rows === this.rows && m.rowHeight === this.heightValue && this.memoHeight === rowsHeight) return m;
    this.memoHeight = rowsHeight;
    return (this.layoutMemo = new CompactLayout(this.rows, rowsHeight, this.heightValue));
  }
  private memoHeight = -1;

  /** Asks for the tiles of what `g` shows. */
  ensure(g: TimelineGeometry): void {
    const layout = this.layout(g.rowsHeight);
    const { top, bottom } = g.visibleContent();
    // Bands of one row have no spread: their tiles go without stats.
    this.tiles.want(planRowmaps(layout, g.window, g.plotWidth, this.options().summary.duration, top, bottom, layout.group > 1));
  }

  /** The frame of `g`: its plot in whole pixels, the tiling, the colours. */
  frame(g: TimelineGeometry): CompactFrame {
    const layout = this.layout(g.rowsHeight);
    const style = this.options().style;
    const n = this.options().summary.states.length;
    const colors = new Uint32Array(n);
    for (let i = 0; i < n; i++) colors[i] = style.visible(i) ? packColor(style.color(i)) : BACKGROUND;
    return {
      layout,
      window: g.window,
      width: Math.max(1, Math.floor(g.plotWidth)),
      height: Math.max(1, Math.floor(g.rowsHeight)),
      scrollTop: g.scrollTop,
      duration: this.options().summary.duration,
      ...rowmapTiling(g.window, g.plotWidth),
      tile: (key) => this.tiles.get(key),
      colors,
      stat: this.statValue,
    };
  }

  /**
   * Paints the compact plot, labels and overlays over what paintTimeline
   * drew without rows (ruler, label column): as an image on `ctx` (the
   * screen's), or as rectangles on `p` when there is none (exports).
   */
  paint(p: Painter, ctx: CanvasRenderingContext2D | null, g: TimelineGeometry, o: CompactOverlays): void {
    const style = this.options().style;
    paintTimeline(p, { ...NO_ROWS, g, style, range: o.range }, this.textWidths);
    const f = this.frame(g);
    const left = g.plotLeft;
    if (ctx) {
      this.paintImage(ctx, f, left);
    } else {
      paintRuns(p, f, left, RULER_HEIGHT, (c) => rgbToHex(c & 255, (c >>> 8) & 255, (c >>> 16) & 255));
    }
    const H = g.height;
    p.save();
    p.clip(left, RULER_HEIGHT, g.plotWidth, g.rowsHeight);
    if (o.area) this.paintArea(p, g, f.layout, o.area);
    if (o.range) paintRangeBox(p, g, o.range); // over the image, which covered paintTimeline's
    if (o.cursorX !== null && o.cursorX >= left) p.line(o.cursorX, RULER_HEIGHT, o.cursorX, H, 'rgba(200,0,0,0.6)', 1);
    if (o.replayX !== null && o.replayX >= left) p.line(o.replayX, RULER_HEIGHT, o.replayX, H, REPLAY_COLOR, 2);
    p.restore();
    paintCompactLabels(p, f.layout, this.options().summary, g.scrollTop, H, g.labelWidth);
    this.hover = o.pointer ? this.describe(g, f, o.pointer.x, o.pointer.y) : '';
    if (this.hover && o.pointer) this.paintHover(p, g, o.pointer, this.hover);
  }

  /** The words for the cell at canvas (x, y); '' outside the bands. */
  describe(g: TimelineGeometry, f: CompactFrame, x: number, y: number): string {
    const band = f.layout.bandAt(g.toContentY(y));
    if (x < g.plotLeft || y < RULER_HEIGHT || band < 0) return '';
    return describeCell(this.options().summary, f.layout, band, cellAt(f, Math.floor(x - g.plotLeft), band));
  }

  /** The first thread row of the band at canvas y; -1 when none. */
  rowAt(g: TimelineGeometry, y: number): number {
    const layout = this.layout(g.rowsHeight);
    const band = y >= RULER_HEIGHT ? layout.bandAt(g.toContentY(y)) : -1;
    return band < 0 ? -1 : layout.rows[layout.bandRows(band).first]!;
  }

  /** The area a ctrl-dragged box selects: its times, the rows of the bands it met (ascending). */
  areaOf(g: TimelineGeometry, box: AreaBox): AreaSelection | null {
    const layout = this.layout(g.rowsHeight);
    // From the band holding the box's top to the one holding its bottom.
    const bottom = (Math.floor(Math.max(box.top, box.bottom) / layout.bandHeight) + 1) * layout.bandHeight;
    const { first, end } = layout.bandsIn(Math.min(box.top, box.bottom), bottom);
    const rows = layout.rowsOfBands(first, end).sort((a, b) => a - b);
    const from = Math.min(box.from, box.to);
    const to = Math.max(box.from, box.to);
    return rows.length > 0 && to > from ? { from, to, rows } : null;
  }

  /**
   * The canvas's test hooks: data-compact, data-rows-group, and
   * data-rows-shown, the thread rows the screen shows (of the bands on
   * screen; in the normal mode `normalShown()`); in compact mode also
   * data-rows-first (the first of them), data-rowmap-pending (requests not
   * answered yet), data-hover (the words for the cell under the pointer)
   * and data-band-stat (what the bands show: dominant, min, median, max).
   */
  mark(canvas: HTMLElement, g: TimelineGeometry, normalShown: () => number): void {
    const d = canvas.dataset;
    const layout = this.layout(g.rowsHeight);
    d['rowsShown'] = String(this.on ? this.rowsShown(g) : normalShown());
    d['rowsGroup'] = String(this.on ? layout.group : 1);
    for (const k of ['compact', 'rowsFirst', 'rowmapPending', 'hover', 'bandStat']) delete d[k];
    if (!this.on) return;
    d['compact'] = '1';
    const first = layout.bandsIn(g.scrollTop, g.scrollTop + g.rowsHeight).first;
    d['rowsFirst'] = String(layout.rows[first * layout.group] ?? -1);
    d['rowmapPending'] = String(this.tiles.pending);
    d['hover'] = this.hover;
    d['bandStat'] = this.statValue;
  }

  /** How many thread rows the bands on screen hold. */
  rowsShown(g: TimelineGeometry): number {
    const layout = this.layout(g.rowsHeight);
    const { first, end } = layout.bandsIn(g.scrollTop, g.scrollTop + g.rowsHeight);
    return Math.max(0, Math.min(this.rows.length, end * layout.group) - first * layout.group);
  }

  private paintImage(ctx: CanvasRenderingContext2D, f: CompactFrame, left: number): void {
    const img = (this.image ??= document.createElement('canvas'));
    if (img.width !== f.width || img.height !== f.height) {
      img.width = f.width;
      img.height = f.height;
    }
    const ictx = img.getContext('2d');
    if (!ictx) return;
    // One pixel buffer, kept while the plot keeps its size (1600 × 1000 px are 6 MB).
    if (this.data?.width !== f.width || this.data.height !== f.height) this.data = ictx.createImageData(f.width, f.height);
    const data = this.data;
    const complete = composeImage(f, new Uint32Array(data.data.buffer));
    ictx.putImageData(data, 0, 0);
    const pxPerRow = f.layout.bandHeight / f.layout.group;
    const rowTop = f.scrollTop / pxPerRow;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, RULER_HEIGHT, f.width, f.height);
    ctx.clip();
    ctx.imageSmoothingEnabled = false;
    const s = this.snapshot;
    if (!complete && s) {
      // The last complete image where its times and rows are now, under the tiles that came.
      const res = (f.window.to - f.window.from) / f.width;
      const dx = left + (s.from - f.window.from) / res;
      const dy = RULER_HEIGHT + (s.rowTop - rowTop) * pxPerRow;
      ctx.drawImage(s.canvas, dx, dy, (s.to - s.from) / res, s.height * s.rowsPerPx * pxPerRow);
    }
    ctx.drawImage(img, left, RULER_HEIGHT);
    ctx.restore();
    if (complete) {
      // Keep it: the image canvas becomes the snapshot, the old snapshot's the next image.
      this.image = s?.canvas ?? null;
      this.snapshot = { canvas: img, from: f.window.from, to: f.window.to, rowTop, rowsPerPx: 1 / pxPerRow, width: f.width, height: f.height };
      this.painted = true;
    }
  }

  private paintArea(p: Painter, g: TimelineGeometry, layout: CompactLayout, area: AreaSelection): void {
    let lo = Infinity;
    let hi = -Infinity;
    for (const r of area.rows) {
      const b = layout.bandOfRow(r);
      if (b < 0) continue;
      lo = Math.min(lo, b);
      hi = Math.max(hi, b);
    }
    if (hi < lo) return;
    const x0 = g.timeToX(area.from);
    const w = Math.max(1, g.timeToX(area.to) - x0);
    const y0 = g.toScreenY(layout.bandTop(lo));
    const h = layout.bandTop(hi + 1) - layout.bandTop(lo);
    p.fillRect(x0, y0, w, h, AREA_FILL);
    p.strokeRect(x0, y0, w, h, AREA_BORDER, 2);
  }

  private paintHover(p: Painter, g: TimelineGeometry, at: { x: number; y: number }, text: string): void {
    const tw = p.measureText(text, FONT) + 10;
    const x = Math.min(Math.max(at.x + 12, g.plotLeft), g.width - tw);
    const y = Math.min(at.y + 14, g.height - 18);
    p.fillRect(x, y, tw, 17, 'rgba(30,30,30,0.85)');
    p.text(x + 5, y + 9, text, { color: '#ffffff', font: FONT, baseline: 'middle' });
  }
}
