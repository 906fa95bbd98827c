// The derived series under the counters view's lines: "Add series…" picks a
// source (time in states per thread or process, a category, a counter
// metric) and chains filters (chips, removable); every series is fetched
// for the timeline's window (/series, or a tile of the metric's tracks),
// filtered, and drawn as a strip. The canvas's data-derived attribute holds
// what is drawn (window, buckets and values) for end-to-end tests.
import { decodeTile } from '../../engine/tile';
import { ChartCanvas } from '../common/chart_canvas';
import { el, RequestSeq } from '../common/dom';
import type { ViewContext } from '../context';
import {
  applyFilters,
  bucketEdges,
  counterBuckets,
  derivedSeries,
  FILTER_KINDS,
  type Filter,
  filterLabel,
  onDerivedSeriesChange,
  type SeriesData,
  type SeriesSpec,
  seriesTitle,
  setDerivedSeries,
  type SourceKind,
} from './derived';
import { type DerivedStrip, derivedHeight, LEFT, paintDerived } from './derived_paint';

const SOURCES: readonly [SourceKind, string][] = [
  ['st', 'time in states, per thread'],
  ['sp', 'time in states, per process'],
  ['cat', 'time in a category, per thread'],
  ['ctr', 'counter'],
];

export class DerivedPanel {
  readonly element = el('div', { class: 'derived-series', 'data-testid': 'derived-panel' });
  private readonly seq = new RequestSeq();
  private readonly chart: ChartCanvas;
  private strips: DerivedStrip[] = [];
  private shown: { from: number; to: number; buckets: number } = { from: 0, to: 0, buckets: 0 };
  private pending: Filter[] = [];
  private readonly list = el('div', { class: 'view-controls', 'data-testid': 'derived-list' });
  private readonly chips = el('span', { 'data-testid': 'derived-chips' });
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: ViewContext) {
    const option = ([k, l]: readonly [string, string]): HTMLOptionElement => el('option', { value: k }, l);
    const source = el('select', { 'data-testid': 'derived-source', 'aria-label': 'source' }, ...SOURCES.map(option));
    const name = el('input', { type: 'text', 'data-testid': 'derived-name', 'aria-label': 'states or counter', value: 'MPI_*', size: 14 });
    const filter = el('select', { 'data-testid': 'derived-filter', 'aria-label': 'filter' }, ...FILTER_KINDS.map(option));
    const arg = el('input', { type: 'number', 'data-testid': 'derived-arg', 'aria-label': 'k or n', value: '5', step: 'any' });
    arg.style.width = '5em';
    const addFilter = el('button', { type: 'button', 'data-testid': 'derived-add-filter' }, '+ filter');
    addFilter.addEventListener('click', () => {
      const k = filter.value as Filter['kind'];
      const v = Number(arg.value);
      if (k === 'scale') {
        if (Number.isFinite(v)) this.pending.push({ kind: k, k: v });
      } else if (k === 'avg' || k === 'min' || k === 'max') {
        if (Number.isInteger(v) && v >= 1 && v <= 9999) this.pending.push({ kind: k, n: v });
      } else this.pending.push({ kind: k });
      this.showChips();
    });
    const add = el('button', { type: 'button', 'data-testid': 'derived-add' }, 'Add series');
    add.addEventListener('click', () => {
      if (!name.value.trim()) return;
      setDerivedSeries([...derivedSeries(), { source: { kind: source.value as SourceKind, name: name.value.trim() }, filters: this.pending }]);
      this.pending = [];
      this.showChips();
    });
    this.chart = new ChartCanvas((p) => paintDerived(p, this.strips, this.shown), {
      height: 1,
      testid: 'derived-chart',
      heightFor: () => derivedHeight(this.strips.length),
      onResize: () => this.load(),
    });
    this.element.append(
      el('div', { class: 'view-controls' }, el('span', { class: 'label' }, 'Add series… '), source, name, filter, arg, addFilter, this.chips, add),
      this.list,
    );
    this.unsubscribe = onDerivedSeriesChange(() => this.load());
  }

  attach(): void {
    this.chart.attach(this.element);
    this.load();
  }

  detach(): void {
    this.seq.invalidate();
    this.unsubscribe();
    this.chart.detach();
  }

  private showChips(): void {
    this.chips.replaceChildren(
      ...this.pending.map((f, i) => {
        const chip = el('button', { type: 'button', class: 'chip', 'data-testid': `derived-chip-${i}`, title: 'remove' }, `${filterLabel(f)} ×`);
        chip.addEventListener('click', () => {
          this.pending.splice(i, 1);
          this.showChips();
        });
        return chip;
      }),
    );
  }

  private showList(list: readonly SeriesSpec[]): void {
    this.list.replaceChildren(
      ...list.map((s, i) => {
        const remove = el('button', { type: 'button', 'data-testid': `derived-remove-${i}`, title: 'remove this series' }, '×');
        remove.addEventListener('click', () => setDerivedSeries(derivedSeries().filter((_, j) => j !== i)));
        return el('span', { class: 'toggle', 'data-testid': `derived-series-${i}` }, seriesTitle(s), ' ', remove);
      }),
    );
  }

  /** Fetches every series for the timeline's window and repaints. */
  load(): void {
    const list = derivedSeries();
    this.showList(list);
    const { from, to } = this.ctx.timeline.window();
    const n = this.seq.next();
    const buckets = Math.max(1, Math.min(200, Math.floor((this.chart.width - LEFT - 10) / 4)));
    const lo = Math.max(0, Math.floor(from));
    const hi = Math.max(lo + 1, Math.ceil(to));
    this.strips = list.map((s) => ({ title: seriesTitle(s), data: null }));
    this.shown = { from: lo, to: hi, buckets };
    this.redraw();
    list.forEach((s, i) => {
      this.source(s, lo, hi, buckets)
        .then((raw) => {
          if (!this.seq.isCurrent(n)) return;
          this.strips[i] = { title: seriesTitle(s), data: applyFilters(raw, s.filters) };
          this.redraw();
        })
        .catch((err: unknown) => {
          if (!this.seq.isCurrent(n)) return;
          this.strips[i] = { title: seriesTitle(s), data: null, error: err instanceof Error ? err.message : String(err) };
          this.redraw();
        });
    });
  }

  private async source(s: SeriesSpec, from: number, to: number, buckets: number): Promise<SeriesData> {
    const { kind, name } = s.source;
    if (kind !== 'ctr') {
      const names = kind === 'cat' ? { category: name } : { states: name };
      const r = await this.ctx.api.get('series', { ...names, from, to, buckets, unit: kind === 'sp' ? 'process' : 'thread' });
      return { labels: r.labels, edges: r.edges, values: r.values };
    }
    const tracks = this.ctx.summary.counters.filter((c) => c.name === name);
    if (tracks.length === 0) throw new Error(`no counter ${name}`);
    const edges = bucketEdges(from, to, buckets);
    const rows = [...new Set(tracks.map((t) => t.thread))].sort((a, b) => a - b);
    const counters = tracks.map((t) => t.index);
    const buf = await this.ctx.api.get('tile', { rows, from, to, width: buckets * 4, arrows: false, counters });
    const points = decodeTile(buf).points;
    return { labels: counters.map((t) => `track ${t}`), edges, values: counterBuckets(points, counters, edges) };
  }

  private redraw(): void {
    this.chart.redraw();
    this.chart.canvas.dataset.derived = JSON.stringify({
      ...this.shown,
      series: this.strips.map((s) => ({
        title: s.title,
        labels: s.data?.labels ?? null,
        values: s.data?.values.map((r) => r.map((v) => (Number.isFinite(v) ? v : null))) ?? null,
        error: s.error ?? null,
      })),
    });
  }
}
