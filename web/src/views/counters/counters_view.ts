// The counter views: a lights matrix (processes × metrics, cold →
// hot) and bars per process at the replay cursor, from /at, and line graphs of
// chosen tracks over the timeline's window, from tile counter points.
import { decodeTile, type TilePoints } from '../../engine/tile';
import type { AtResult, TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { ChartCanvas } from '../common/chart_canvas';
import { debounce, el, releaseChartView, RequestSeq, StatusLine, tooltipElement } from '../common/dom';
import { formatTime } from '../common/format';
import type { View, ViewContext, ViewFactory } from '../context';
import { layoutBars, layoutLights, layoutLines, lightsCellAt, type LightsLayout } from './counters_layout';
import { buildModel, type CounterModel, defaultTracks, metricLabel, valuesAt } from './counters_model';
import { paintBars, paintLights, paintLines } from './counters_paint';
import { DerivedPanel } from './derived_panel';
import { LatestRequest } from '../common/latest_request';

export type CounterMode = 'lights' | 'bars' | 'lines';
export const MODES: readonly [CounterMode, string][] = [
  ['lights', 'Lights'],
  ['bars', 'Bars'],
  ['lines', 'Lines'],
];
const BARS_HEIGHT = 260;
const MIN_HEIGHT = 80;
const estimateWidth = (s: string): number => s.length * 6.5;

export interface CountersOptions {
  /** Wait after the last timeline window change before fetching a tile (ms). */
  debounceMs?: number;
}

export class CountersView implements View {
  private readonly status = new StatusLine();
  private readonly tileSeq = new RequestSeq();
  private readonly atRequest: LatestRequest<number, AtResult>;
  private readonly debouncedTile: ReturnType<typeof debounce<[]>>;
  private summary: TraceSummary;
  private model: CounterModel;
  private mode: CounterMode = 'lights';
  private metric = 0;
  private tracks: number[];
  private values = new Map<number, number>();
  /** the time of the shown /at answer; NaN before the first */
  private atTime = NaN;
  private points: TilePoints | null = null;
  private hovered: { unit: number; metric: number } | null = null;
  private chart: ChartCanvas | null = null;
  private unsubscribe: (() => void)[] = [];
  private modeButtons = new Map<CounterMode, HTMLButtonElement>();
  private metricSelect!: HTMLSelectElement;
  private trackBox!: HTMLDivElement;
  private empty!: HTMLDivElement;
  private chartBox!: HTMLDivElement;
  private tooltip!: HTMLDivElement;
  /** the derived series, under the lines */
  private derived: DerivedPanel | null = null;

  constructor(
    private readonly ctx: ViewContext,
    options: CountersOptions = {},
  ) {
    this.summary = ctx.summary;
    this.model = buildModel(ctx.summary);
    this.tracks = defaultTracks(this.model, 0);
    this.atRequest = new LatestRequest(
      (t) => this.ctx.api.get('at', { t, limit: 0 }),
      (r, t) => {
        this.status.clear();
        this.values = valuesAt(r);
        this.atTime = t;
        this.chart?.redraw();
      },
      (err) => this.status.error(err),
    );
    this.debouncedTile = debounce(() => this.loadTile(), options.debounceMs ?? 100);
  }

  mount(host: HTMLElement): void {
    host.classList.add('counters-view');
    const modes = el('span', { class: 'button-group', role: 'group', 'aria-label': 'display' });
    for (const [m, label] of MODES) {
      const b = el('button', { type: 'button', 'data-testid': `counters-mode-${m}` }, label);
      b.addEventListener('click', () => this.setMode(m));
      this.modeButtons.set(m, b);
      modes.append(b);
    }
    this.metricSelect = el('select', { 'data-testid': 'counters-metric', 'aria-label': 'counter' });
    this.metricSelect.addEventListener('change', () => this.setMetric(Number(this.metricSelect.value)));
    this.trackBox = el('div', { class: 'view-controls', 'data-testid': 'counters-tracks' });
    this.empty = el('div', { class: 'view-message', 'data-testid': 'counters-empty' }, 'this trace has no counters');
    this.chartBox = el('div', { class: 'chart-box' });
    this.chartBox.style.position = 'relative';
    this.tooltip = tooltipElement('counters-tooltip');
    host.append(
      el('div', { class: 'view-controls' }, modes, el('span', { class: 'label' }, ' counter '), this.metricSelect),
      this.trackBox,
      this.status.element,
      this.empty,
      this.chartBox,
    );
    this.derived = new DerivedPanel(this.ctx);
    host.append(this.derived.element);
    this.derived.attach();
    this.chart = new ChartCanvas(
      (p) => {
        this.paint(p);
        this.exposeLayout();
      },
      { height: MIN_HEIGHT, testid: 'counters-chart', heightFor: (w) => this.heightFor(w), onResize: () => this.mode === 'lines' && this.debouncedTile() },
    );
    this.chart.attach(this.chartBox);
    this.chartBox.append(this.tooltip);
    this.chart.canvas.addEventListener('mousemove', (ev) => this.hover(ev));
    this.chart.canvas.addEventListener('mouseleave', () => this.setHovered(null, 0, 0));
    this.unsubscribe.push(
      this.ctx.replay.onMove((t) => {
        if (this.mode === 'lines') this.chart?.scheduleRedraw();
        else this.atRequest.request(t);
      }),
      this.ctx.timeline.onWindowChange(() => {
        if (this.mode === 'lines') this.debouncedTile();
      }),
      this.ctx.updates.onUpdate((s) => {
        this.summary = s;
        this.model = buildModel(s);
        if (this.metric >= this.model.metrics.length) this.metric = 0;
        this.tracks = this.tracks.filter((t) => this.model.place.has(t));
        if (this.tracks.length === 0) this.tracks = defaultTracks(this.model, this.metric);
        this.refresh(true);
      }),
    );
    this.refresh(true);
  }

  unmount(): void {
    this.atRequest.cancel();
    this.derived?.detach();
    this.derived = null;
    releaseChartView(this.tileSeq, this.debouncedTile, this.unsubscribe, this.chart);
    this.chart = null;
  }

  exportSize(): { width: number; height: number } {
    const width = this.chart?.width ?? 800;
    return { width, height: this.heightFor(width) };
  }

  paint(p: Painter): void {
    if (this.model.metrics.length === 0) return;
    const time = Number.isNaN(this.atTime) ? this.ctx.replay.time() : this.atTime;
    if (this.mode === 'lights') {
      paintLights(p, this.model, this.values, this.lightsLayout(p.width), time, this.hovered);
    } else if (this.mode === 'bars') {
      paintBars(p, this.model, this.metric, layoutBars(this.model, this.metric, this.values, p.width, p.height), time);
    } else {
      paintLines(p, this.model, this.tracks, this.points, this.ctx.timeline.window(), this.summary.duration, this.ctx.replay.time());
    }
  }

  /** Switches the sub-view. */
  setMode(m: CounterMode): void {
    if (m === this.mode) return;
    this.mode = m;
    this.setHovered(null, 0, 0);
    this.refresh(false);
  }

  private setMetric(m: number): void {
    this.metric = m;
    this.tracks = defaultTracks(this.model, m);
    this.refresh(false);
  }

  /** Rebuilds the controls and fetches what the sub-view shows (`force`: even if it is current). */
  private refresh(force: boolean): void {
    if (!this.chart) return;
    const none = this.model.metrics.length === 0;
    this.empty.hidden = !none;
    this.chartBox.hidden = none;
    for (const [m, b] of this.modeButtons) {
      b.classList.toggle('active', m === this.mode);
      b.setAttribute('aria-pressed', String(m === this.mode));
    }
    this.metricSelect.replaceChildren(...this.model.metrics.map((m, i) => el('option', { value: i }, metricLabel(m))));
    this.metricSelect.value = String(this.metric);
    this.metricSelect.disabled = this.mode === 'lights';
    this.buildTrackBox();
    if (this.derived) this.derived.element.hidden = this.mode !== 'lines';
    if (none) {
      if (this.mode === 'lines') this.derived?.load();
      return;
    }
    if (this.mode === 'lines') {
      // The window may have moved while another sub-view was shown.
      this.loadTile();
    } else {
      const t = this.ctx.replay.time();
      if (force || t !== this.atTime) this.atRequest.request(t);
      this.chart.redraw();
    }
  }

  private buildTrackBox(): void {
    this.trackBox.hidden = this.mode !== 'lines';
    if (this.trackBox.hidden) return;
    const chosen = new Set(this.tracks);
    const boxes = (this.model.metrics[this.metric]?.tracks ?? []).map((track) => {
      const box = el('input', { type: 'checkbox', 'data-testid': `counters-track-${track}` });
      box.checked = chosen.has(track);
      box.addEventListener('change', () => {
        this.tracks = box.checked ? [...this.tracks, track].sort((a, b) => a - b) : this.tracks.filter((t) => t !== track);
        this.loadTile();
      });
      const at = this.model.place.get(track);
      return el('label', { class: 'toggle' }, box, at ? this.model.units[at[0]]!.label : `track ${track}`);
    });
    this.trackBox.replaceChildren(el('span', { class: 'label' }, 'tracks '), ...boxes);
  }

  private loadTile(): void {
    if (!this.chart) return;
    this.derived?.load();
    const { from, to } = this.ctx.timeline.window();
    const n = this.tileSeq.next();
    if (this.tracks.length === 0 || !(to > from)) {
      this.points = null;
      this.chart.redraw();
      return;
    }
    const rows = [...new Set(this.tracks.map((t) => this.summary.counters[t]?.thread ?? 0))].sort((a, b) => a - b);
    const width = Math.max(1, Math.min(16384, Math.round(layoutLines(this.tracks, this.chart.width).plot.w)));
    this.ctx.api
      .get('tile', { rows, from, to, width, arrows: false, counters: this.tracks })
      .then((buf) => {
        if (!this.tileSeq.isCurrent(n)) return;
        this.status.clear();
        this.points = decodeTile(buf).points;
        this.chart?.redraw();
      })
      .catch((err: unknown) => {
        if (this.tileSeq.isCurrent(n)) this.status.error(err);
      });
  }

  private heightFor(width: number): number {
    if (this.model.metrics.length === 0) return MIN_HEIGHT;
    if (this.mode === 'lights') return Math.max(MIN_HEIGHT, this.lightsLayout(width).height);
    if (this.mode === 'bars') return BARS_HEIGHT;
    return Math.max(MIN_HEIGHT, layoutLines(this.tracks, width).height);
  }

  private lightsLayout(width: number): LightsLayout {
    return layoutLights(this.model, width, estimateWidth);
  }

  private hover(ev: MouseEvent): void {
    if (!this.chart || this.mode !== 'lights') return;
    const { x, y } = this.chart.eventPos(ev);
    this.setHovered(lightsCellAt(this.lightsLayout(this.chart.width), x, y), x, y);
  }

  private setHovered(cell: { unit: number; metric: number } | null, x: number, y: number): void {
    const same = cell?.unit === this.hovered?.unit && cell?.metric === this.hovered?.metric;
    this.hovered = cell;
    const track = cell ? (this.model.cells[cell.unit]?.[cell.metric] ?? -1) : -1;
    if (!cell || track < 0) {
      this.tooltip.hidden = true;
    } else {
      const m = this.model.metrics[cell.metric]!;
      const v = this.values.get(track);
      this.tooltip.textContent = `${this.model.units[cell.unit]!.label}, ${metricLabel(m)}: ${v === undefined ? 'no sample yet' : String(v)} (range ${m.min} .. ${m.max}) at ${formatTime(this.atTime)}`;
      this.tooltip.hidden = false;
      this.tooltip.style.left = `${x + 12}px`;
      this.tooltip.style.top = `${y + 12}px`;
    }
    if (!same) this.chart?.scheduleRedraw();
  }

  /** The drawing's coordinates for end-to-end tests, on the canvas's data-* attributes. */
  private exposeLayout(): void {
    const c = this.chart?.canvas;
    if (!c) return;
    const l = this.lightsLayout(this.chart!.width);
    Object.assign(c.dataset, {
      mode: this.mode,
      time: String(this.atTime),
      left: String(l.left),
      top: String(l.top),
      cellW: String(l.cellW),
      cellH: String(l.cellH),
    });
  }
}

export const COUNTERS_VIEW: ViewFactory = {
  id: 'counters',
  title: 'Counters',
  create: (ctx) => new CountersView(ctx),
  followsUpdates: true,
};
