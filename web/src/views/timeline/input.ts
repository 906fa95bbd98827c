// Mouse, wheel and keyboard input of the timeline (listed for people in
// widgets/help.ts; keep both in step): wheel zoom and pan, drag
// to pan, shift-drag or a ruler drag to zoom to a range, alt-drag to measure,
// ctrl-drag (meta-drag on macOS) over the plot to select an area (a time range
// and the rows covered; Escape or a plain click clears it, area.ts),
// a drag of the label column's edge to resize it, clicks, the W/A/S/D/F/Escape keys, the flow keys ] [ P, and C (compact mode;
// there a double click or Enter opens the band under the pointer). It keeps the state of the gesture
// under way (the pointer, the range or area being dragged) and changes the view only
// through the TimelineInputHost the timeline gives it.
import { panWindow, zoomWindow, type TimeWindow } from '../../base/time_scale';
import { typesText } from '../../widgets/dom';
import type { AreaBox } from './area';
import { RULER_HEIGHT, type TimelineGeometry } from './geometry';

/** Wheel zoom per pixel of wheel movement. */
export const WHEEL_ZOOM = 0.0015;
/** Zoom factor of the W key (S zooms out by its inverse). */
export const KEY_ZOOM = 0.8;
/** Pan of the A and D keys, as a fraction of the window. */
export const KEY_PAN = 0.15;
/** Movement (px) under which a press is a click, not a drag. */
export const CLICK_SLOP = 4;
/** How near (px) the label column's edge a press grabs it. */
export const EDGE_GRAB = 4;

/** What the input needs of the timeline; x and y are CSS px within the canvas. */
export interface TimelineInputHost {
  /** The screen geometry now: window, scroll, canvas size and rows. */
  geometry(): TimelineGeometry;
  setWindow(w: TimeWindow): void;
  /** Scrolls the rows so that content y `top` is at the ruler's bottom (clamped). */
  setScroll(top: number): void;
  /** Zooms by `factor` (< 1 zooms in) around `anchor` (a trace time; default the middle). */
  zoomBy(factor: number, anchor?: number): void;
  /** Pans by `fraction` of the window (negative: to earlier times). */
  panBy(fraction: number): void;
  /** Shows the whole trace. */
  fit(): void;
  /** A click (press and release without a drag) at (x, y): select, toggle a group, or zoom in. */
  clickAt(x: number, y: number): void;
  clearSelection(): void;
  /** A ctrl-drag ended: select the area of `box` (content y). */
  selectArea(box: AreaBox): void;
  /** Escape or a plain click: forget the area selection. */
  clearArea(): void;
  /** "]" / "[": select the next (dir 1) / previous (dir -1) message end on the selected row. */
  stepMessage(dir: 1 | -1): void;
  /** "p": select the selected message's other end. */
  toPartner(): void;
  /** Moves the replay cursor to trace time `time`. */
  seekReplay(time: number): void;
  /** A double click or Enter at (x, y) in the rows (compact mode: open that band); whether it did something. */
  activate(x: number, y: number | null): boolean;
  /** "c": compact mode on or off. */
  toggleCompact(): void;
  /** The label column's edge was dragged to `width` CSS px (clamped by the timeline). */
  setLabelWidth(width: number): void;
  /** The pointer or the range changed: report the status and draw again. */
  changed(): void;
}

export interface TimeRange {
  from: number;
  to: number;
}

type Drag =
  | { mode: 'pan'; x: number; y: number; window: TimeWindow; scroll: number; moved: boolean }
  | { mode: 'range'; zoom: boolean; from: number; x: number; ruler?: boolean }
  | { mode: 'measure'; from: number }
  | { mode: 'area'; x: number; y: number }
  | { mode: 'labels'; x: number; width: number };

export class TimelineInput {
  private pointerX: number | null = null;
  private pointerYValue: number | null = null;
  private rangeValue: TimeRange | null = null;
  private drag: Drag | null = null;
  private areaValue: AreaBox | null = null;
  private readonly cleanups: Array<() => void> = [];

  /**
   * Listens on `canvas` for the pointer and wheel, and on the window for keys;
   * a press gives `focusTarget` the focus.
   */
  constructor(
    private readonly canvas: HTMLElement,
    private readonly focusTarget: HTMLElement,
    private readonly host: TimelineInputHost,
  ) {
    this.listen(canvas, 'wheel', (e) => this.onWheel(e), { passive: false });
    this.listen(canvas, 'pointerdown', (e) => this.onPointerDown(e));
    this.listen(canvas, 'pointermove', (e) => this.onPointerMove(e));
    this.listen(canvas, 'pointerup', (e) => this.onPointerEnd(e, false));
    this.listen(canvas, 'pointercancel', (e) => this.onPointerEnd(e, true));
    this.listen(canvas, 'pointerleave', () => this.onPointerLeave());
    this.listen(canvas, 'dblclick', (e) => this.onDoubleClick(e));
    this.listen(window, 'keydown', (e) => this.onKey(e));
  }

