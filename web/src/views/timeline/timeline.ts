// The timeline view: rows of nested state bars, arrows, instants and counters
// drawn from server tiles, with zoom, pan, selection, search jumps, blinking
// highlights and overlays. Implements TimelineControl for the other views.
// Input is TimelineInput (input.ts; it changes the view only through the
// methods bindInput() hands it); what is selected and the details shown,
// TimelineSelection (selection.ts); frames waiting for a live snapshot's tile
// are skipped by TileHold (hold.ts, through normal_tiles.ts, which loads the
// normal mode's tiles); highlights and overlays are
// TimelineOverlays (overlays.ts); rows' scrolling is RowScroll (scroll.ts);
// options and status are in options.ts, the ctrl-drag area in area.ts, the
// compact mode (every row a strip, from /rowmap) in compact_mode.ts; which
// rows are laid out where (folded groups, sort, filter, pins, empty rows)
// and scrolling to a row, timeline_rows.ts; what a frame paints and does
// after (test hooks, the hover tooltip of hover.ts), frame.ts.
import { RowLayout } from '../../base/layout';
import { windowAround, type TimeWindow } from '../../base/time_scale';
import { TraceLinks } from '../../engine/links';
import type { Tile } from '../../engine/tile';
import type { SliceRef, TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import type { TimelineControl, TimelineTarget } from '../context';
import { TimelineArea, type AreaSelection, type AreaSource } from './area';
import type { CompactRowHeight } from './compact';
import { CompactMode } from './compact_mode';
import { MessageFlow, windowShowing } from './flow';
import { followWindow } from './follow';
import { FoldedStrips } from './folded_strips';
import { TimelineFrame } from './frame';
import { FrameLoop } from './frame_loop';
import { clampLabelWidth, LABEL_WIDTH, RULER_HEIGHT, TimelineGeometry } from './geometry';
import { TimelineInput } from './input';
import type { TimelineOptions } from './options';
import { TimelineOverlays } from './overlays';
import { NormalTiles } from './normal_tiles';
import type { RowOrder } from './row_order';
import { RowScroll } from './scroll';
import { TimelineSelection, clickAction } from './selection';
import { TimelineRows } from './timeline_rows';
import { WindowState } from './window_state';

export type { TimelineOptions, TimelineStatus } from './options';

const EMPTY = new RowLayout({ processes: [], threads: [], counters: [] });

export class TimelineView implements TimelineControl, AreaSource {
  readonly root: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly scroll: RowScroll;

  /** the time window shown */
  private readonly win: WindowState;
  /** the canvas's size and frames */
  private readonly screen: FrameLoop;
  /** the rows laid out (folded groups, row view) and scrolling to one */
  private readonly laidOut: TimelineRows;
  /** the normal mode's /tile loading and live hold */
  private readonly tiles: NormalTiles;
  /** what a frame paints, and the hooks and tooltip after it */
  private readonly frame: TimelineFrame;
  private readonly cleanups: Array<() => void> = [];

  /** the selected slice or message; select through it (it asks for the details) */
  readonly selection: TimelineSelection;
  private readonly overlays: TimelineOverlays;
  private readonly areas = new TimelineArea(() => this.laidOut.layout, () => this.options.summary.processes);
  private readonly input: TimelineInput;
  /** message ends, a slice's messages, waits and path, asked of the server */
  readonly links: TraceLinks;
  /** the flow keys: "]" / "[" step(dir), "p" partner(); show(message) */
  readonly flow: MessageFlow;
  /** the compact mode: its row height (null: off), its /rowmap tiles */
  readonly compact: CompactMode;
  /** what the folded groups do, drawn on their headers */
  private readonly strips: FoldedStrips;
  /** which rows are shown, in what order: its view, set() and togglePin() */
  get rows(): RowOrder {
    return this.laidOut.order;
  }
  /** the label column's width, CSS px */
  private labels = LABEL_WIDTH;
  private readonly viewListeners = new Set<() => void>();

  constructor(
    host: HTMLElement,
    private options: TimelineOptions,
  ) {
    this.root = host;
    host.classList.add('timeline');
    host.tabIndex = 0;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'timeline-canvas';
    this.scroll = new RowScroll({
      rowsHeight: () => (this.compact?.on ? this.compact.layout(this.screen.height - RULER_HEIGHT).height : this.laidOut.layout.height),
      viewHeight: () => this.screen.height,
      requestDraw: () => this.requestDraw(),
    });
    host.append(this.canvas, this.scroll.element);

    this.win = new WindowState(
      () => this.options.summary.duration,
      (next) => {
        this.laidOut.windowMoved(next); // empty rows hidden follow the window
        this.emitStatus();
        this.requestDraw();
      },
    );
    this.tiles = new NormalTiles({
      api: () => this.options.api,
      summary: () => this.options.summary,
      geometry: () => this.geometry(),
      layout: () => this.laidOut.layout,
      window: () => this.win.value,
      status: (loading) => this.emitStatus(loading),
      requestDraw: () => this.requestDraw(),
      onError: (e) => this.options.onError?.(e),
    });
    this.unsubscribeStyle = options.style.onChange(() => this.requestDraw());
    if (options.replay) this.cleanups.push(options.replay.onMove((t) => this.followReplay(t)));
    this.overlays = new TimelineOverlays({
      fetchCriticalPath: () => this.options.api.get('critical_path', {}),
      fetchAnomalies: () => this.options.api.get('anomalies', {}),
      requestDraw: () => this.requestDraw(),
    });
    this.links = new TraceLinks(options.api, () => this.options.summary.duration);
    this.selection = new TimelineSelection({
      fetchDetails: (kind, id) => this.options.api.get('details', { kind, id }),
      fetchMessage: (id, row, time) => this.links.message(id, row, time),
      showDetails: (d, loading) => this.options.onDetails?.(d, loading),
      statusChanged: () => this.emitStatus(),
      requestDraw: () => this.requestDraw(),
    });
    this.flow = new MessageFlow(this.selection, this.links, this);
    this.compact = new CompactMode(() => this.options, () => this.requestDraw(), () => this.emitStatus());
    this.laidOut = new TimelineRows({
      api: () => this.options.api,
      summary: () => this.options.summary,
      window: () => this.win.value,
      geometry: () => this.geometry(),
      compact: this.compact,
      scroll: this.scroll,
      leaveCompact: () => this.setCompactMode(null),
      laidOut: () => this.requestDraw(),
      viewChanged: () => this.viewChanged(),
      onError: (e) => this.options.onError?.(e),
    });
    this.strips = new FoldedStrips(this.compact.fetcher(), () => this.requestDraw(), (e) => this.options.onError?.(e));
    this.input = this.bindInput();
    this.frame = new TimelineFrame(this.canvas, {
      options: () => this.options,
      geometry: () => this.geometry(),
      geometryOf: (width, height) => this.geometryAt(width, height, this.scroll.clamp(this.scroll.top, height)),
      layout: () => this.laidOut.layout,
      pinned: () => this.rows.view.pinned,
      tiles: this.tiles,
      compact: this.compact,
      selection: this.selection,
      overlays: this.overlays,
      areas: this.areas,
      strips: this.strips,
      input: this.input,
      requestDraw: () => this.requestDraw(),
    });
    host.append(this.frame.tooltip);
    this.screen = new FrameLoop(this.canvas, host, () => this.scroll.width, (p) => this.frame.draw(p), () => this.scroll.update());
    this.cleanups.push(() => this.screen.destroy(), () => this.scroll.destroy());
    this.screen.fit();
  }

  private readonly unsubscribeStyle: () => void;

  // ---- TimelineControl -------------------------------------------------

  window(): { from: number; to: number } {
    return { ...this.win.value };
  }

  onWindowChange(listener: (from: number, to: number) => void): () => void {
    return this.win.onChange(listener);
  }

  jumpTo(target: TimelineTarget): void {
    const span = Math.max(target.end - target.begin, 1000);
    const mid = (target.begin + target.end) / 2;
    this.setWindow(windowAround(mid - span / 2, mid + span / 2, 0.25));
    this.laidOut.reveal(target.row);
    if (target.slice !== undefined && target.slice >= 0) {
      this.selection.selectSlice(target.slice, { row: target.row, begin: target.begin, end: target.end, depth: 0 });
    }
  }

  highlight(slices: readonly SliceRef[]): void {
    this.overlays.highlight(slices);
  }

  setOverlay(overlay: 'critical-path' | 'anomalies' | 'waits', on: boolean): void {
    this.overlays.set(overlay, on);
  }

  /** The area selected with ctrl-drag (time range and thread rows); null when none. */
  area(): AreaSelection | null {
    return this.areas.area();
  }
  onAreaChange(listener: (area: AreaSelection | null) => void): () => void {
    return this.areas.onAreaChange(listener);
  }

  // ---- for the shell and tests -----------------------------------------

  highlighted(): number[] {
    return this.overlays.highlighted.map((s) => s.id);
  }
  selected(): number {
    return this.selection.selected?.id ?? -1;
  }
  /** Scrolls `row` into view and pans (keeping the zoom) so that `time` is shown. */
  reveal(row: number, time: number): void {
    this.setWindow(windowShowing(this.win.value, time));
    this.laidOut.reveal(row);
  }

  /** The folded host and process groups (their keys). */
  collapsedGroups(): string[] {
    return this.laidOut.collapsed();
  }

  /** Folds exactly the groups `keys`. */
  setCollapsed(keys: readonly string[]): void {
    this.laidOut.setCollapsed(keys);
    this.emitStatus();
  }
  /** The label column's width, CSS px (the plot starts there). */
  labelWidth(): number {
    return this.labels;
  }
  /** Sets the label column's width, clamped to MIN_LABEL_WIDTH..MAX_LABEL_WIDTH. */
  setLabelWidth(width: number): void {
    const w = clampLabelWidth(width);
    if (w === this.labels) return;
    this.labels = w;
    this.viewChanged();
    this.requestDraw();
  }
  /** The trace's state names (the rows' sort menu offers them). */
  stateNames(): string[] {
    return this.options.summary.states.map((s) => s.name);
  }
  /** Called when the label width or the row view changes; returns an unsubscribe function. */
  onViewChange(listener: () => void): () => void {
    this.viewListeners.add(listener);
    return () => this.viewListeners.delete(listener);
  }
  private viewChanged(): void {
    for (const l of [...this.viewListeners]) l();
    this.emitStatus();
  }

  /** The compact mode's row height; null when off. */
  compactMode(): CompactRowHeight | null {
    return this.compact.mode;
  }
  /** Compact mode at `rowHeight`, or off (null: the normal mode's scroll comes back). */
  setCompactMode(rowHeight: CompactRowHeight | null): void {
    this.compact.switch(rowHeight, this.scroll);
  }

  get ready(): boolean {
    return this.frame.drawn;
  }
  /** The tile being drawn (tests). */
  get tile(): Tile | null {
    return this.tiles.current?.tile ?? null;
  }

  zoomBy(factor: number, anchor?: number): void {
    this.setWindow(this.win.zoomed(factor, anchor));
  }
  panBy(fraction: number): void {
    this.setWindow(this.win.panned(fraction));
  }
  fit(): void {
    this.setWindow(this.win.whole());
  }
  setWindow(w: TimeWindow): void {
    this.tiles.endHold();
    this.win.set(w);
  }

  toggleGroup(key: string): void {
    this.laidOut.toggleGroup(key);
    this.emitStatus();
  }

  /**
   * The replay cursor moved: draw it and keep it in view (the zoom stays).
   * Past the middle of the window, the tile of the page it turns to next is
   * fetched, so that page is drawn whole when it comes.
   */
  private followReplay(t: number): void {
    this.setWindow(followWindow(this.win.value, t));
    const ahead = this.win.ahead(t);
    if (ahead && !this.compact.on) this.tiles.prefetch(ahead);
    this.requestDraw();
  }

  /**
   * A live trace's new snapshot: new rows and duration, every tile asked
   * again. The window stays unless it showed the whole trace (then it still does).
   */
  setSummary(summary: TraceSummary): void {
    const before = this.options.summary.duration;
    const whole = this.win.value.from <= 0 && this.win.value.to >= before;
    this.options = { ...this.options, summary };
    this.tiles.invalidate(summary.duration);
    this.compact.setSummary(summary);
    this.strips.invalidate();
    this.overlays.drop();
    this.links.reset();
    this.rows.invalidate();
    this.laidOut.relayout();
    if (whole) this.fit();
    this.overlays.refetch();
    this.emitStatus();
  }

  /** A live snapshot's tile was just asked for: frames wait for it, at most `ms` (NormalTiles.holdFor). */
  holdForTile(ms = 250): void {
    this.tiles.holdFor(ms);
  }

  /**
   * Selects what replay stepped to: a slice (with details), a message or
   * instant (details), else nothing; and scrolls its row into view, in the
   * mode on screen.
   */
  showEvent(ev: { kind: string; ref: number; row: number; time: number }): void {
    this.selection.showEvent(ev);
    if (ev.row >= 0) this.laidOut.show(ev.row);
  }

  clearSelection(): void {
    this.selection.clear();
  }

  /**
   * The trace duration of the summary in force when the tile on screen was
   * asked for: once it reaches a live snapshot's duration, that snapshot's
   * records are painted (display-lag benchmark). -1 before the first tile.
   */
  drawnDuration(): number {
    return this.tiles.drawnDuration;
  }

  exportSize(): { width: number; height: number } {
    return { width: Math.max(1, this.screen.width), height: Math.max(1, this.screen.height) };
  }

  /** Paints the current view (for export; the screen uses the same code). */
  paint(p: Painter): void {
    this.frame.paint(p, p === this.screen.painter);
  }

  destroy(): void {
    this.tiles.endHold();
    this.unsubscribeStyle();
    for (const c of this.cleanups) c();
    this.root.replaceChildren();
  }

  // ---- drawing -----------------------------------------------------------

  geometry(): TimelineGeometry {
    return this.geometryAt(this.screen.width, this.screen.height, this.scroll.top);
  }
  /** The geometry of the mode on screen for a picture `width` × `height` scrolled to `top`. */
  private geometryAt(width: number, height: number, top: number): TimelineGeometry {
    const layout = this.compact.on ? EMPTY : this.laidOut.layout;
    return new TimelineGeometry(this.win.value, width, height, layout, top, this.labels);
  }

  requestDraw(): void {
    this.screen?.request();
  }
  /** Frames drawn, and the last one's ms (tests and benchmarks). */
  get frames(): number {
    return this.screen.frames;
  }
  get lastFrameMs(): number {
    return this.screen.lastFrameMs;
  }

  /**
   * Asks for the tile of what is on screen now rather than at the next frame
   * (a live snapshot's tile is then on its way while the frame is drawn).
   */
  loadNow(): void {
    if (this.screen.sized) this.tiles.ensure();
  }

  /** What a click at (x, y) on the canvas does. */
  clickAt(x: number, y: number): void {
    if (this.compact.on) return; // bands hold no slice to select
    const tile = this.tiles.current?.tile ?? null;
    const action = clickAction(this.geometry(), this.laidOut.layout, tile, x, y, (s) => this.options.style.visible(s));
    if (action.kind === 'toggle') this.toggleGroup(action.key);
    else if (action.kind === 'pin') this.rows.togglePin(action.row);
    else if (action.kind === 'zoom') this.setWindow(action.window);
    else if (action.kind === 'slice') this.selection.selectSlice(action.id, action.box);
    else if (action.kind === 'instant') this.selection.showDetails('instant', action.id);
    else if (action.kind === 'message') this.selection.selectMessage(action.id, action.ends, 'send');
    else if (action.kind === 'clear') this.selection.clear();
  }

  /** A double click or Enter on a band: the normal mode, scrolled to the band's first row. */
  private openBand(x: number, y: number | null): boolean {
    const row = this.compact.on && x >= this.labels && y !== null ? this.compact.rowAt(this.geometry(), y) : -1;
    if (row < 0) return false;
    this.laidOut.openAt(row);
    return true;
  }

  private emitStatus(loading = this.tiles.loader.inFlight > 0): void {
    const x = this.input.pointer;
    const pointer = x !== null && x >= this.labels ? this.geometry().xToTime(x) : null;
    this.options.onStatus?.({
      pointer,
      window: this.window(),
      range: this.input.range,
      selected: this.selection.selected,
      loading,
    });
  }

  // ---- events ------------------------------------------------------------

  /** Wheel, pointer and keys: the input module changes the view through these. */
  private bindInput(): TimelineInput {
    const input = new TimelineInput(this.canvas, this.root, {
      geometry: () => this.geometry(),
      setWindow: (w) => this.setWindow(w),
      setScroll: (top) => this.scroll.set(top),
      zoomBy: (factor, anchor) => this.zoomBy(factor, anchor),
      panBy: (fraction) => this.panBy(fraction),
      fit: () => this.fit(),
      clickAt: (x, y) => this.clickAt(x, y),
      clearSelection: () => this.clearSelection(),
      selectArea: (box) => (this.compact.on ? this.areas.set(this.compact.areaOf(this.geometry(), box)) : this.areas.select(box)),
      activate: (x, y) => this.openBand(x, y),
      setLabelWidth: (w) => this.setLabelWidth(w),
      toggleCompact: () => this.setCompactMode(this.compact.on ? null : this.compact.rowHeight),
      clearArea: () => this.areas.set(null),
      stepMessage: (dir) => void this.flow.step(dir),
      toPartner: () => this.flow.partner(),
      seekReplay: (time) => this.options.replay?.seek(time),
      changed: () => {
        this.emitStatus();
        this.requestDraw();
      },
    });
    this.cleanups.push(() => input.destroy());
    return input;
  }

}
