// The processor-scheduling strip: which thread ran on which CPU
// over the timeline's visible window, from /cpus (the `cpu` samples that
// PLX_SCHED=1 records). Hover a bar for its thread and times; click it to
// show that thread's row at that time in the timeline.
import type { CpuResult, TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { el, tooltipElement } from '../common/dom';
import { formatCount, formatDuration, formatTimeSpan } from '../common/format';
import type { ViewContext, ViewFactory } from '../context';
import { WindowChartView } from '../common/window_chart_view';
import { barAt, type CpuBar, cpuBars, type CpuLayout, layoutCpus, LEGEND_ROW } from './cpus_layout';
import { paintCpus, TEXT } from './cpus_paint';
import { threadLabelTid } from '../common/threads';

export interface CpusOptions {
  /** Wait after the last timeline window change before fetching (ms). */
  debounceMs?: number;
}

export const NO_DATA = 'no CPU data: record with PLX_SCHED=1';
const EMPTY_HEIGHT = 40;
/** Text widths for the layout: an estimate, so screen, export and hit tests agree. */
export const estimateWidth = (s: string): number => s.length * 6.5;

export class CpusView extends WindowChartView {
  private result: CpuResult | null = null;
  /** the timeline window the shown result was asked for */
  private asked = { from: 0, to: 0 };
  private hovered = -1;
  private drawn: { width: number; layout: CpuLayout; bars: CpuBar[] } | null = null;
  private info!: HTMLDivElement;
  private note!: HTMLDivElement;
  private empty!: HTMLDivElement;
  private box!: HTMLDivElement;
  private tooltip!: HTMLDivElement;

  constructor(ctx: ViewContext, options: CpusOptions = {}) {
    super(ctx, options.debounceMs ?? 150);
  }

  mount(host: HTMLElement): void {
    host.classList.add('cpus-view');
    this.info = el('div', { class: 'view-message', 'data-testid': 'cpus-info' });
    this.note = el('div', { class: 'view-message', 'data-testid': 'cpus-truncated' });
    this.note.hidden = true;
    this.note.style.color = '#b26a00';
    this.empty = el('div', { class: 'view-message', 'data-testid': 'cpus-empty' }, NO_DATA);
    this.empty.hidden = true;
    this.box = el('div', { class: 'chart-box' });
    this.box.style.position = 'relative';
    this.tooltip = tooltipElement('cpus-tooltip');
    host.append(
      el('div', { class: 'view-controls' }, el('span', { class: 'label' }, 'Which thread ran on which CPU in the timeline window; click a bar to show it in the timeline')),
      this.info,
      this.status.element,
      this.note,
      this.empty,
      this.box,
    );
    this.attachChart(this.box, this.tooltip, 'cpus-chart', EMPTY_HEIGHT);
    this.follow(this.ctx.replay.onMove(() => this.chart?.scheduleRedraw()));
  }

  paint(p: Painter): void {
    const r = this.result;
    if (!r) return;
    if (!r.has_data) {
      p.text(8, EMPTY_HEIGHT / 2, NO_DATA, { color: TEXT, font: '12px sans-serif', align: 'left', baseline: 'middle' });
      return;
    }
    const { layout, bars } = this.geometry(p.width);
    paintCpus(p, { layout, bars, win: this.asked, cursor: this.ctx.replay.time(), hovered: this.hovered });
  }

  /** The layout and bars for `width` (kept for hit tests until the next answer or resize). */
  private geometry(width: number): { layout: CpuLayout; bars: CpuBar[] } {
    if (!this.drawn || this.drawn.width !== width) {
      const layout = layoutCpus(this.result!, this.summary, width, estimateWidth);
      this.drawn = { width, layout, bars: cpuBars(this.result!, layout, this.asked) };
    }
    return this.drawn;
  }

  protected heightFor(width: number): number {
    const r = this.result;
    if (!r || !r.has_data) return EMPTY_HEIGHT;
    return Math.max(EMPTY_HEIGHT, this.geometry(width).layout.height);
  }

  protected load(): void {
    this.fetchWindow(
      this.result !== null,
      (from, to) => this.ctx.api.get('cpus', { from, to }),
      (r, from, to) => {
        this.result = r;
        this.asked = { from, to };
        this.drawn = null;
        this.hovered = -1;
        this.tooltip.hidden = true;
        this.empty.hidden = r.has_data;
        this.box.hidden = !r.has_data;
        this.info.hidden = !r.has_data;
        this.info.textContent = r.has_data
          ? `${r.cpus.length} CPU${r.cpus.length === 1 ? '' : 's'}, ${formatCount(r.migrations)} migration${r.migrations === 1 ? '' : 's'} in the whole trace; ${formatCount(r.spans.length)} span${r.spans.length === 1 ? '' : 's'} in the window`
          : '';
        this.note.hidden = !r.truncated;
        this.note.textContent = r.truncated
          ? `Too much in this window: only the first ${formatCount(r.spans.length)} spans are shown. Zoom the timeline in to see all of them.`
          : '';
        if (r.has_data && r.spans.length === 0) this.status.message('no thread was seen on a CPU in this window');
        this.chart?.redraw();
        this.exposeLayout();
      },
    );
  }

  protected leave(): void {
    this.setHover(-1, 0, 0);
  }

  protected move(ev: MouseEvent): void {
    if (!this.chart || !this.result?.has_data) return;
    const { x, y } = this.chart.eventPos(ev);
    this.setHover(barAt(this.geometry(this.chart.width).bars, x, y), x, y);
  }

  protected click(ev: MouseEvent): void {
    if (!this.chart || !this.result?.has_data) return;
    const { x, y } = this.chart.eventPos(ev);
    const { bars } = this.geometry(this.chart.width);
    const b = bars[barAt(bars, x, y)];
    if (!b) return;
    const s = this.result.spans[b.span]!;
    this.ctx.timeline.jumpTo({ row: s.row, begin: s.begin, end: s.end });
  }

  private setHover(bar: number, x: number, y: number): void {
    const changed = bar !== this.hovered;
    this.hovered = bar;
    const b = this.drawn?.bars[bar];
    const s = b ? this.result?.spans[b.span] : undefined;
    this.tooltip.hidden = !s;
    if (s) {
      this.tooltip.textContent = describeSpan(this.summary, s);
      this.placeTooltip(this.tooltip, x, y, 320);
    }
    if (changed) this.chart?.scheduleRedraw();
  }

  /** The drawing's coordinates for end-to-end tests, on the canvas's data-* attributes. */
  protected exposeLayout(): void {
    const c = this.chart?.canvas;
    if (!c || !this.result?.has_data) return;
    const { layout, bars } = this.geometry(this.chart!.width);
    const rows: Record<number, [number, number, number]> = {};
    for (const r of layout.rows) rows[r.cpu] = [r.y, r.h, r.lanes];
    Object.assign(c.dataset, {
      from: String(this.asked.from),
      to: String(this.asked.to),
      plotX: String(layout.plot.x),
      plotW: String(layout.plot.w),
      bars: String(bars.length),
      rows: JSON.stringify(rows),
      legend: JSON.stringify(layout.legend.map((l) => ({ row: l.row, label: l.label, color: l.color, x: l.x, y: l.y, h: LEGEND_ROW }))),
    });
  }
}

/** 'rank 0 / worker on CPU 3: 1.2 ms → 1.5 ms (300 µs)'. */
export function describeSpan(summary: TraceSummary, s: { row: number; cpu: number; begin: number; end: number }): string {
  return `${threadLabelTid(summary, s.row)} on CPU ${s.cpu}: ${formatTimeSpan(s.begin, s.end).join(' → ')} (${formatDuration(s.end - s.begin)})`;
}

export const CPUS_VIEW: ViewFactory = {
  id: 'cpus',
  title: 'CPUs',
  create: (ctx) => new CpusView(ctx),
  followsUpdates: true,
};
