// The logical-time view: the Lamport / space-time diagram of the
// timeline's visible window, x = Lamport clock, rows = threads by process,
// slices as bars and messages as arrows, with the replay cursor's frontier.
import type { LamportResult, TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { ChartCanvas } from '../common/chart_canvas';
import { debounce, el, releaseChartView, RequestSeq, StatusLine, tooltipElement } from '../common/dom';
import { formatBytes, formatCount, formatDuration } from '../common/format';
import type { View, ViewContext, ViewFactory } from '../context';
import {
  fitClocks,
  layoutRows,
  messageAt,
  panClocks,
  plotFor,
  rowAnchorY,
  rowEvents,
  sliceAt,
  zoomClocks,
  type ClockWindow,
  type RowEvents,
  type RowsLayout,
} from './lamport_layout';
import { paintLamport } from './lamport_paint';

export interface LamportOptions {
  /** Wait after the last timeline window change before fetching (ms). */
  debounceMs?: number;
}

const DRAG_SLOP = 3;
/** Slices and messages asked for per window: the most /lamport gives. */
const LAMPORT_LIMIT = 100_000;

export class LamportView implements View {
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private readonly debouncedLoad: ReturnType<typeof debounce<[]>>;
  private summary: TraceSummary;
  private layout: RowsLayout;
  private chart: ChartCanvas | null = null;
  private result: LamportResult | null = null;
  private events = new Map<number, RowEvents>();
  private clocks: ClockWindow = { from: 0, to: 1 };
  /** the timeline window the shown result was asked for */
  private asked = { from: 0, to: 0 };
  private zoomed = false;
  private hoverMessage = -1;
  private hoverSlice = -1;
  private arrowsDrawn = 0;
  private drag: { x: number; startX: number; moved: boolean } | null = null;
  private unsubscribe: (() => void)[] = [];
  private tooltip!: HTMLDivElement;
  private note!: HTMLDivElement;

  constructor(
    private readonly ctx: ViewContext,
    options: LamportOptions = {},
  ) {
    this.summary = ctx.summary;
    this.layout = layoutRows(ctx.summary);
    this.debouncedLoad = debounce(() => this.load(false), options.debounceMs ?? 150);
  }

  mount(host: HTMLElement): void {
    host.classList.add('lamport-view');
    const fit = el('button', { type: 'button', 'data-testid': 'lamport-fit', title: 'Show every clock of the window' }, 'Fit');
    fit.addEventListener('click', () => this.fit());
    this.note = el('div', { class: 'view-message', 'data-testid': 'lamport-truncated' });
    this.note.hidden = true;
    this.note.style.color = '#b26a00';
    const box = el('div', { class: 'chart-box' });
    box.style.position = 'relative';
    this.tooltip = tooltipElement('lamport-tooltip');
    host.append(
      el('div', { class: 'view-controls' }, el('span', { class: 'label' }, 'Logical time of the timeline window: wheel zooms, drag pans, click a bar to show it in the timeline '), fit),
      this.status.element,
      this.note,
      box,
    );
    this.chart = new ChartCanvas(
      (p) => {
        this.paint(p);
        this.exposeLayout();
      },
      { height: this.layout.height + 8, testid: 'lamport-chart', heightFor: () => this.layout.height + 8 },
    );
    this.chart.attach(box);
    box.append(this.tooltip);
    const c = this.chart.canvas;
    c.addEventListener('wheel', (ev) => this.wheel(ev), { passive: false });
    c.addEventListener('mousedown', (ev) => {
      const x = this.chart!.eventPos(ev).x;
      this.drag = { x, startX: x, moved: false };
    });
    c.addEventListener('mousemove', (ev) => this.move(ev));
    c.addEventListener('mouseup', (ev) => this.up(ev));
    c.addEventListener('mouseleave', () => {
      this.drag = null;
      this.setHover(-1, -1, 0, 0);
    });
    this.unsubscribe.push(
      this.ctx.timeline.onWindowChange(() => this.debouncedLoad()),
      this.ctx.states.onChange(() => this.chart?.scheduleRedraw()),
      this.ctx.replay.onMove(() => this.chart?.scheduleRedraw()),
      this.ctx.updates.onUpdate((s) => {
        this.summary = s;
        this.layout = layoutRows(s);
        this.load(true);
      }),
    );
    this.load(false);
  }

  unmount(): void {
    releaseChartView(this.seq, this.debouncedLoad, this.unsubscribe, this.chart);
    this.chart = null;
  }

  exportSize(): { width: number; height: number } {
    return { width: this.chart?.width ?? 800, height: this.layout.height + 8 };
  }

  paint(p: Painter): void {
    this.arrowsDrawn = paintLamport(
      p,
      {
        result: this.result,
        layout: this.layout,
        events: this.events,
        clocks: this.clocks,
        plot: plotFor(p.width),
        cursor: this.ctx.replay.time(),
        hoverMessage: this.hoverMessage,
        hoverSlice: this.hoverSlice,
      },
      this.ctx.states,
    );
  }

  /** The clocks shown now (for tests). */
  clockWindow(): ClockWindow {
    return { ...this.clocks };
  }

  /** Shows every clock of the result. */
  fit(): void {
    if (this.result) this.clocks = fitClocks(this.result);
    this.zoomed = false;
    this.chart?.redraw();
  }

  /** Fetches the timeline's window; `keepZoom` keeps a zoomed clock range (live updates). */
  private load(keepZoom: boolean): void {
    if (!this.chart) return;
    const { from, to } = this.ctx.timeline.window();
    if (!(to > from)) return;
    const n = this.seq.next();
    if (!this.result) this.status.loading();
    this.ctx.api
      // The server's most: a 10 ms window of a 16-rank MPI run holds ~40,000 slices.
      .get('lamport', { from, to, limit: LAMPORT_LIMIT })
      .then((r) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        this.result = r;
        this.asked = { from, to };
        this.events = rowEvents(r);
        if (!keepZoom || !this.zoomed) {
          this.clocks = fitClocks(r);
          this.zoomed = false;
        }
        this.hoverMessage = this.hoverSlice = -1;
        this.note.hidden = !r.truncated;
        this.note.textContent = r.truncated
          ? `Too much in this window: only the first ${formatCount(Math.max(r.slices.length, r.messages.length))} slices or messages are shown. Zoom the timeline in to see all of them.`
          : '';
        if (r.slices.length === 0 && r.messages.length === 0) this.status.message('nothing happens in this window');
        this.chart?.redraw();
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.error(err);
      });
  }

  private wheel(ev: WheelEvent): void {
    if (!this.chart || !this.result) return;
    ev.preventDefault();
    const plot = plotFor(this.chart.width);
    const { x } = this.chart.eventPos(ev);
    if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
      this.clocks = panClocks(this.clocks, plot, -(ev.shiftKey ? ev.deltaY : ev.deltaX));
    } else {
      this.clocks = zoomClocks(this.clocks, plot, Math.max(plot.x, x), Math.exp(ev.deltaY * 0.0015));
    }
    this.zoomed = true;
    this.chart.scheduleRedraw();
  }

  private move(ev: MouseEvent): void {
    if (!this.chart) return;
    const { x, y } = this.chart.eventPos(ev);
    if (this.drag && (ev.buttons & 1) !== 0) {
      if (Math.abs(x - this.drag.startX) > DRAG_SLOP) this.drag.moved = true;
      if (this.drag.moved) {
        this.clocks = panClocks(this.clocks, plotFor(this.chart.width), x - this.drag.x);
        this.drag.x = x;
        this.zoomed = true;
        this.tooltip.hidden = true;
        this.chart.scheduleRedraw();
        return;
      }
    }
    const r = this.result;
    if (!r) return;
    const plot = plotFor(this.chart.width);
    if (x < plot.x) {
      this.setHover(-1, -1, x, y);
      return;
    }
    const m = messageAt(r, this.layout, this.clocks, plot, x, y);
    const s = m >= 0 ? -1 : sliceAt(r, this.layout, this.clocks, plot, x, y, (st) => this.ctx.states.visible(st));
    this.setHover(m, s, x, y);
  }

  private up(ev: MouseEvent): void {
    const drag = this.drag;
    this.drag = null;
    if (!this.chart || !this.result || (drag && drag.moved)) return;
    const { x, y } = this.chart.eventPos(ev);
    const plot = plotFor(this.chart.width);
    const i = sliceAt(this.result, this.layout, this.clocks, plot, x, y, (st) => this.ctx.states.visible(st));
    if (i < 0) return;
    const s = this.result.slices[i]!;
    this.ctx.timeline.jumpTo({ row: s.row, begin: s.begin, end: s.end, slice: s.id });
  }

  private setHover(message: number, slice: number, x: number, y: number): void {
    const changed = message !== this.hoverMessage || slice !== this.hoverSlice;
    this.hoverMessage = message;
    this.hoverSlice = slice;
    const text = this.describe(message, slice);
    this.tooltip.hidden = text === '';
    this.tooltip.textContent = text;
    const w = this.chart?.width ?? 600;
    this.tooltip.style.left = `${x + 12 + 260 > w ? Math.max(0, x - 270) : x + 12}px`;
    this.tooltip.style.top = `${y + 12}px`;
    if (changed) this.chart?.scheduleRedraw();
  }

  private describe(message: number, slice: number): string {
    const r = this.result;
    if (!r) return '';
    if (message >= 0) {
      const m = r.messages[message]!;
      return `${rowName(this.summary, m.send_row)} → ${rowName(this.summary, m.recv_row)}: ${formatBytes(m.bytes)}, tag ${m.tag}; clock ${m.send_clock} → ${m.recv_clock}`;
    }
    if (slice >= 0) {
      const s = r.slices[slice]!;
      const name = this.summary.states[s.state]?.name ?? `state ${s.state}`;
      return `${name} on ${rowName(this.summary, s.row)}: clock ${s.begin_clock} → ${s.end_clock}, ${formatDuration(s.end - s.begin)}`;
    }
    return '';
  }

  /** The drawing's coordinates for end-to-end tests, on the canvas's data-* attributes. */
  private exposeLayout(): void {
    const c = this.chart?.canvas;
    if (!c) return;
    const plot = plotFor(this.chart!.width);
    const rows: Record<number, number> = {};
    for (const r of this.layout.rows) rows[r.row] = rowAnchorY(this.layout, r.row);
    Object.assign(c.dataset, {
      arrows: String(this.arrowsDrawn),
      from: String(this.asked.from),
      to: String(this.asked.to),
      clockFrom: String(this.clocks.from),
      clockTo: String(this.clocks.to),
      plotX: String(plot.x),
      plotW: String(plot.w),
      rows: JSON.stringify(rows),
    });
  }
}

/** 'rank 1' for a process's only thread, 'rank 1 · worker' otherwise. */
export function rowName(summary: TraceSummary, row: number): string {
  const t = summary.threads[row];
  if (!t) return `row ${row}`;
  const p = summary.processes[t.process];
  if (!p) return t.name;
  return p.threads.length > 1 ? `${p.name} · ${t.name}` : p.name;
}

export const LAMPORT_VIEW: ViewFactory = {
  id: 'lamport',
  title: 'Logical time',
  create: (ctx) => new LamportView(ctx),
  followsUpdates: true,
};
