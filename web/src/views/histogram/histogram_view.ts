// The duration histogram of one state, with the anomalous slices selected
// (robust outliers or above a percentile), blinked in the timeline and listed.
// Like the Statistics tab it covers the timeline's area selection when there
// is one, else its window when zoomed in (common/panel_window.ts): the slices
// there, with their whole durations.
import type { AnomalyRef, HistogramParams, HistogramResult } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { ChartCanvas } from '../common/chart_canvas';
import { debounce, el, onActivate, releaseChartView, RequestSeq, StatusLine } from '../common/dom';
import { formatCount, formatDuration, formatTimeSpan } from '../common/format';
import type { View, ViewContext, ViewFactory } from '../context';
import { currentPanelWindow, followPanelWindow, markPanelWindow, windowLine, windowParams, type PanelWindow } from '../common/panel_window';
import { barAt, layoutHistogram, type HistogramLayout } from './histogram_layout';

/** Selection methods offered as buttons: robust outliers, then percentiles. */
export const SELECT_METHODS: readonly { id: string; label: string; method: string; percentile?: number }[] = [
  { id: 'robust', label: 'robust outliers', method: 'robust' },
  { id: 'p90', label: '> p90', method: 'percentile', percentile: 90 },
  { id: 'p95', label: '> p95', method: 'percentile', percentile: 95 },
  { id: 'p99', label: '> p99', method: 'percentile', percentile: 99 },
  { id: 'p99.9', label: '> p99.9', method: 'percentile', percentile: 99.9 },
];

export const DEFAULT_BINS = 20;
export const MAX_BINS = 200;
/** Selected slices asked for and listed. */
export const SELECTION_LIMIT = 1000;

const CHART_HEIGHT = 260;
const HIGHLIGHT = '#e6194b';
const AXIS = '#757575';
const GRID = '#e6e6e6';
const TEXT = '#333333';
const FONT = '11px sans-serif';

export class HistogramView implements View {
  private host: HTMLElement | null = null;
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private chart: ChartCanvas | null = null;
  private result: HistogramResult | null = null;
  private resultLog = false;
  private state = -1;
  private bins = DEFAULT_BINS;
  private log = false;
  private method = SELECT_METHODS[0]!;
  private lastKey = '';
  private unsubscribe: (() => void)[] = [];
  private readonly debouncedLoad = debounce(() => this.load(), 150);

  private stateSelect!: HTMLSelectElement;
  private binsInput!: HTMLInputElement;
  private binsLabel!: HTMLSpanElement;
  private logInput!: HTMLInputElement;
  private methodButtons = new Map<string, HTMLButtonElement>();
  private countLine!: HTMLDivElement;
  private windowInfo!: HTMLDivElement;
  private list!: HTMLOListElement;

  constructor(private readonly ctx: ViewContext) {}

  mount(host: HTMLElement): void {
    this.host = host;
    host.classList.add('histogram-view');
    const controls = el('div', { class: 'view-controls' });

    this.stateSelect = el('select', { 'data-testid': 'state', 'aria-label': 'state' });
    for (const s of this.ctx.summary.states) this.stateSelect.append(el('option', { value: s.index }, s.name));
    this.stateSelect.addEventListener('change', () => {
      this.state = Number(this.stateSelect.value);
      this.load();
    });

    this.binsInput = el('input', {
      type: 'range',
      min: 1,
      max: MAX_BINS,
      step: 1,
      value: this.bins,
      'data-testid': 'bins',
      'aria-label': 'bins',
    });
    this.binsLabel = el('span', { class: 'bins-value', 'data-testid': 'bins-value' }, String(this.bins));
    const onBins = (now: boolean): void => {
      this.bins = clampBins(Number(this.binsInput.value));
      this.binsLabel.textContent = String(this.bins);
      if (now) {
        this.debouncedLoad.cancel();
        this.load();
      } else {
        this.debouncedLoad();
      }
    };
    this.binsInput.addEventListener('input', () => onBins(false));
    this.binsInput.addEventListener('change', () => onBins(true));

    this.logInput = el('input', { type: 'checkbox', 'data-testid': 'log-bins' });
    this.logInput.addEventListener('change', () => {
      this.log = this.logInput.checked;
      this.load();
    });

    const methods = el('span', { class: 'button-group', role: 'group', 'aria-label': 'select slices' });
    for (const m of SELECT_METHODS) {
      const b = el('button', { type: 'button', 'data-testid': `select-${m.id}` }, m.label);
      b.addEventListener('click', () => {
        this.method = m;
        this.updateMethodButtons();
        this.load();
      });
      this.methodButtons.set(m.id, b);
      methods.append(b);
    }
    this.updateMethodButtons();

    controls.append(
      el('label', {}, 'State ', this.stateSelect),
      el('label', {}, 'Bins ', this.binsInput, this.binsLabel),
      el('label', {}, this.logInput, ' log bins'),
      el('span', { class: 'label' }, 'Select: '),
      methods,
    );

    const chartBox = el('div', { class: 'chart-box' });
    this.chart = new ChartCanvas((p) => this.paint(p), { height: CHART_HEIGHT, testid: 'histogram-chart' });
    this.countLine = el('div', { class: 'selection-count', 'data-testid': 'selected-count' });
    this.list = el('ol', { class: 'selection-list', 'data-testid': 'selection-list' });
    this.windowInfo = el('div', { class: 'stats-info histogram-window', 'data-testid': 'histogram-window' });
    host.append(controls, this.status.element, this.windowInfo, chartBox, this.countLine, this.list);
    this.chart.attach(chartBox);
    this.chart.canvas.addEventListener('mousemove', (ev) => this.hover(ev));
    this.unsubscribe.push(this.ctx.states.onChange(() => this.chart?.redraw()));
    // A new area or a rested window asks again when that changes the request (load's key).
    this.unsubscribe.push(followPanelWindow(this.ctx.timeline, () => this.load()));

    if (this.ctx.summary.states.length === 0) {
      this.status.message('no states in this trace');
      return;
    }
    this.pickDefaultState();
  }

