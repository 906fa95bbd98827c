// The mountain range: stacked areas of how many threads are in each state over
// the timeline's visible window, drawn on exactly the timeline's time axis
// (its label column's width followed as the user drags it). Recent answers
// are kept, and while the replay cursor moves the page the timeline turns to
// next is asked for ahead, so a page turn is drawn at once, never blank.
import { LruCache } from '../../base/lru';
import { clampWindow } from '../../base/time_scale';
import type { MountainResult } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { ChartCanvas } from '../common/chart_canvas';
import { debounce, el, releaseChartView, RequestSeq, StatusLine, tooltipElement } from '../common/dom';
import { formatAverage, formatDurationTicks, formatTime, resolutionFor } from '../common/format';
import { niceTicks } from '../common/ticks';
import { niceTicks as rulerTicks } from '../../base/ticks';
import type { View, ViewContext, ViewFactory } from '../context';
import { nextPage } from '../timeline/follow';
import { bucketAt, bucketsFor, bucketValues, stackAreas, timeToX, type Plot, type TimeWindow } from './mountain_layout';

export interface MountainOptions {
  /** Width of the timeline's label column: the plot starts there (the timeline's own, when it tells). */
  labelWidth?: number;
  /** Pixels right of the plot (the timeline's right margin, if any). */
  rightMargin?: number;
  /** CSS height of the chart. */
  height?: number;
  /** Wait after the last window change before fetching (ms). */
  debounceMs?: number;
}

export const DEFAULT_LABEL_WIDTH = 200;
const TOP = 6;
const BOTTOM = 16;
const FONT = '10px sans-serif';
const TEXT = '#555555';
const AXIS = '#9e9e9e';
/** the timeline's replay cursor colour (views/timeline/paint.ts) */
const REPLAY_COLOR = '#c2185b';

export class MountainView implements View {
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private labelWidth: number;
  private readonly rightMargin: number;
  private readonly height: number;
  private chart: ChartCanvas | null = null;
  private result: MountainResult | null = null;
  private win: TimeWindow;
  private unsubscribe: (() => void)[] = [];
  private tooltip!: HTMLDivElement;
  private hoverX: number | null = null;
  private readonly debouncedLoad: ReturnType<typeof debounce<[]>>;
  /** recent answers by window and buckets, and the ones asked for ahead */
  private readonly cache = new LruCache<string, MountainResult>(8);
  private readonly asked = new Set<string>();
  /** where the replay cursor was (its direction) */
  private cursorAt = NaN;

  constructor(
    private readonly ctx: ViewContext,
    options: MountainOptions = {},
  ) {
    this.labelWidth = options.labelWidth ?? DEFAULT_LABEL_WIDTH;
    this.rightMargin = options.rightMargin ?? 0;
    this.height = options.height ?? 120;
    this.win = ctx.timeline.window();
    this.debouncedLoad = debounce(() => this.load(), options.debounceMs ?? 100);
  }

  mount(host: HTMLElement): void {
    host.classList.add('mountain-view');
    const box = el('div', { class: 'chart-box' });
    box.style.position = 'relative';
    this.tooltip = tooltipElement('mountain-tooltip');
    host.append(this.status.element, box);
    this.chart = new ChartCanvas((p) => this.paint(p), {
      height: this.height,
      testid: 'mountain-chart',
      onResize: () => this.debouncedLoad(),
    });
    this.chart.attach(box);
    box.append(this.tooltip);
    this.chart.canvas.addEventListener('mousemove', (ev) => this.hover(this.chart!.eventPos(ev).x));
    this.chart.canvas.addEventListener('mouseleave', () => this.hover(null));
    this.unsubscribe.push(
      this.ctx.timeline.onWindowChange((from, to) => {
        this.win = { from, to };
        // Keep the old picture, moved to the new window, until the new one
        // arrives; a window asked for before is drawn at once.
        this.chart?.scheduleRedraw();
        if (!this.fromCache()) this.debouncedLoad();
      }),
      this.ctx.states.onChange(() => this.chart?.scheduleRedraw()),
      // The replay cursor is drawn; a live trace's new snapshot is fetched.
      this.ctx.replay.onMove((t) => {
        this.chart?.scheduleRedraw();
        this.fetchAhead(t);
      }),
      this.ctx.updates.onUpdate(() => {
        this.cache.clear();
        this.debouncedLoad();
      }),
      this.followLabelWidth(),
    );
    this.win = this.ctx.timeline.window();
    this.load();
  }

