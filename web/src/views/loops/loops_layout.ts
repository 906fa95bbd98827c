// Geometry of the iteration-space view of one OpenMP loop: the iteration
// strip (x = iteration, each chunk a block in its thread's colour), the
// thread × time drawing of the chunks' times, the legend, and the per-thread
// sums. Pure functions, no DOM, shared by the view, its paint and its tests.
import type { OmpChunk, OmpLoop, TraceSummary } from '../../protocol/api.gen';
import { threadColor, threadLabels } from '../common/threads';

export const ITER_H = 34;
export const LANE_H = 18;
export const LANE_GAP = 3;
export const LEGEND_ROW = 18;
export const SWATCH = 12;
const RIGHT = 10;

export interface Lane {
  /** the thread (timeline row) */
  row: number;
  /** its OpenMP thread number, -1 unknown */
  threadNum: number;
  label: string;
  y: number;
  h: number;
}

export interface LegendItem {
  threadNum: number;
  label: string;
  color: string;
  x: number;
  y: number;
}

export interface LoopLayout {
  plot: { x: number; w: number };
  /** the iteration strip */
  iter: { y: number; h: number };
  iterAxisY: number;
  timeTitleY: number;
  lanes: Lane[];
  timeAxisY: number;
  legend: LegendItem[];
  height: number;
}

export interface Block {
  /** index into the chunks */
  chunk: number;
  x: number;
  y: number;
  w: number;
  h: number;
  color: string;
  /** drawn lighter and hatched: the time is an estimate */
  estimated: boolean;
}

/** 'thread 2', or 'thread ?' when the OpenMP number is unknown. */
export function threadNumLabel(n: number): string {
  return n >= 0 ? `thread ${n}` : 'thread ?';
}

/** The colour of a chunk: by its OpenMP thread number. */
export function chunkColor(c: OmpChunk): string {
  return threadColor(c.thread_num);
}

/** x of the left edge of iteration `i`; iteration last + 1 is the strip's right end. */
export function iterToX(i: number, loop: OmpLoop, plot: { x: number; w: number }): number {
  const n = loop.last + 1 - loop.first;
  return plot.x + (n > 0 ? ((i - loop.first) / n) * plot.w : 0);
}

/** x of trace time `t` over the loop's time range. */
export function loopTimeToX(t: number, loop: OmpLoop, plot: { x: number; w: number }): number {
  const span = loop.end - loop.begin;
  return plot.x + (span > 0 ? ((t - loop.begin) / span) * plot.w : 0);
}

/** Threads of the chunks (one per row), by OpenMP number (unknown last), then row. */
export function threadsOf(chunks: readonly OmpChunk[]): { row: number; threadNum: number }[] {
  const seen = new Map<number, number>();
  for (const c of chunks) if (!seen.has(c.row)) seen.set(c.row, c.thread_num);
  const key = (n: number): number => (n >= 0 ? n : Number.MAX_SAFE_INTEGER);
  return [...seen]
    .map(([row, threadNum]) => ({ row, threadNum }))
    .sort((a, b) => key(a.threadNum) - key(b.threadNum) || a.row - b.row);
}

export function layoutLoop(chunks: readonly OmpChunk[], summary: TraceSummary, width: number, measure: (s: string) => number): LoopLayout {
  const threads = threadsOf(chunks);
  const labelW = Math.max(70, ...threads.map((t) => measure(threadNumLabel(t.threadNum)) + 14));
  const plot = { x: labelW, w: Math.max(10, width - labelW - RIGHT) };
  const iter = { y: 22, h: ITER_H };
  const iterAxisY = iter.y + iter.h + 2;
  const timeTitleY = iterAxisY + 24;
  const lanesTop = timeTitleY + 18;
  const lanes = threads.map((t, i) => ({ ...t, label: threadNumLabel(t.threadNum), y: lanesTop + i * (LANE_H + LANE_GAP), h: LANE_H }));
  const timeAxisY = lanesTop + Math.max(LANE_H, lanes.length * (LANE_H + LANE_GAP) - LANE_GAP) + 4;
  const legend: LegendItem[] = [];
  let x = plot.x;
  let y = timeAxisY + 24;
  const done = new Set<number>();
  const names = threadLabels(summary, threads.map((t) => t.row));
  for (const t of threads) {
    if (done.has(t.threadNum)) continue;
    done.add(t.threadNum);
    const label = `${threadNumLabel(t.threadNum)} · ${names.get(t.row)!}`;
    const w = SWATCH + 4 + measure(label) + 16;
    if (x + w > width - RIGHT && x > plot.x) {
      x = plot.x;
      y += LEGEND_ROW;
    }
    legend.push({ threadNum: t.threadNum, label, color: threadColor(t.threadNum), x, y });
    x += w;
  }
  return { plot, iter, iterAxisY, timeTitleY, lanes, timeAxisY, legend, height: y + (legend.length > 0 ? LEGEND_ROW : 0) + 4 };
}