  unmount(): void {
    releaseChartView(this.seq, this.debouncedLoad, this.unsubscribe, this.chart);
    this.chart = null;
    this.ctx.timeline.highlight([]);
    markPanelWindow(this.host, null);
    this.host = null;
  }

  exportSize(): { width: number; height: number } {
    return { width: this.chart?.width ?? 800, height: this.chart?.height ?? CHART_HEIGHT };
  }

  paint(p: Painter): void {
    const r = this.result;
    if (!r) {
      p.text(p.width / 2, p.height / 2, this.status.text || 'no data', { color: AXIS, font: FONT, align: 'center', baseline: 'middle' });
      return;
    }
    const layout = layoutHistogram(r, p.width, p.height, this.resultLog);
    paintHistogram(p, layout, r, {
      color: this.ctx.states.color(r.state),
      title: `${this.stateName(r.state)} — ${formatCount(r.total)} slices`,
    });
  }

  /** The state with the most total time (from stats), else the first state. */
  private pickDefaultState(): void {
    const n = this.seq.next();
    this.status.loading();
    this.ctx.api
      .get('stats', {})
      .then((stats) => {
        if (!this.seq.isCurrent(n)) return;
        let best = -1;
        let bestTotal = -Infinity;
        for (const row of stats.rows) {
          if (row.total > bestTotal) {
            bestTotal = row.total;
            best = row.state;
          }
        }
        this.state = best >= 0 ? best : this.ctx.summary.states[0]!.index;
        this.stateSelect.value = String(this.state);
        this.load();
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.error(err);
      });
  }

  /** The part of the trace to cover now: the area selection, the zoomed window or the whole trace. */
  private window(): PanelWindow {
    return currentPanelWindow(this.ctx.timeline, this.ctx.summary.duration);
  }

  private params(w: PanelWindow): HistogramParams {
    const p: HistogramParams = {
      state: this.state,
      bins: this.bins,
      log: this.log,
      method: this.method.method,
      limit: SELECTION_LIMIT,
    };
    if (this.method.percentile !== undefined) p.percentile = this.method.percentile;
    return { ...p, ...windowParams(w) };
  }

