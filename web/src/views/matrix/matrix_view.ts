// The communication matrix: a heat map of messages (or one-sided accesses)
// from sender rows to receiver columns, by count, bytes or latency. Messages
// cover what the Statistics tab covers (common/panel_window.ts): the timeline's
// area selection, else its zoomed window, else the whole trace; RMA always
// covers the whole trace (/matrix takes no window for it).
import type { MatrixResult } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { ChartCanvas } from '../common/chart_canvas';
import { heatColor, textColorOn } from '../common/colors';
import { el, RequestSeq, StatusLine, tooltipElement } from '../common/dom';
import type { View, ViewContext, ViewFactory } from '../context';
import { currentPanelWindow, followPanelWindow, markPanelWindow, WHOLE_TRACE, windowKey, windowLine, windowParams, type PanelWindow } from '../common/panel_window';
import {
  cellAt,
  cellColor,
  describeCell,
  formatMetric,
  layoutMatrix,
  maxValue,
  METRICS,
  type MatrixLayout,
  type Metric,
} from './matrix_layout';

type Kind = 'messages' | 'rma';

const FONT = '11px sans-serif';
const TEXT = '#333333';
const GRID_LINE = '#ffffff';
const LEGEND_STEPS = 64;
const MIN_HEIGHT = 120;

/** Label width estimate for 11px sans-serif. */
const estimateWidth = (s: string): number => s.length * 6.5;
/** At most this many non-empty cells are listed in the chart's data-cells (for tests). */
const MAX_LISTED_CELLS = 400;

/** A kind's newest answer and the part of the trace it covers. */
interface Shown {
  window: PanelWindow;
  key: string;
  result: MatrixResult;
}

/** "i:j:count" of each non-empty cell, row by row, space-separated; null past `max` cells. */
export function cellList(r: MatrixResult, max = MAX_LISTED_CELLS): string | null {
  const cells: string[] = [];
  for (let i = 0; i < r.count.length; i++) {
    const row = r.count[i] ?? [];
    for (let j = 0; j < row.length; j++) {
      const c = row[j] ?? 0;
      if (c <= 0) continue;
      if (cells.length >= max) return null;
      cells.push(`${i}:${j}:${c}`);
    }
  }
  return cells.join(' ');
}

export class MatrixView implements View {
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private chart: ChartCanvas | null = null;
  private readonly results = new Map<Kind, Shown>();
  private kind: Kind = 'messages';
  private metric: Metric = 'count';
  private hovered: { row: number; col: number } | null = null;
  private mounted = false;
  private host: HTMLElement | null = null;
  private unfollow: (() => void) | null = null;
  /** the key of the newest asked (kind and window) */
  private askedKey = '';

  private buttons = new Map<string, HTMLButtonElement>();
  private empty!: HTMLDivElement;
  private windowInfo!: HTMLDivElement;
  private chartBox!: HTMLDivElement;
  private tooltip!: HTMLDivElement;

  constructor(private readonly ctx: ViewContext) {}

  mount(host: HTMLElement): void {
    this.mounted = true;
    this.host = host;
    host.classList.add('matrix-view');
    const kinds = el('span', { class: 'button-group', role: 'group', 'aria-label': 'kind' });
    for (const [k, label] of [
      ['messages', 'messages'],
      ['rma', 'RMA'],
    ] as const) {
      const b = el('button', { type: 'button', 'data-testid': `kind-${k}` }, label);
      b.addEventListener('click', () => this.setKind(k));
      this.buttons.set(`kind-${k}`, b);
      kinds.append(b);
    }
    const metrics = el('span', { class: 'button-group', role: 'group', 'aria-label': 'metric' });
    for (const m of METRICS) {
      const b = el('button', { type: 'button', 'data-testid': `metric-${m}` }, m);
      b.addEventListener('click', () => {
        this.metric = m;
        this.updateButtons();
        this.chart?.redraw();
      });
      this.buttons.set(`metric-${m}`, b);
      metrics.append(b);
    }
    this.windowInfo = el('div', { class: 'stats-info matrix-window', 'data-testid': 'matrix-window' });
    this.empty = el('div', { class: 'view-message', 'data-testid': 'matrix-empty' });
    this.empty.hidden = true;
    this.chartBox = el('div', { class: 'chart-box' });
    this.chartBox.style.position = 'relative';
    this.tooltip = tooltipElement('matrix-tooltip');
    host.append(
      el('div', { class: 'view-controls' }, el('span', { class: 'label' }, 'Show '), kinds, el('span', { class: 'label' }, ' by '), metrics),
      this.status.element,
      this.windowInfo,
      this.empty,
      this.chartBox,
    );
    this.chart = new ChartCanvas((p) => this.paint(p), {
      height: MIN_HEIGHT,
      testid: 'matrix-chart',
      heightFor: (width) => {
        const r = this.result();
        return r && r.total_count > 0 ? Math.max(MIN_HEIGHT, this.layout(r, width).height) : MIN_HEIGHT;
      },
    });
    this.chart.attach(this.chartBox);
    this.chartBox.append(this.tooltip);
    this.chart.canvas.addEventListener('mousemove', (ev) => this.hover(ev));
    this.chart.canvas.addEventListener('mouseleave', () => this.setHovered(null, 0, 0));
    this.updateButtons();
    this.unfollow = followPanelWindow(this.ctx.timeline, () => this.follow());
    this.load();
  }