  /** The pointer's x over the canvas; null once it left (unless a drag holds it). */
  get pointer(): number | null {
    return this.pointerX;
  }

  /** The pointer over the canvas (x and y); null once it left. */
  get pointerAt(): { x: number; y: number } | null {
    return this.pointerX !== null && this.pointerYValue !== null ? { x: this.pointerX, y: this.pointerYValue } : null;
  }

  /** The time range being dragged, or measured and kept; null when there is none. */
  get range(): TimeRange | null {
    return this.rangeValue;
  }

  /** The area being ctrl-dragged (content y); null when none is. */
  get areaDrag(): AreaBox | null {
    return this.areaValue;
  }

  /** Whether a button is down over the timeline (then no pointer line is drawn). */
  get dragging(): boolean {
    return this.drag !== null;
  }

  destroy(): void {
    for (const c of this.cleanups) c();
    this.cleanups.length = 0;
  }

  private listen<K extends keyof HTMLElementEventMap>(
    target: HTMLElement | Window,
    type: K,
    fn: (e: HTMLElementEventMap[K]) => void,
    opts?: AddEventListenerOptions,
  ): void {
    target.addEventListener(type, fn as EventListener, opts);
    this.cleanups.push(() => target.removeEventListener(type, fn as EventListener, opts));
  }

  private localXY(e: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  /**
   * Over the labels the wheel scrolls the rows; elsewhere shift+wheel or a
   * mostly sideways wheel pans and an up/down one zooms around the pointer.
   * Shift pans, as in most timeline and chart tools; browsers differ in
   * whether shift turns deltaY into deltaX, so either counts.
   */
  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const { x, y } = this.localXY(e);
    const g = this.host.geometry();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? g.height : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    if (x < this.host.geometry().labelWidth) {
      this.host.setScroll(g.scrollTop + (dy || dx));
      return;
    }
    const win = g.window;
    if (e.shiftKey && !e.ctrlKey) {
      this.host.setWindow(panWindow(win, (dx || dy) * g.scale.resolution));
    } else if (Math.abs(dx) > Math.abs(dy)) {
      this.host.setWindow(panWindow(win, dx * g.scale.resolution));
    } else if (dy !== 0) {
      const anchor = y < 0 ? (win.from + win.to) / 2 : g.xToTime(x);
      this.host.setWindow(zoomWindow(win, Math.exp(dy * WHEEL_ZOOM), anchor));
    }
  }