  /** Keeps the plot's left edge on the timeline's label column edge; returns the unsubscribe. */
  private followLabelWidth(): () => void {
    const tl = this.ctx.timeline;
    if (!tl.labelWidth || !tl.onViewChange) return () => {};
    const width = tl.labelWidth.bind(tl);
    this.labelWidth = width();
    return tl.onViewChange(() => {
      if (width() === this.labelWidth) return;
      this.labelWidth = width();
      this.chart?.scheduleRedraw();
      this.debouncedLoad(); // as many buckets as the plot is wide
    });
  }

  unmount(): void {
    releaseChartView(this.seq, this.debouncedLoad, this.unsubscribe, this.chart);
    this.chart = null;
  }

  exportSize(): { width: number; height: number } {
    return { width: this.chart?.width ?? 800, height: this.chart?.height ?? this.height };
  }

  plot(width: number, height: number): Plot {
    return {
      x: this.labelWidth,
      y: TOP,
      w: Math.max(1, width - this.labelWidth - this.rightMargin),
      h: Math.max(1, height - TOP - BOTTOM),
    };
  }

  paint(p: Painter): void {
    const plot = this.plot(p.width, p.height);
    if (this.chart) {
      // Test hooks: the time axis's left end; 1 when the answer drawn spans the window.
      const d = this.chart.canvas.dataset;
      d['plotLeft'] = String(plot.x);
      const r = this.result;
      d['covers'] = r && r.from <= this.win.from && r.to >= Math.min(this.win.to, this.ctx.summary.duration) ? '1' : '0';
    }
    const unit = this.result?.unit === 'process' ? 'processes' : 'threads';
    const units = this.result?.unit === 'process' ? this.ctx.summary.processes.length : this.ctx.summary.threads.length;
    let yMax = Math.max(1, units);
    const r = this.result;
    if (r) {
      for (let b = 0; b < r.buckets; b++) {
        let sum = 0;
        for (const v of r.values) sum += v[b] ?? 0;
        yMax = Math.max(yMax, sum);
      }
    }
    // Label column: the y axis in threads.
    p.text(4, plot.y + 6, unit, { color: TEXT, font: FONT, align: 'left', baseline: 'middle' });
    const ticks = niceTicks(0, yMax, Math.max(1, Math.floor(plot.h / 18))).filter((v) => Number.isInteger(v));
    for (const v of ticks) {
      const y = plot.y + plot.h - (v / yMax) * plot.h;
      p.line(plot.x - 3, y, plot.x, y, AXIS);
      p.text(plot.x - 5, y, String(v), { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
    }
    p.line(plot.x, plot.y, plot.x, plot.y + plot.h, AXIS);
    p.line(plot.x, plot.y + plot.h, plot.x + plot.w, plot.y + plot.h, AXIS);
    // Time labels along the bottom, on the timeline's axis.
    const span = this.win.to - this.win.from;
    if (span > 0) {
      // The timeline ruler's ticks (base/ticks.ts, same count per width): the two axes line up.
      const tv = rulerTicks(this.win.from, this.win.to, Math.max(2, Math.floor(plot.w / 110))).values;
      const labels = formatDurationTicks(tv, true);
      tv.forEach((t, i) => {
        const x = timeToX(t, this.win, plot);
        p.line(x, plot.y + plot.h, x, plot.y + plot.h + 3, AXIS);
        // Labels at the edges stay inside the picture.
        const half = p.measureText(labels[i]!, FONT) / 2;
        const align = x + half > p.width ? 'right' : 'center';
        p.text(align === 'right' ? p.width - 1 : x, plot.y + plot.h + 4, labels[i]!, { color: TEXT, font: FONT, align, baseline: 'top' });
      });
    }
    if (!r) return;
    p.save();
    p.clip(plot.x, plot.y, plot.w, plot.h);
    for (const a of stackAreas(r, (s) => this.ctx.states.visible(s), this.win, plot, yMax)) {
      p.polygon(a.points, this.ctx.states.color(a.state));
    }
    if (this.hoverX !== null) p.line(this.hoverX, plot.y, this.hoverX, plot.y + plot.h, '#000000');
    const cx = timeToX(this.ctx.replay.time(), this.win, plot);
    if (cx >= plot.x && cx <= plot.x + plot.w) p.line(cx, plot.y, cx, plot.y + plot.h, REPLAY_COLOR, 2);
    p.restore();
  }

  /** The buckets the plot is wide, and the cache key of window `w` at them. */
  private keyOf(w: TimeWindow): { buckets: number; key: string } | null {
    if (!this.chart || !(w.to > w.from)) return null;
    const buckets = bucketsFor(this.plot(this.chart.width, this.chart.height).w);
    return { buckets, key: `${w.from}|${w.to}|${buckets}` };
  }

  /** Draws the window's answer if it is kept; false when it is not. */
  private fromCache(): boolean {
    const k = this.keyOf(this.win);
    const r = k ? this.cache.get(k.key) : undefined;
    if (!r) return false;
    this.seq.next(); // an answer still on its way is of an older window
    this.debouncedLoad.cancel();
    this.status.clear();
    this.result = r;
    this.chart?.redraw();
    return true;
  }

  /** The replay cursor at `t`: asks for the page the timeline turns to next, once it is past the middle. */
  private fetchAhead(t: number): void {
    const dir = Number.isNaN(this.cursorAt) ? 0 : Math.sign(t - this.cursorAt);
    this.cursorAt = t;
    const next = nextPage(this.win, t, dir);
    const k = next ? this.keyOf(clampWindow(next, this.ctx.summary.duration)) : null;
    if (!next || !k || this.cache.has(k.key) || this.asked.has(k.key)) return;
    const w = clampWindow(next, this.ctx.summary.duration);
    this.asked.add(k.key);
    this.ctx.api
      .get('mountain', { from: w.from, to: w.to, buckets: k.buckets, unit: 'thread' })
      .then((r) => {
        this.cache.set(k.key, r);
        // The page turned while it was on its way: it is the one to draw.
        if (this.keyOf(this.win)?.key === k.key) this.fromCache();
      })
      .catch(() => {}) // the turn asks again, and says why if it fails
      .finally(() => this.asked.delete(k.key));
  }

  private load(): void {
    if (this.fromCache()) return;
    const k = this.keyOf(this.win);
    if (!k) return;
    const { from, to } = this.win;
    const n = this.seq.next();
    if (!this.result) this.status.loading();
    this.ctx.api
      .get('mountain', { from, to, buckets: k.buckets, unit: 'thread' })
      .then((r) => {
        this.cache.set(k.key, r);
        if (!this.seq.isCurrent(n)) return; // a newer window was asked for
        this.status.clear();
        this.result = r;
        this.chart?.redraw();
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.error(err);
      });
  }

  private hover(x: number | null): void {
    const r = this.result;
    if (!this.chart || !r || x === null) {
      this.tooltip.hidden = true;
      if (this.hoverX !== null) {
        this.hoverX = null;
        this.chart?.scheduleRedraw();
      }
      return;
    }
    const plot = this.plot(this.chart.width, this.chart.height);
    const b = bucketAt(r, this.win, plot, x);
    if (b < 0) {
      this.hover(null);
      return;
    }
    const t = this.win.from + ((x - plot.x) / plot.w) * (this.win.to - this.win.from);
    const names = new Map(this.ctx.summary.states.map((s) => [s.index, s.name]));
    const rows = bucketValues(r, b, (s) => this.ctx.states.visible(s));
    this.tooltip.replaceChildren(
      el('div', { class: 'tooltip-title' }, formatTime(t, resolutionFor((this.win.to - this.win.from) / plot.w))),
      ...rows.map((v) => {
        const sw = el('span', { class: 'swatch' });
        sw.style.display = 'inline-block';
        sw.style.width = '8px';
        sw.style.height = '8px';
        sw.style.marginRight = '4px';
        sw.style.background = this.ctx.states.color(v.state);
        return el('div', { 'data-state': v.state }, sw, `${names.get(v.state) ?? `state ${v.state}`}: ${formatAverage(v.value)}`);
      }),
    );
    if (rows.length === 0) this.tooltip.append(el('div', {}, 'nothing'));
    this.tooltip.hidden = false;
    const left = x + 12 + 180 > this.chart.width ? x - 190 : x + 12;
    this.tooltip.style.left = `${Math.max(0, left)}px`;
    this.tooltip.style.top = `${plot.y}px`;
    this.hoverX = x;
    this.chart.scheduleRedraw();
  }
}

/** A factory with another label column width (the timeline's). */
export function mountainView(options: MountainOptions = {}): ViewFactory {
  return {
    id: 'mountain',
    title: 'Mountain range',
    create: (ctx) => new MountainView(ctx, options),
  };
}

export const MOUNTAIN_VIEW: ViewFactory = mountainView();
