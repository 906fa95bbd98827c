// Drawing of the counter views through the Painter (screen, PNG, SVG): the
// lights matrix, the bars at the cursor and the line graphs with the cursor.
import type { TilePoints } from '../../engine/tile';
import type { Painter } from '../../render/painter';
import { heatColor, textColorOn } from '../common/colors';
import { formatDurationTicks, formatShort, formatTime } from '../common/format';
import { niceTicks } from '../common/ticks';
import { type BarsLayout, layoutLines, lightsCells, type LightsLayout, timeToX, trackLine } from './counters_layout';
import { type CounterModel, metricLabel, trackLabel } from './counters_model';

export const CURSOR_COLOR = '#d81b60';
export const LINE_COLOR = '#2f5f9f';
export const COLUMN_COLOR = '#9db4d6';
const FONT = '11px sans-serif';
const SMALL = '9px sans-serif';
const TEXT = '#333333';
const AXIS = '#9e9e9e';
const LEGEND_STEPS = 48;

/** `text` cut with an ellipsis to fit `w` pixels. */
function fit(p: Painter, text: string, w: number, font: string): string {
  if (p.measureText(text, font) <= w) return text;
  let s = text;
  while (s.length > 1 && p.measureText(`${s}…`, font) > w) s = s.slice(0, -1);
  return `${s}…`;
}

