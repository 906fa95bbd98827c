// The iteration-space view of OpenMP loops: the loops of the
// timeline's window from /loops, and for the chosen one its chunks drawn
// over the iteration space and over time by thread, with per-thread sums.
// Hover a chunk for its iterations and times; click it in the time drawing
// to show it in the timeline.
import type { LoopsResult, OmpChunk, OmpLoop, TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { el, tooltipElement } from '../common/dom';
import { formatCount, formatDuration, formatTimeSpan } from '../common/format';
import type { ViewContext, ViewFactory } from '../context';
import { WindowChartView } from '../common/window_chart_view';
import { threadLabelTid } from '../common/threads';
import { type Block, blockAt, iterationBlocks, layoutLoop, LEGEND_ROW, type LoopLayout, threadNumLabel, threadSums, timeBars } from './loops_layout';
import { paintLoop } from './loops_paint';
import { describeLoop, loopList, threadTable } from './loops_tables';

export interface LoopsOptions {
  /** Wait after the last timeline window change before fetching (ms). */
  debounceMs?: number;
}

export const NO_LOOPS = 'no OpenMP loops in this trace: record a program built with clang -fopenmp (LLVM libomp) with parallax record (docs/openmp.md)';
export const ESTIMATED_NOTE =
  'Chunk times are estimated (static schedule): the program runs a static loop\'s chunks without calling the OpenMP runtime, so each thread\'s time in the loop is spread over its chunks in proportion to their iterations (hatched bars).';
const EMPTY_HEIGHT = 24;
export const estimateWidth = (s: string): number => s.length * 6.5;

interface Geometry {
  width: number;
  layout: LoopLayout;
  blocks: Block[];
  bars: Block[];
}

export class LoopsView extends WindowChartView {
  private result: LoopsResult | null = null;
  /** the chosen loop's id, -1 before one is chosen */
  private selected = -1;
  private loop: OmpLoop | null = null;
  private chunks: OmpChunk[] = [];
  /** the loop whose chunks `chunks` are (-1 while they are being fetched) */
  private chunksOf = -1;
  private hovered = -1;
  private geo: Geometry | null = null;
  private empty!: HTMLDivElement;
  private note!: HTMLDivElement;
  private listBox!: HTMLDivElement;
  private title!: HTMLDivElement;
  private estimatedNote!: HTMLDivElement;
  private box!: HTMLDivElement;
  private sumsBox!: HTMLDivElement;
  private tooltip!: HTMLDivElement;

  constructor(ctx: ViewContext, options: LoopsOptions = {}) {
    super(ctx, options.debounceMs ?? 150);
  }

  mount(host: HTMLElement): void {
    host.classList.add('loops-view');
    this.empty = el('div', { class: 'view-message', 'data-testid': 'loops-empty' }, NO_LOOPS);
    this.empty.hidden = true;
    this.note = el('div', { class: 'view-message', 'data-testid': 'loops-truncated' });
    this.note.hidden = true;
    this.note.style.color = '#b26a00';
    this.listBox = el('div', { class: 'table-scroll' });
    Object.assign(this.listBox.style, { maxHeight: '160px', overflowY: 'auto' });
    this.title = el('div', { class: 'view-message', 'data-testid': 'loops-title' });
    this.estimatedNote = el('div', { class: 'view-message', 'data-testid': 'loops-estimated' }, ESTIMATED_NOTE);
    this.estimatedNote.hidden = true;
    this.estimatedNote.style.fontStyle = 'italic';
    this.box = el('div', { class: 'chart-box' });
    this.box.style.position = 'relative';
    this.sumsBox = el('div', { class: 'table-scroll' });
    this.tooltip = tooltipElement('loops-tooltip');
    host.append(
      el('div', { class: 'view-controls' }, el('span', { class: 'label' }, 'OpenMP loops in the timeline window; pick one to see its iteration space')),
      this.status.element,
      this.empty,
      this.note,
      this.listBox,
      this.title,
      this.estimatedNote,
      this.box,
      this.sumsBox,
    );
    this.attachChart(this.box, this.tooltip, 'loops-chart', EMPTY_HEIGHT);
    this.follow();
  }

  paint(p: Painter): void {
    if (!this.loop) return;
    const g = this.geometry(p.width);
    paintLoop(p, { loop: this.loop, layout: g.layout, blocks: g.blocks, bars: g.bars, hovered: this.hovered });
  }

  /** Draws loop `id` (an OmpLoop.id). */
  select(id: number): void {
    if (id === this.selected && this.loop) return;
    this.selected = id;
    this.loop = this.result?.loops.find((l) => l.id === id) ?? null;
    this.chunks = [];
    this.chunksOf = -1;
    this.geo = null;
    this.load();
  }

  private geometry(width: number): Geometry {
    if (!this.geo || this.geo.width !== width) {
      const layout = layoutLoop(this.chunks, this.summary, width, estimateWidth);
      this.geo = { width, layout, blocks: iterationBlocks(this.chunks, this.loop!, layout), bars: timeBars(this.chunks, this.loop!, layout) };
    }
    return this.geo;
  }

  protected heightFor(width: number): number {
    return this.loop ? this.geometry(width).layout.height : EMPTY_HEIGHT;
  }

  protected load(): void {
    const loop = this.selected;
    this.fetchWindow(
      this.result !== null,
      (from, to) => this.ctx.api.get('loops', { from, to, loop }),
      (r) => {
        this.result = r;
        if (loop < 0 && r.loops.length > 0) {
          // Nothing chosen yet: the window's first loop.
          this.selected = r.loops[0]!.id;
          this.load();
          return;
        }
        if (loop >= 0) {
          // The chosen loop stays drawn when the window moves away from it.
          this.loop = r.loops.find((l) => l.id === loop) ?? (this.loop?.id === loop ? this.loop : null);
          this.chunks = this.loop ? r.chunks : [];
          this.chunksOf = this.loop ? loop : -1;
        }
        this.show(r);
      },
    );
  }

  private show(r: LoopsResult): void {
    this.geo = null;
    this.hovered = -1;
    this.tooltip.hidden = true;
    const none = r.total === 0;
    this.empty.hidden = !none;
    const notes: string[] = [];
    if (r.truncated) notes.push(`More than ${formatCount(r.loops.length)} loops in this window: only the first ${formatCount(r.loops.length)} are listed. Zoom the timeline in to see the others.`);
    if (this.loop && r.chunks_truncated) notes.push(`This loop has ${formatCount(this.loop.chunks)} chunks: only the first ${formatCount(r.chunks.length)} (by first iteration) are drawn and summed.`);
    this.note.hidden = notes.length === 0;
    this.note.textContent = notes.join(' ');
    if (!none && r.loops.length === 0) this.status.message(`none of the ${formatCount(r.total)} loops of the trace is in the timeline window`);
    this.listBox.replaceChildren(...(r.loops.length > 0 ? [loopList(r.loops, this.summary, this.selected, (id) => this.select(id))] : []));
    const loop = this.loop;
    this.title.hidden = !loop;
    this.title.textContent = loop ? describeLoop(loop) : '';
    this.estimatedNote.hidden = !this.chunks.some((c) => c.estimated);
    this.box.hidden = !loop;
    this.sumsBox.replaceChildren(...(loop ? [threadTable(threadSums(this.chunks), (row) => threadLabelTid(this.summary, row))] : []));
    this.chart?.redraw();
    this.exposeLayout();
  }

  private hitAt(x: number, y: number): { chunk: number; inTime: boolean } {
    if (!this.chart || !this.loop) return { chunk: -1, inTime: false };
    const g = this.geometry(this.chart.width);
    const b = blockAt(g.blocks, x, y);
    if (b >= 0) return { chunk: g.blocks[b]!.chunk, inTime: false };
    const t = blockAt(g.bars, x, y);
    return { chunk: t >= 0 ? g.bars[t]!.chunk : -1, inTime: t >= 0 };
  }

  protected leave(): void {
    this.setHover(-1, 0, 0);
  }

  protected move(ev: MouseEvent): void {
    if (!this.chart) return;
    const { x, y } = this.chart.eventPos(ev);
    this.setHover(this.hitAt(x, y).chunk, x, y);
  }

  protected click(ev: MouseEvent): void {
    if (!this.chart) return;
    const { x, y } = this.chart.eventPos(ev);
    const hit = this.hitAt(x, y);
    const c = this.chunks[hit.chunk];
    if (c) this.ctx.timeline.jumpTo({ row: c.row, begin: c.begin, end: c.end });
  }

  private setHover(chunk: number, x: number, y: number): void {
    const changed = chunk !== this.hovered;
    this.hovered = chunk;
    const c = this.chunks[chunk];
    this.tooltip.hidden = !c;
    if (c) {
      this.tooltip.textContent = describeChunk(this.summary, c);
      this.placeTooltip(this.tooltip, x, y, 380);
    }
    if (changed) this.chart?.scheduleRedraw();
  }

  /** The drawing's coordinates for end-to-end tests, on the canvas's data-* attributes. */
  protected exposeLayout(): void {
    const c = this.chart?.canvas;
    if (!c || !this.loop) return;
    // Tests wait for data-loop: it names a loop only once its chunks are here.
    if (this.chunksOf !== this.loop.id) {
      delete c.dataset.loop;
      return;
    }
    const g = this.geometry(this.chart!.width);
    Object.assign(c.dataset, {
      loop: String(this.loop.id),
      first: String(this.loop.first),
      last: String(this.loop.last),
      plotX: String(g.layout.plot.x),
      plotW: String(g.layout.plot.w),
      iterY: String(g.layout.iter.y),
      iterH: String(g.layout.iter.h),
      blocks: String(g.blocks.length),
      bars: String(g.bars.length),
      estimated: String(g.bars.filter((b) => b.estimated).length),
      lanes: JSON.stringify(g.layout.lanes.map((l) => ({ row: l.row, threadNum: l.threadNum, y: l.y, h: l.h }))),
      legend: JSON.stringify(g.layout.legend.map((l) => ({ threadNum: l.threadNum, label: l.label, color: l.color, x: l.x, y: l.y, h: LEGEND_ROW }))),
    });
  }
}

/** 'thread 2 · rank 0 / worker (tid 7): iterations 8–15 (8), 1.2 ms → 1.4 ms (200 µs), estimated'. */
export function describeChunk(summary: TraceSummary, c: OmpChunk): string {
  const n = c.last - c.first + 1;
  const times = `${formatTimeSpan(c.begin, c.end).join(' → ')} (${formatDuration(c.end - c.begin)})`;
  return `${threadNumLabel(c.thread_num)} · ${threadLabelTid(summary, c.row)}: iterations ${c.first}–${c.last} (${formatCount(n)}), ${times}${c.estimated ? ', estimated' : ''}`;
}

export const LOOPS_VIEW: ViewFactory = {
  id: 'loops',
  title: 'Loops',
  create: (ctx) => new LoopsView(ctx),
  followsUpdates: true,
};