  unmount(): void {
    this.mounted = false;
    this.seq.invalidate();
    this.unfollow?.();
    this.unfollow = null;
    markPanelWindow(this.host, null);
    this.host = null;
    this.chart?.detach();
    this.chart = null;
  }

  /** The shown kind's matrix (null before its first answer). */
  private result(): MatrixResult | null {
    return this.results.get(this.kind)?.result ?? null;
  }

  /** What `kind` covers now: messages the area, the zoomed window or the whole trace; RMA the whole trace. */
  private window(kind: Kind): PanelWindow {
    return kind === 'rma' ? WHOLE_TRACE : currentPanelWindow(this.ctx.timeline, this.ctx.summary.duration);
  }

  /** The selection or window changed: ask again when that changes what to ask for. */
  private follow(): void {
    if (`${this.kind}|${windowKey(this.window(this.kind))}` !== this.askedKey) this.load();
  }

  exportSize(): { width: number; height: number } {
    const width = this.chart?.width ?? 600;
    const r = this.result();
    return { width, height: r && r.total_count > 0 ? Math.max(MIN_HEIGHT, this.layout(r, width).height) : MIN_HEIGHT };
  }

  paint(p: Painter): void {
    const r = this.result();
    if (!r) return;
    if (r.labels.length === 0 || r.total_count === 0) {
      p.text(p.width / 2, 20, this.emptyText(), { color: TEXT, font: FONT, align: 'center', baseline: 'middle' });
      return;
    }
    paintMatrix(p, r, this.metric, this.layout(r, p.width), this.hovered);
  }

  /** The same estimate of label widths everywhere, so hover hits what paint drew. */
  private layout(r: MatrixResult, width: number): MatrixLayout {
    return layoutMatrix(r.labels, width, estimateWidth);
  }

  private setKind(k: Kind): void {
    if (k === this.kind) return;
    this.kind = k;
    if (k === 'rma' && this.metric === 'latency') this.metric = 'count';
    this.hovered = null;
    this.updateButtons();
    this.load();
  }

  private load(): void {
    if (!this.mounted) return;
    const kind = this.kind;
    const w = this.window(kind);
    const key = windowKey(w);
    this.askedKey = `${kind}|${key}`;
    const cached = this.results.get(kind);
    if (cached?.key === key) {
      this.seq.invalidate();
      this.status.clear();
      this.host?.removeAttribute('data-pending');
      this.show(cached);
      return;
    }
    const n = this.seq.next();
    this.host?.setAttribute('data-pending', 'true');
    this.status.loading();
    this.ctx.api
      .get('matrix', { kind, ...windowParams(w) })
      .then((result) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        this.host?.removeAttribute('data-pending');
        const shown = { window: w, key, result };
        this.results.set(kind, shown);
        this.show(shown);
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.host?.removeAttribute('data-pending');
        this.status.error(err);
      });
  }

  private show({ window, result: r }: Shown): void {
    this.windowInfo.textContent =
      `${windowLine(window)}${this.kind === 'rma' ? ' (RMA is counted over the whole trace)' : ''}: ` +
      `${r.total_count.toLocaleString('en-US')} ${this.kind === 'rma' ? 'accesses' : 'messages'}, ${r.total_bytes.toLocaleString('en-US')} bytes`;
    markPanelWindow(this.host, window);
    if (this.chart) {
      const c = this.chart.canvas;
      c.setAttribute('data-kind', r.kind);
      c.setAttribute('data-total-count', String(r.total_count));
      c.setAttribute('data-total-bytes', String(r.total_bytes));
      const cells = cellList(r);
      if (cells === null) c.removeAttribute('data-cells');
      else c.setAttribute('data-cells', cells);
    }
    const empty = r.labels.length === 0 || r.total_count === 0;
    this.empty.hidden = !empty;
    this.empty.textContent = empty ? this.emptyText() : '';
    this.chartBox.hidden = empty;
    this.tooltip.hidden = true;
    if (!this.chart || empty) return;
    this.chart.redraw();
  }

  private emptyText(): string {
    if (this.kind === 'rma') return 'no one-sided accesses (RMA)';
    const w = this.results.get('messages')?.window.kind ?? 'trace';
    return w === 'selection' ? 'no messages in the selection' : w === 'window' ? 'no messages in the zoomed window' : 'no messages';
  }

  private hover(ev: MouseEvent): void {
    const r = this.result();
    if (!this.chart || !r) return;
    const { x, y } = this.chart.eventPos(ev);
    const l = this.layout(r, this.chart.width);
    this.setHovered(cellAt(l, x, y), x, y);
  }

  private setHovered(cell: { row: number; col: number } | null, x: number, y: number): void {
    const r = this.result();
    const same = cell?.row === this.hovered?.row && cell?.col === this.hovered?.col;
    this.hovered = cell;
    if (!cell || !r) {
      this.tooltip.hidden = true;
    } else {
      this.tooltip.hidden = false;
      this.tooltip.textContent = describeCell(r, cell.row, cell.col);
      this.tooltip.style.left = `${x + 12}px`;
      this.tooltip.style.top = `${y + 12}px`;
    }
    if (!same) this.chart?.scheduleRedraw();
  }

  private updateButtons(): void {
    for (const [id, b] of this.buttons) {
      const on = id === `kind-${this.kind}` || id === `metric-${this.metric}`;
      b.classList.toggle('active', on);
      b.setAttribute('aria-pressed', String(on));
    }
    const latency = this.buttons.get('metric-latency');
    if (latency) latency.disabled = this.kind === 'rma';
  }
}

