// Paints the iteration-space view of one loop through a Painter (screen, PNG
// and SVG export alike): the iteration strip, the thread × time drawing
// (estimated times lighter and hatched), both axes and the thread legend.
import { lighten } from '../../base/color';
import type { OmpLoop } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { formatDurationTicks } from '../common/format';
import { niceTicks } from '../common/ticks';
import { type Block, iterToX, LEGEND_ROW, type LoopLayout, SWATCH } from './loops_layout';

export const STRIP_BG = '#f4f5f8';
export const TEXT = '#333333';
export const AXIS = '#888888';
export const HOVER_COLOR = '#111111';
/** How far towards white an estimated bar's fill is. */
export const ESTIMATED_LIGHTEN = 0.6;
/** Spacing of the hatch lines of an estimated bar (px). */
export const HATCH_STEP = 6;
const FONT = '12px sans-serif';
const SMALL = '10px sans-serif';

/** The fill of a bar whose time is estimated. */
export function estimatedFill(color: string): string {
  return lighten(color, ESTIMATED_LIGHTEN);
}

export interface LoopPicture {
  loop: OmpLoop;
  layout: LoopLayout;
  blocks: readonly Block[];
  bars: readonly Block[];
  /** the hovered chunk (index into the chunks), -1 = none */
  hovered: number;
}

/** A bar in its thread's colour, or lighter with diagonal hatching in that colour when estimated. */
export function paintBlock(p: Painter, b: Block): void {
  if (!b.estimated) {
    p.fillRect(b.x, b.y, b.w, b.h, b.color);
    return;
  }
  p.fillRect(b.x, b.y, b.w, b.h, estimatedFill(b.color));
  p.save();
  p.clip(b.x, b.y, b.w, b.h);
  for (let k = -b.h; k < b.w; k += HATCH_STEP) p.line(b.x + k, b.y + b.h, b.x + k + b.h, b.y, b.color, 1);
  p.restore();
}

export function paintLoop(p: Painter, pic: LoopPicture): void {
  const { loop, layout, blocks, bars } = pic;
  const { plot, iter } = layout;
  const estimated = bars.some((b) => b.estimated);
  p.text(plot.x, 4, `Iterations ${loop.first}–${loop.last}: each chunk a block in its thread's colour`, { color: TEXT, font: FONT, align: 'left', baseline: 'top' });
  p.fillRect(plot.x, iter.y, plot.w, iter.h, STRIP_BG);
  p.text(plot.x - 8, iter.y + iter.h / 2, 'iterations', { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
  for (const b of blocks) p.fillRect(b.x, b.y, b.w, b.h, b.color);
  // Iteration axis: tick at the left edge of each labelled iteration.
  p.line(plot.x, layout.iterAxisY, plot.x + plot.w, layout.iterAxisY, AXIS);
  const iterTicks = niceTicks(loop.first, loop.last + 1, Math.max(2, Math.floor(plot.w / 70))).filter((v) => Number.isInteger(v));
  for (const v of iterTicks) {
    const x = iterToX(v, loop, plot);
    p.line(x, layout.iterAxisY, x, layout.iterAxisY + 3, AXIS);
    p.text(x, layout.iterAxisY + 4, String(v), { color: TEXT, font: SMALL, align: 'center', baseline: 'top' });
  }
  const how = estimated ? 'hatched: times estimated (static schedule)' : 'times measured';
  p.text(plot.x, layout.timeTitleY, `Chunks over time since the loop's begin, by thread (${how})`, { color: TEXT, font: FONT, align: 'left', baseline: 'top' });
  for (const l of layout.lanes) {
    p.fillRect(plot.x, l.y, plot.w, l.h, STRIP_BG);
    p.text(plot.x - 8, l.y + l.h / 2, l.label, { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
  }
  for (const b of bars) paintBlock(p, b);
  p.line(plot.x, layout.timeAxisY, plot.x + plot.w, layout.timeAxisY, AXIS);
  const span = Math.max(0, loop.end - loop.begin);
  const ticks = niceTicks(0, span, Math.max(2, Math.floor(plot.w / 110)));
  const labels = formatDurationTicks(ticks, true);
  ticks.forEach((t, i) => {
    const x = plot.x + (span > 0 ? (t / span) * plot.w : 0);
    p.line(x, layout.timeAxisY, x, layout.timeAxisY + 3, AXIS);
    p.text(x, layout.timeAxisY + 4, labels[i]!, { color: TEXT, font: SMALL, align: 'center', baseline: 'top' });
  });
  for (const b of [...blocks, ...bars]) {
    if (b.chunk === pic.hovered) p.strokeRect(b.x - 0.5, b.y - 0.5, b.w + 1, b.h + 1, HOVER_COLOR, 1);
  }
  for (const item of layout.legend) {
    const mid = item.y + LEGEND_ROW / 2;
    p.fillRect(item.x, mid - SWATCH / 2, SWATCH, SWATCH, item.color);
    p.text(item.x + SWATCH + 4, mid, item.label, { color: TEXT, font: FONT, align: 'left', baseline: 'middle' });
  }
}