  /**
   * Starts a drag: a range on the ruler or with shift, an area with ctrl (or
   * meta, as macOS takes ctrl+click for the context menu), a measurement
   * with alt, else a pan (or a click).
   */
  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    this.focusTarget.focus({ preventScroll: true });
    const { x, y } = this.localXY(e);
    const g = this.host.geometry();
    this.canvas.setPointerCapture?.(e.pointerId);
    if (Math.abs(x - g.labelWidth) <= EDGE_GRAB) {
      this.drag = { mode: 'labels', x, width: g.labelWidth };
    } else if (x >= g.labelWidth && y < RULER_HEIGHT) {
      const t = g.xToTime(x);
      this.drag = { mode: 'range', zoom: true, from: t, x, ruler: true };
      this.rangeValue = { from: t, to: t };
    } else if (x >= g.labelWidth && (e.ctrlKey || e.metaKey)) {
      const t = g.xToTime(x);
      const c = g.toContentY(y);
      this.drag = { mode: 'area', x, y };
      this.areaValue = { from: t, to: t, top: c, bottom: c };
    } else if (x >= g.labelWidth && e.shiftKey) {
      const t = g.xToTime(x);
      this.drag = { mode: 'range', zoom: true, from: t, x };
      this.rangeValue = { from: t, to: t };
    } else if (x >= g.labelWidth && e.altKey) {
      const t = g.xToTime(x);
      this.drag = { mode: 'measure', from: t };
      this.rangeValue = { from: t, to: t };
    } else {
      this.rangeValue = null;
      this.drag = { mode: 'pan', x, y, window: g.window, scroll: g.scrollTop, moved: false };
    }
    this.host.changed();
  }

  private onPointerMove(e: PointerEvent): void {
    const { x, y } = this.localXY(e);
    this.pointerX = x;
    this.pointerYValue = y;
    const d = this.drag;
    const g = this.host.geometry();
    if (d?.mode === 'labels') {
      this.host.setLabelWidth(d.width + x - d.x);
    } else if (d?.mode === 'pan') {
      const dx = x - d.x;
      const dy = y - d.y;
      if (!d.moved && Math.hypot(dx, dy) >= CLICK_SLOP) d.moved = true;
      if (d.moved) {
        const res = (d.window.to - d.window.from) / g.plotWidth;
        this.host.setWindow(panWindow(d.window, -dx * res));
        this.host.setScroll(d.scroll - dy);
      }
    } else if (d && (d.mode === 'range' || d.mode === 'measure')) {
      this.rangeValue = { from: d.from, to: g.xToTime(Math.max(x, g.labelWidth)) };
    } else if (d?.mode === 'area' && this.areaValue) {
      const yIn = Math.min(Math.max(y, RULER_HEIGHT), g.height);
      this.areaValue = { ...this.areaValue, to: g.xToTime(Math.max(x, g.labelWidth)), bottom: g.toContentY(yIn) };
    }
    this.canvas.style.cursor = this.cursorFor(x, y);
    this.host.changed();
  }

  /**
   * Ends a drag: a pan that did not move is a click (which also clears the
   * area); a range zooms to it, or on the ruler seeks replay; an area is
   * selected (a ctrl-click without a drag clears it).
   */
  private onPointerEnd(e: PointerEvent, cancelled: boolean): void {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    const { x, y } = this.localXY(e);
    if (d.mode === 'pan') {
      if (!d.moved && !cancelled) {
        this.host.clearArea();
        this.host.clickAt(x, y);
      }
    } else if (d.mode === 'range') {
      const r = this.rangeValue;
      this.rangeValue = null;
      if (!cancelled && r && Math.abs(x - d.x) >= CLICK_SLOP) {
        this.host.setWindow({ from: Math.min(r.from, r.to), to: Math.max(r.from, r.to) });
      } else if (!cancelled && d.ruler) {
        // A click on the ruler (no drag) moves the replay cursor there.
        this.host.seekReplay(d.from);
      }
    } else if (d.mode === 'area') {
      const box = this.areaValue;
      this.areaValue = null;
      if (!cancelled && box && Math.hypot(x - d.x, y - d.y) >= CLICK_SLOP) this.host.selectArea(box);
      else if (!cancelled) this.host.clearArea();
    } else if (d.mode === 'measure') {
      // The measurement stays until the next click or Escape.
    }
    this.host.changed();
  }

  private onPointerLeave(): void {
    if (this.drag) return;
    this.pointerX = null;
    this.pointerYValue = null;
    this.host.changed();
  }

  /** A double click on the ruler shows the whole trace; in the rows, see activate(). */
  private onDoubleClick(e: MouseEvent): void {
    const { x, y } = this.localXY(e);
    const g = this.host.geometry();
    if (Math.abs(x - g.labelWidth) <= EDGE_GRAB) return;
    if (x >= g.labelWidth && y < RULER_HEIGHT) this.host.fit();
    else if (y >= RULER_HEIGHT) this.host.activate(x, y);
  }

  /**
   * W/S zoom in/out around the pointer, A/D pan, F fits, Escape clears the
   * range, the area and the selection; ] / [ step to the next / previous message on the
   * selected row, P to the selected message's other end; C turns the
   * compact mode on or off, Enter opens the band under the pointer there.
   */
  private onKey(e: KeyboardEvent): void {
    if (typesText(e.target)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const anchor =
      this.pointerX !== null && this.pointerX >= this.host.geometry().labelWidth ? this.host.geometry().xToTime(this.pointerX) : undefined;
    switch (e.key.toLowerCase()) {
      case 'w':
        this.host.zoomBy(KEY_ZOOM, anchor);
        break;
      case 's':
        this.host.zoomBy(1 / KEY_ZOOM, anchor);
        break;
      case 'a':
        this.host.panBy(-KEY_PAN);
        break;
      case 'd':
        this.host.panBy(KEY_PAN);
        break;
      case 'f':
        this.host.fit();
        break;
      case ']':
        this.host.stepMessage(1);
        break;
      case '[':
        this.host.stepMessage(-1);
        break;
      case 'p':
        this.host.toPartner();
        break;
      case 'c':
        this.host.toggleCompact();
        break;
      case 'enter':
        if (this.pointerX === null || !this.host.activate(this.pointerX, this.pointerYValue)) return;
        break;
      case 'escape':
        this.rangeValue = null;
        this.host.clearArea();
        this.host.clearSelection();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  private cursorFor(x: number, y: number): string {
    if (this.drag?.mode === 'pan' && this.drag.moved) return 'grabbing';
    const g = this.host.geometry();
    if (this.drag?.mode === 'labels' || Math.abs(x - g.labelWidth) <= EDGE_GRAB) return 'ew-resize';
    if (x >= g.labelWidth && y < RULER_HEIGHT) return 'col-resize';
    if (x < g.labelWidth) {
      const item = g.layout.itemAt(g.toContentY(y));
      return item && (item.kind === 'host' || item.kind === 'process') ? 'pointer' : 'default';
    }
    return 'crosshair';
  }
}