/**
 * The chunks' blocks on the iteration strip: from the left edge of their first
 * iteration to the right edge of their last, at least 1 px; blocks 4 px or
 * wider leave a 1 px gap at their right so neighbouring chunks stay apart.
 */
export function iterationBlocks(chunks: readonly OmpChunk[], loop: OmpLoop, layout: LoopLayout): Block[] {
  const { plot, iter } = layout;
  return chunks.map((c, i) => {
    const x0 = iterToX(c.first, loop, plot);
    const w = Math.max(1, iterToX(c.last + 1, loop, plot) - x0);
    return { chunk: i, x: x0, y: iter.y, w: w >= 4 ? w - 1 : w, h: iter.h, color: chunkColor(c), estimated: false };
  });
}

/**
 * The chunks' bars on the thread × time drawing: their lane, their times over
 * the loop's range; like blocks, 4 px or wider ones leave a 1 px gap at their right.
 */
export function timeBars(chunks: readonly OmpChunk[], loop: OmpLoop, layout: LoopLayout): Block[] {
  const { plot } = layout;
  const laneOf = new Map(layout.lanes.map((l) => [l.row, l]));
  const out: Block[] = [];
  chunks.forEach((c, i) => {
    const lane = laneOf.get(c.row);
    if (!lane) return;
    const x0 = Math.max(plot.x, loopTimeToX(c.begin, loop, plot));
    const x1 = Math.min(plot.x + plot.w, loopTimeToX(c.end, loop, plot));
    const w = Math.max(1, x1 - x0);
    out.push({ chunk: i, x: x0, y: lane.y, w: w >= 4 ? w - 1 : w, h: lane.h, color: chunkColor(c), estimated: c.estimated });
  });
  return out;
}

/** The block under (x, y): nearest middle among those within 1 px; -1 if none. */
export function blockAt(blocks: readonly Block[], x: number, y: number): number {
  let best = -1;
  let bestDist = Infinity;
  blocks.forEach((b, i) => {
    if (y < b.y || y > b.y + b.h || x < b.x - 1 || x > b.x + b.w + 1) return;
    const d = Math.abs(x - (b.x + b.w / 2));
    if (d < bestDist) {
      best = i;
      bestDist = d;
    }
  });
  return best;
}

export interface ThreadSum {
  row: number;
  threadNum: number;
  chunks: number;
  iterations: number;
  /** summed chunk durations (ns) */
  busy: number;
  /** some of those durations are estimates */
  estimated: boolean;
}

/** Chunks, iterations and busy time per thread, in lane order. */
export function threadSums(chunks: readonly OmpChunk[]): ThreadSum[] {
  const sums = new Map<number, ThreadSum>(
    threadsOf(chunks).map((t) => [t.row, { row: t.row, threadNum: t.threadNum, chunks: 0, iterations: 0, busy: 0, estimated: false }]),
  );
  for (const c of chunks) {
    const s = sums.get(c.row)!;
    s.chunks++;
    s.iterations += c.last - c.first + 1;
    s.busy += Math.max(0, c.end - c.begin);
    s.estimated ||= c.estimated;
  }
  return [...sums.values()];
}
