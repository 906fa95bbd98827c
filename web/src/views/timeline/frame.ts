// What a frame of the timeline paints and does after: the tile it needs
// asked for (or the frame skipped while a live snapshot's tile is held), the
// picture of the mode on screen gathered from the view's parts (paint.ts or
// the compact mode), then the test hooks, the hover tooltip, the first draw
// and the frames blinking needs. FrameLoop (frame_loop.ts) says when a frame
// is drawn; TimelineView holds one TimelineFrame and says what it reads.
import type { RowLayout } from '../../base/layout';
import type { Painter } from '../../render/painter';
import { context2d } from '../common/fitted_canvas';
import { paintArea, rowsCovered, type TimelineArea } from './area';
import type { CompactMode } from './compact_mode';
import type { FoldedStrips } from './folded_strips';
import type { TimelineGeometry } from './geometry';
import { TimelineHover } from './hover';
import type { TimelineInput } from './input';
import type { NormalTiles } from './normal_tiles';
import type { TimelineOptions } from './options';
import type { TimelineOverlays } from './overlays';
import { paintTimeline } from './paint';
import type { TimelineSelection } from './selection';

/** What a frame reads of the timeline. */
export interface TimelineFrameHost {
  options(): TimelineOptions;
  /** The geometry of the screen now. */
  geometry(): TimelineGeometry;
  /** The geometry of a picture `width` × `height` (export's or the screen's), the rows' scroll clamped to it. */
  geometryOf(width: number, height: number): TimelineGeometry;
  /** The normal mode's rows as laid out now (the compact mode counts those it covers). */
  layout(): RowLayout;
  /** The pinned thread rows. */
  pinned(): readonly number[];
  readonly tiles: NormalTiles;
  readonly compact: CompactMode;
  readonly selection: TimelineSelection;
  readonly overlays: TimelineOverlays;
  readonly areas: TimelineArea;
  readonly strips: FoldedStrips;
  readonly input: TimelineInput;
  requestDraw(): void;
}

export class TimelineFrame {
  private readonly hover: TimelineHover;
  private readonly textWidths = new Map<string, number>();
  private drawnOnce = false;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly host: TimelineFrameHost,
  ) {
    this.hover = new TimelineHover(canvas);
  }

  /** The hover tooltip's box, for the timeline's host. */
  get tooltip(): HTMLElement {
    return this.hover.element;
  }

  /** Whether a frame has drawn a tile (or the compact mode's picture). */
  get drawn(): boolean {
    return this.drawnOnce;
  }

  /** A frame on the canvas's `painter`; false when skipped. */
  draw(painter: Painter): boolean {
    const { tiles, compact, input } = this.host;
    const t0 = performance.now();
    const isCompact = compact.on;
    if (isCompact) compact.ensure(this.host.geometry());
    else tiles.ensure();
    const fresh = isCompact || tiles.fresh;
    if (tiles.skipFrame(fresh, t0)) return false; // the tile's arrival or the hold's timer draws
    try {
      this.paint(painter, true);
    } catch (e) {
      this.host.options().onError?.(e);
    }
    tiles.painted();
    const options = this.host.options();
    const g = this.host.geometry();
    this.markRows(g);
    compact.mark(this.canvas, g, () => rowsCovered(this.host.layout(), options.summary.processes, g.scrollTop, g.scrollTop + g.rowsHeight - 1).length);
    if (isCompact) this.hover.hide();
    else this.hover.update(g, tiles.current?.tile ?? null, input.dragging ? null : input.pointerAt, options.summary, (s) => options.style.visible(s));
    if ((isCompact ? compact.painted : tiles.current) && !this.drawnOnce) {
      this.drawnOnce = true;
      options.onFirstDraw?.();
    }
    // Blinking needs frames for as long as something is highlighted.
    if (this.host.overlays.blinking) this.host.requestDraw();
    return true;
  }

  /**
   * Paints the view on `p`: the screen's painter (`onScreen`: the canvas's
   * context and hooks are used) or export's.
   */
  paint(p: Painter, onScreen: boolean): void {
    const { compact, input, overlays, selection, areas } = this.host;
    const options = this.host.options();
    const { summary, style } = options;
    const g = this.host.geometryOf(p.width, p.height);
    const replayX = options.replay ? g.timeToX(options.replay.time()) : null;
    const cursorX = input.dragging ? null : input.pointer;
    if (compact.on) {
      const area = input.areaDrag ? compact.areaOf(g, input.areaDrag) : areas.area();
      const ctx = onScreen ? context2d(this.canvas) : null;
      return compact.paint(p, ctx, g, { range: input.range, cursorX, replayX, area, pointer: input.pointerAt });
    }
    paintTimeline(
      p,
      {
        g,
        tile: this.host.tiles.current?.tile ?? null,
        states: summary.states,
        style,
        counters: summary.counters,
        selected: selection.selected,
        message: selection.message,
        highlights: overlays.highlighted,
        blink: overlays.blink(performance.now()),
        criticalPath: overlays.criticalPath,
        anomalies: overlays.anomalies,
        waits: overlays.waitsFor(options.api, g, summary.threads.length, onScreen ? this.canvas : null),
        range: input.range,
        cursorX,
        replayX,
        pinned: new Set(this.host.pinned()),
        folded: (q) => this.host.strips.paint(q, g, summary.duration, style, summary.states.length),
      },
      this.textWidths,
    );
    const area = areas.shown(input.areaDrag);
    if (area) paintArea(p, g, area);
  }

  /**
   * Test hooks on the canvas: data-label-width, data-rows-count (thread rows
   * laid out, hidden ones in folded groups too), data-rows-order (the
   * first 64 of them, top to bottom) and data-tile-covers (1 when the tile
   * drawn spans the whole window, 0 while part of it waits for its tile).
   */
  private markRows(g: TimelineGeometry): void {
    const { compact, tiles } = this.host;
    const d = this.canvas.dataset;
    d['labelWidth'] = String(g.labelWidth);
    d['tileCovers'] = compact.on || tiles.covers(g.window) ? '1' : '0';
    const order = compact.order;
    d['rowsCount'] = String(order.length);
    d['rowsOrder'] = order.slice(0, 64).join(',');
  }
}