/** Draws the heat map, its labels and the cold → hot legend. */
export function paintMatrix(
  p: Painter,
  r: MatrixResult,
  metric: Metric,
  l: MatrixLayout,
  hovered: { row: number; col: number } | null = null,
): void {
  const max = maxValue(r, metric);
  const { n, left, top, cell } = l;
  const gap = cell >= 6 ? 1 : 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      p.fillRect(left + j * cell, top + i * cell, Math.max(0.5, cell - gap), Math.max(0.5, cell - gap), cellColor(r, metric, i, j, max));
    }
  }
  // Values inside big enough cells.
  if (cell >= 34) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if ((r.count[i]?.[j] ?? 0) <= 0) continue;
        const v = r[metric][i]?.[j] ?? 0;
        const text = formatMetric(metric, v);
        if (p.measureText(text, '9px sans-serif') > cell - 2) continue;
        p.text(left + (j + 0.5) * cell, top + (i + 0.5) * cell, text, {
          color: textColorOn(cellColor(r, metric, i, j, max)),
          font: '9px sans-serif',
          align: 'center',
          baseline: 'middle',
        });
      }
    }
  }
  if (hovered) p.strokeRect(left + hovered.col * cell, top + hovered.row * cell, cell, cell, '#000000', 2);
  if (gap === 0) p.strokeRect(left, top, n * cell, n * cell, GRID_LINE);
  for (const i of l.labelled) {
    const text = l.fullLabels ? (r.labels[i] ?? String(i)) : String(i);
    // Rows have the label column's width for the full label.
    p.text(left - 6, top + (i + 0.5) * cell, r.labels[i] ?? String(i), { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
    p.text(left + (i + 0.5) * cell, top - 4, text, { color: TEXT, font: FONT, align: 'center', baseline: 'bottom' });
  }
  // Legend: cold → hot over [0, max].
  const g = l.legend;
  const stepW = g.w / LEGEND_STEPS;
  for (let s = 0; s < LEGEND_STEPS; s++) p.fillRect(g.x + s * stepW, g.y, stepW + 0.5, g.h, heatColor(s / (LEGEND_STEPS - 1)));
  const scale = metric === 'latency' ? '' : ' (log scale)';
  p.text(g.x, g.y + g.h + 3, formatMetric(metric, 0), { color: TEXT, font: FONT, align: 'left', baseline: 'top' });
  p.text(g.x + g.w, g.y + g.h + 3, formatMetric(metric, max), { color: TEXT, font: FONT, align: 'right', baseline: 'top' });
  p.text(g.x + g.w + 8, g.y + g.h / 2, `${r.kind === 'rma' ? 'RMA' : 'messages'} by ${metric}${scale}; rows ${r.kind === 'rma' ? 'origins' : 'send'}, columns ${r.kind === 'rma' ? 'targets' : 'receive'}`, {
    color: TEXT,
    font: FONT,
    align: 'left',
    baseline: 'middle',
  });
}

export const MATRIX_VIEW: ViewFactory = {
  id: 'matrix',
  title: 'Communication',
  create: (ctx) => new MatrixView(ctx),
};