/** The lights matrix at the cursor: units (rows) × metrics (columns), cold → hot. */
export function paintLights(
  p: Painter,
  model: CounterModel,
  values: ReadonlyMap<number, number>,
  l: LightsLayout,
  time: number,
  hovered: { unit: number; metric: number } | null,
): void {
  const cells = lightsCells(model, values);
  const gap = l.cellH >= 6 ? 1 : 0;
  for (let m = 0; m < model.metrics.length; m++) {
    const x = l.left + (m + 0.5) * l.cellW;
    p.text(x, l.top - 5, fit(p, metricLabel(model.metrics[m]!), l.cellW - 4, FONT), { color: TEXT, font: FONT, align: 'center', baseline: 'bottom' });
  }
  for (let u = 0; u < model.units.length; u++) {
    const y = l.top + u * l.cellH;
    if (l.cellH >= 9) p.text(l.left - 6, y + l.cellH / 2, model.units[u]!.label, { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
    for (let m = 0; m < model.metrics.length; m++) {
      const c = cells[u]![m]!;
      const x = l.left + m * l.cellW;
      p.fillRect(x, y, Math.max(0.5, l.cellW - gap), Math.max(0.5, l.cellH - gap), c.track >= 0 ? c.color : '#ffffff');
      if (c.value === undefined || l.cellH < 14) continue;
      const text = formatShort(c.value);
      if (p.measureText(text, SMALL) > l.cellW - 4) continue;
      p.text(x + l.cellW / 2, y + l.cellH / 2, text, { color: textColorOn(c.color), font: SMALL, align: 'center', baseline: 'middle' });
    }
  }
  if (hovered) p.strokeRect(l.left + hovered.metric * l.cellW, l.top + hovered.unit * l.cellH, l.cellW, l.cellH, '#000000', 2);
  const g = l.legend;
  const step = g.w / LEGEND_STEPS;
  for (let s = 0; s < LEGEND_STEPS; s++) p.fillRect(g.x + s * step, g.y, step + 0.5, g.h, heatColor(s / (LEGEND_STEPS - 1)));
  p.text(g.x, g.y + g.h + 3, 'min', { color: TEXT, font: FONT, align: 'left', baseline: 'top' });
  p.text(g.x + g.w, g.y + g.h + 3, 'max', { color: TEXT, font: FONT, align: 'right', baseline: 'top' });
  p.text(g.x + g.w + 8, g.y + g.h / 2, `at ${formatTime(time)}; each column from its counter's minimum to its maximum over the trace; grey: no sample yet`, {
    color: TEXT,
    font: FONT,
    align: 'left',
    baseline: 'middle',
  });
}

/** Bars per unit of one metric at the cursor, on an axis over the metric's whole range. */
export function paintBars(p: Painter, model: CounterModel, metric: number, l: BarsLayout, time: number): void {
  const { plot } = l;
  const m = model.metrics[metric];
  const yOf = (v: number): number => plot.y + plot.h - ((v - l.lo) / (l.hi - l.lo)) * plot.h;
  for (const v of niceTicks(l.lo, l.hi, Math.max(2, Math.floor(plot.h / 30)))) {
    const y = yOf(v);
    p.line(plot.x - 3, y, plot.x + plot.w, y, v === 0 ? AXIS : '#eeeeee');
    p.text(plot.x - 5, y, formatShort(v), { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
  }
  p.line(plot.x, plot.y, plot.x, plot.y + plot.h, AXIS);
  const band = l.bars.length > 0 ? plot.w / l.bars.length : plot.w;
  for (const b of l.bars) {
    if (b.value !== undefined) p.fillRect(b.x, b.y, b.w, Math.max(1, b.h), b.color);
    const cx = b.x + b.w / 2;
    if (b.value !== undefined && p.measureText(formatShort(b.value), SMALL) <= band) {
      p.text(cx, b.y - 2, formatShort(b.value), { color: TEXT, font: SMALL, align: 'center', baseline: 'bottom' });
    }
    if (band >= 14) p.text(cx, plot.y + plot.h + 4, fit(p, model.units[b.unit]!.label, band - 2, FONT), { color: TEXT, font: FONT, align: 'center', baseline: 'top' });
  }
  const title = m ? `${metricLabel(m)} at ${formatTime(time)}` : 'no counter';
  p.text(plot.x, plot.y + plot.h + 22, title, { color: TEXT, font: FONT, align: 'left', baseline: 'top' });
}

/** Line graphs of the chosen tracks over the window, the cursor as a vertical line. */
export function paintLines(
  p: Painter,
  model: CounterModel,
  tracks: readonly number[],
  points: TilePoints | null,
  win: { from: number; to: number },
  duration: number,
  cursor: number,
): void {
  const l = layoutLines(tracks, p.width);
  const { plot } = l;
  for (const s of l.strips) {
    const at = model.place.get(s.track);
    const m = at ? model.metrics[at[1]]! : undefined;
    p.fillRect(plot.x, s.y, plot.w, s.h, '#fbfbfd');
    p.text(plot.x - 6, s.y + 10, fit(p, trackLabel(model, s.track), plot.x - 10, FONT), { color: TEXT, font: FONT, align: 'right', baseline: 'middle' });
    if (m) {
      p.text(plot.x - 6, s.y + 18, formatShort(m.max), { color: AXIS, font: SMALL, align: 'right', baseline: 'top' });
      p.text(plot.x - 6, s.y + s.h, formatShort(m.min), { color: AXIS, font: SMALL, align: 'right', baseline: 'bottom' });
    }
    if (!points || !m) continue;
    const end = Math.min(win.to, duration);
    const tl = trackLine(points, s.track, m, win, plot, s, end);
    p.save();
    p.clip(plot.x, s.y - 1, plot.w, s.h + 2);
    for (const c of tl.columns) p.fillRect(c.x, c.top, 1, Math.max(1, c.bottom - c.top), COLUMN_COLOR);
    if (tl.line.length >= 4) p.polyline(tl.line, LINE_COLOR, 1.2);
    p.restore();
  }
  // Time axis under the strips, on the timeline's mapping.
  p.line(plot.x, l.axisY, plot.x + plot.w, l.axisY, AXIS);
  const ticks = niceTicks(win.from, win.to, Math.max(2, Math.floor(plot.w / 110)));
  const labels = formatDurationTicks(ticks, true);
  ticks.forEach((t, i) => {
    const x = timeToX(t, win, plot);
    p.line(x, l.axisY, x, l.axisY + 3, AXIS);
    p.text(x, l.axisY + 4, labels[i]!, { color: TEXT, font: SMALL, align: 'center', baseline: 'top' });
  });
  const cx = timeToX(cursor, win, plot);
  if (l.strips.length > 0 && cx >= plot.x && cx <= plot.x + plot.w) p.line(cx, 4, cx, l.axisY, CURSOR_COLOR, 1.5);
}