  private load(): void {
    if (this.state < 0 || !this.host) return;
    const w = this.window();
    const params = this.params(w);
    const key = JSON.stringify(params);
    if (key === this.lastKey) return;
    this.lastKey = key;
    const n = this.seq.next();
    this.host.setAttribute('data-pending', 'true');
    this.status.loading();
    this.ctx.api
      .get('histogram', params)
      .then((r) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        this.result = r;
        this.resultLog = params.log === true;
        this.showWindow(w, r);
        this.showSelection(r);
        this.chart?.redraw();
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.lastKey = ''; // let the same request be tried again
        this.host?.removeAttribute('data-pending');
        this.status.error(err);
      });
  }

  /** Says which part of the trace the bars cover, on the panel (data-scope, …) and in its line; the chart carries its counts. */
  private showWindow(w: PanelWindow, r: HistogramResult): void {
    this.windowInfo.textContent = windowLine(w);
    markPanelWindow(this.host, w);
    this.host?.removeAttribute('data-pending');
    if (this.chart) {
      this.chart.canvas.dataset['counts'] = r.counts.join(',');
      this.chart.canvas.dataset['total'] = String(r.total);
    }
  }

  private showSelection(r: HistogramResult): void {
    this.ctx.timeline.highlight(r.selection.map((a) => a.slice));
    const shown = r.selection.length;
    this.countLine.textContent =
      `${formatCount(r.selected)} selected` +
      (r.selected > shown ? ` (the ${formatCount(shown)} longest listed)` : '') +
      ` of ${formatCount(r.total)}`;
    this.list.replaceChildren(...r.selection.map((a) => this.selectionItem(a)));
  }

  private selectionItem(a: AnomalyRef): HTMLLIElement {
    const s = a.slice;
    const thread = this.ctx.summary.threads[s.row];
    const ratio = a.median > 0 ? ` (${(a.duration / a.median).toFixed(1)}× median)` : '';
    const li = el(
      'li',
      { 'data-testid': 'selected-slice', 'data-slice': s.id, tabindex: 0, role: 'button', class: 'clickable' },
      `${formatDuration(a.duration)}${ratio} — ${thread?.name ?? `row ${s.row}`} at ${formatTimeSpan(s.begin, s.end)[0]}`,
    );
    onActivate(li, () => this.ctx.timeline.jumpTo({ row: s.row, begin: s.begin, end: s.end, slice: s.id }));
    return li;
  }

  private hover(ev: MouseEvent): void {
    if (!this.chart || !this.result) return;
    const { x, y } = this.chart.eventPos(ev);
    const layout: HistogramLayout = layoutHistogram(this.result, this.chart.width, this.chart.height, this.resultLog);
    const bar = barAt(layout, x, y);
    const e = this.result.edges;
    this.chart.canvas.title = bar
      ? `${formatDuration(e[bar.bin]!)} – ${formatDuration(e[bar.bin + 1]!)}: ${formatCount(bar.count)} slices` +
        (bar.selected ? ' (with selected ones)' : '')
      : '';
  }

  private updateMethodButtons(): void {
    for (const [id, b] of this.methodButtons) {
      const on = id === this.method.id;
      b.classList.toggle('active', on);
      b.setAttribute('aria-pressed', String(on));
    }
  }

  private stateName(state: number): string {
    return this.ctx.summary.states.find((s) => s.index === state)?.name ?? `state ${state}`;
  }
}

export function clampBins(v: number): number {
  if (!Number.isFinite(v)) return DEFAULT_BINS;
  return Math.min(MAX_BINS, Math.max(1, Math.round(v)));
}

/** Draws a laid-out histogram: grid, bars (selected ones highlighted), axes, title. */
export function paintHistogram(
  p: Painter,
  layout: HistogramLayout,
  r: HistogramResult,
  style: { color: string; title: string },
): void {
  const { plot } = layout;
  for (const t of layout.yTicks) {
    p.line(plot.x, t.pos, plot.x + plot.w, t.pos, GRID);
    p.text(plot.x - 6, t.pos, t.label, { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
  }
  p.save();
  p.clip(plot.x, plot.y, plot.w, plot.h + 1);
  for (const b of layout.bars) {
    if (b.count <= 0) continue;
    // At least one pixel high, so a bin with a single slice is visible.
    const h = Math.max(1, b.h);
    p.fillRect(b.x, plot.y + plot.h - h, Math.max(1, b.w), h, b.selected ? HIGHLIGHT : style.color);
  }
  p.restore();
  // A strip under the axis marks the selected bins, however few slices they hold.
  for (const b of layout.bars) {
    if (b.selected) p.fillRect(b.x, plot.y + plot.h + 1, Math.max(2, b.w), 3, HIGHLIGHT);
  }
  p.line(plot.x, plot.y + plot.h, plot.x + plot.w, plot.y + plot.h, AXIS);
  p.line(plot.x, plot.y, plot.x, plot.y + plot.h, AXIS);
  for (const t of layout.xTicks) {
    p.line(t.pos, plot.y + plot.h, t.pos, plot.y + plot.h + 4, AXIS);
    p.text(t.pos, plot.y + plot.h + 8, t.label, { color: TEXT, font: FONT, align: 'center', baseline: 'top' });
  }
  p.text(plot.x, 12, style.title, { color: TEXT, font: 'bold 12px sans-serif', align: 'left', baseline: 'middle' });
  if (r.selected > 0) {
    const legend = `${formatCount(r.selected)} selected`;
    const w = p.measureText(legend, FONT);
    p.fillRect(plot.x + plot.w - w - 16, 7, 10, 10, HIGHLIGHT);
    p.text(plot.x + plot.w, 12, legend, { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
  }
  if (r.total === 0) {
    p.text(plot.x + plot.w / 2, plot.y + plot.h / 2, 'no slices of this state', {
      color: AXIS,
      font: FONT,
      align: 'center',
      baseline: 'middle',
    });
  }
}

export const HISTOGRAM_VIEW: ViewFactory = {
  id: 'histogram',
  title: 'Histogram',
  create: (ctx) => new HistogramView(ctx),
};
