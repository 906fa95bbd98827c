// Paints the processor-scheduling strip through a Painter (screen, PNG and
// SVG export alike): CPU rows, thread-coloured span bars, the time axis of
// the timeline's window, the replay cursor and the thread legend.
import { formatDurationTicks } from '../common/format';
import { niceTicks } from '../common/ticks';
import type { Painter } from '../../render/painter';
import { type CpuBar, type CpuLayout, LEGEND_ROW, SWATCH, type TimeWindow, timeToX } from './cpus_layout';

export const ROW_BG = '#f4f5f8';
export const TEXT = '#333333';
export const AXIS = '#888888';
export const CURSOR_COLOR = '#d6336c';
export const HOVER_COLOR = '#111111';
const FONT = '12px sans-serif';
const SMALL = '10px sans-serif';

export interface CpuPicture {
  layout: CpuLayout;
  bars: readonly CpuBar[];
  win: TimeWindow;
  cursor: number;
  /** index into bars, -1 = none */
  hovered: number;
}

export function paintCpus(p: Painter, pic: CpuPicture): void {
  const { layout, bars, win } = pic;
  const { plot } = layout;
  for (const r of layout.rows) {
    p.fillRect(plot.x, r.y, plot.w, r.h, ROW_BG);
    p.text(plot.x - 8, r.y + r.h / 2, `CPU ${r.cpu}`, { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
  }
  for (const b of bars) p.fillRect(b.x, b.y, b.w, b.h, b.color);
  const h = bars[pic.hovered];
  if (h) p.strokeRect(h.x - 0.5, h.y - 0.5, h.w + 1, h.h + 1, HOVER_COLOR, 1);
  // The time axis on the timeline's mapping.
  p.line(plot.x, layout.axisY, plot.x + plot.w, layout.axisY, AXIS);
  const ticks = niceTicks(win.from, win.to, Math.max(2, Math.floor(plot.w / 110)));
  const labels = formatDurationTicks(ticks, true);
  ticks.forEach((t, i) => {
    const x = timeToX(t, win, plot);
    p.line(x, layout.axisY, x, layout.axisY + 3, AXIS);
    p.text(x, layout.axisY + 4, labels[i]!, { color: TEXT, font: SMALL, align: 'center', baseline: 'top' });
  });
  const cx = timeToX(pic.cursor, win, plot);
  if (layout.rows.length > 0 && cx >= plot.x && cx <= plot.x + plot.w) p.line(cx, plot.y, cx, layout.axisY, CURSOR_COLOR, 1.5);
  for (const item of layout.legend) {
    const mid = item.y + LEGEND_ROW / 2;
    p.fillRect(item.x, mid - SWATCH / 2, SWATCH, SWATCH, item.color);
    p.text(item.x + SWATCH + 4, mid, item.label, { color: TEXT, font: FONT, align: 'left', baseline: 'middle' });
  }
}
