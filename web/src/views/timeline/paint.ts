// Painting the timeline through the Painter interface (screen, PNG and SVG
// alike): ruler, label column, bars, counters, instants, arrows, overlays.
// Runs every frame over thousands of records, so loops stay on typed arrays
// and per-state values are computed once per frame.
import { darken, textColorOn } from '../../base/color';
import { formatDuration, formatTicks } from '../../base/format';
import { COUNTER_HEIGHT, LANE_HEIGHT } from '../../base/layout';
import { niceTicks } from '../../base/ticks';
import { FLAG_MERGED, type Tile } from '../../engine/tile';
import type { CounterTrack, PathSegment, SliceRef, StateInfo } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import type { StateStyle } from '../context';
import { RULER_HEIGHT, type TimelineGeometry } from './geometry';
import { INSTANT_SIZE } from './hit';
import { paintSelectedMessage } from './message_mark';
import type { SelectedMessage } from './selection';
import type { WaitsPaint } from './waits_overlay';
import { paintWaits, paintWaitsKey, paintWaitStrips } from './waits_overlay_paint';

export const FONT = '11px sans-serif';
export const LABEL_FONT = '12px sans-serif';
export const HEADER_FONT = 'bold 12px sans-serif';

export interface SliceBox {
  row: number;
  begin: number;
  end: number;
  depth: number;
}

export interface PaintModel {
  g: TimelineGeometry;
  tile: Tile | null;
  states: readonly StateInfo[];
  style: StateStyle;
  counters: readonly CounterTrack[];
  selected: SliceBox | null;
  /** the selected message (absent: none) */
  message?: SelectedMessage | null;
  /** highlighted slices, and the blink phase 0..1 */
  highlights: readonly SliceRef[];
  blink: number;
  criticalPath: readonly PathSegment[] | null;
  anomalies: readonly SliceRef[] | null;
  /** the waits overlay's window: bands, strips and key (absent or null: off) */
  waits?: WaitsPaint | null;
  /** a range being measured or dragged, trace time */
  range: { from: number; to: number } | null;
  /** x of the cursor line, or null */
  cursorX: number | null;
  /** x of the replay cursor, or null (absent: none) */
  replayX?: number | null;
  /** paints the folded groups' strips, over the bars and under the arrows (absent: none) */
  folded?: (p: Painter) => void;
  /** the pinned thread rows: their labels get a mark (absent: none) */
  pinned?: ReadonlySet<number>;
}

export const PIN_COLOR = '#1f6feb';

export const REPLAY_COLOR = '#c2185b';

/** Cuts `text` to fit `width` px given its full width, with an ellipsis. */
export function fitText(text: string, fullWidth: number, width: number): string {
  if (fullWidth <= width) return text;
  const perChar = fullWidth / Math.max(1, text.length);
  const n = Math.floor(width / perChar) - 1;
  if (n < 2) return '';
  return text.slice(0, n) + '…';
}

/** First index of `segs` (sorted by begin, not overlapping) that may end after `t`. */
function firstEndingAfter(segs: readonly PathSegment[], t: number): number {
  let lo = 0;
  let hi = segs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segs[mid]!.end < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function paintTimeline(p: Painter, m: PaintModel, textWidths: Map<string, number>): void {
  const g = m.g;
  const W = g.width;
  const H = g.height;
  const left = g.plotLeft;
  const right = W;
  const { top: cTop, bottom: cBottom } = g.visibleContent();
  const items = g.layout.itemsIn(cTop, cBottom);

  p.clear('#ffffff');

  // Row backgrounds and separators.
  p.save();
  p.clip(0, RULER_HEIGHT, W, H - RULER_HEIGHT);
  for (const it of items) {
    const y = g.toScreenY(it.y);
    if (it.kind === 'host') p.fillRect(0, y, W, it.height, '#e3e7ee');
    else if (it.kind === 'process') p.fillRect(0, y, W, it.height, '#eef1f5');
    else if (it.kind === 'counter') p.fillRect(left, y, W - left, it.height, '#fbfbfd');
    p.fillRect(left, y + it.height - 1, W - left, 1, '#e6e6e6');
  }
  p.restore();

  // Grid lines under the bars.
  const ticks = niceTicks(g.window.from, g.window.to, Math.max(2, Math.floor(g.plotWidth / 110)));
  p.save();
  p.clip(left, RULER_HEIGHT, W - left, H - RULER_HEIGHT);
  for (const t of ticks.values) {
    const x = Math.round(g.timeToX(t)) + 0.5;
    p.fillRect(x - 0.5, RULER_HEIGHT, 1, H - RULER_HEIGHT, '#f0f0f0');
  }

  const nStates = m.states.length;
  const colors: string[] = new Array<string>(nStates);
  const merged: string[] = new Array<string>(nStates);
  const visible: boolean[] = new Array<boolean>(nStates);
  const textColors: string[] = new Array<string>(nStates);
  for (let i = 0; i < nStates; i++) {
    colors[i] = m.style.color(i);
    merged[i] = darken(colors[i]!, 0.25);
    visible[i] = m.style.visible(i);
    textColors[i] = textColorOn(colors[i]!);
  }

  const tile = m.tile;
  if (tile) {
    const s = tile.slices;
    const barH = LANE_HEIGHT - 1;
    for (let i = 0; i < s.count; i++) {
      const st = s.state[i]!;
      if (st < nStates && !visible[st]) continue;
      const y = g.laneTop(s.row[i]!, s.depth[i]!);
      if (!(y + barH > RULER_HEIGHT && y < H)) continue;
      let x0 = g.timeToX(s.begin[i]!);
      let x1 = g.timeToX(s.end[i]!);
      if (x1 < left || x0 > right) continue;
      if (x0 < left - 1) x0 = left - 1;
      if (x1 > right + 1) x1 = right + 1;
      let w = x1 - x0;
      if (w < 1) w = 1;
      const isMerged = (s.flags[i]! & FLAG_MERGED) !== 0;
      const color = st < nStates ? (isMerged ? merged[st]! : colors[st]!) : '#999999';
      p.fillRect(x0, y, w, barH, color);
      if (w > 24 && !isMerged && st < nStates) {
        const name = m.states[st]!.name;
        let full = textWidths.get(name);
        if (full === undefined) {
          full = p.measureText(name, FONT);
          textWidths.set(name, full);
        }
        const label = fitText(name, full, w - 6);
        if (label) {
          const tx = Math.max(x0, left) + 3;
          p.text(tx, y + barH / 2 + 0.5, label, { color: textColors[st]!, font: FONT, baseline: 'middle' });
        }
      }
    }

    m.folded?.(p);

    // Counter tracks: min–max columns and a line through the last values.
    if (tile.points.count > 0) {
      const pts = tile.points;
      const lines = new Map<number, number[]>();
      for (let i = 0; i < pts.count; i++) {
        const track = pts.track[i]!;
        const item = g.layout.counterItem(track);
        const info = m.counters[track];
        if (!item || !info) continue;
        const top = g.toScreenY(item.y) + 3;
        const h = COUNTER_HEIGHT - 6;
        const range = info.max - info.min || 1;
        const yOf = (v: number): number => top + h - ((v - info.min) / range) * h;
        const x = g.timeToX(pts.time[i]!);
        if (x < left - 2 || x > right + 2) continue;
        const y0 = yOf(pts.max[i]!);
        const y1 = yOf(pts.min[i]!);
        p.fillRect(x, y0, 1, Math.max(1, y1 - y0), '#9db4d6');
        let line = lines.get(track);
        if (!line) lines.set(track, (line = []));
        line.push(x, yOf(pts.last[i]!));
      }
      for (const line of lines.values()) p.polyline(line, '#2f5f9f', 1.2);
    }

    // Instant events: small downward triangles at the top of their row.
    const ins = tile.instants;
    for (let i = 0; i < ins.count; i++) {
      const top = g.rowTop(ins.row[i]!);
      if (!(top > RULER_HEIGHT - INSTANT_SIZE && top < H)) continue;
      const x = g.timeToX(ins.time[i]!);
      if (x < left - 4 || x > right + 4) continue;
      const half = INSTANT_SIZE / 2;
      const isMerged = (ins.flags[i]! & FLAG_MERGED) !== 0;
      p.polygon([x - half, top, x + half, top, x, top + INSTANT_SIZE], isMerged ? '#000000' : '#333333');
    }

    // Messages: arrows from the send to the receive, drawn together per style
    // (a live view of a busy program has thousands per frame).
    const ar = tile.arrows;
    const plainArrows = new ArrowBatch(1);
    const mergedArrows = new ArrowBatch(2);
    for (let i = 0; i < ar.count; i++) {
      const y1 = g.rowAnchorY(ar.fromRow[i]!);
      const y2 = g.rowAnchorY(ar.toRow[i]!);
      if (Number.isNaN(y1) || Number.isNaN(y2)) continue;
      if ((y1 < RULER_HEIGHT && y2 < RULER_HEIGHT) || (y1 > H && y2 > H)) continue;
      const x1 = g.timeToX(ar.send[i]!);
      const x2 = g.timeToX(ar.recv[i]!);
      if ((x1 < left && x2 < left) || (x1 > right && x2 > right)) continue;
      ((ar.flags[i]! & FLAG_MERGED) !== 0 ? mergedArrows : plainArrows).add(x1, y1, x2, y2);
    }
    plainArrows.draw(p, 'rgba(30,30,30,0.7)');
    mergedArrows.draw(p, 'rgba(20,20,20,0.85)');
  }

  // Critical path: a thick translucent band along its segments.
  if (m.criticalPath && m.criticalPath.length) {
    const segs = m.criticalPath;
    for (let i = firstEndingAfter(segs, g.window.from); i < segs.length; i++) {
      const sg = segs[i]!;
      if (sg.begin > g.window.to) break;
      const item = g.layout.itemOfRow(sg.row);
      if (!item) continue;
      const y = g.toScreenY(item.y);
      if (y + item.height < RULER_HEIGHT || y > H) continue;
      const x0 = Math.max(g.timeToX(sg.begin), left - 2);
      const x1 = Math.min(g.timeToX(sg.end), right + 2);
      p.fillRect(x0, y, Math.max(2, x1 - x0), item.height - 1, 'rgba(230,40,40,0.22)');
      p.fillRect(x0, y + item.height - 5, Math.max(2, x1 - x0), 4, 'rgba(220,20,20,0.75)');
    }
  }

  if (m.waits) paintWaits(p, g, m.waits);

  // Anomalies: outlined.
  if (m.anomalies) {
    for (const a of m.anomalies) outlineSlice(p, g, a, '#ff7a00', 2, 0);
  }

  // Highlights: pulsing, at least 2 px wide even when tiny.
  if (m.highlights.length) {
    const alpha = 0.35 + 0.65 * m.blink;
    for (const h of m.highlights) {
      const box = sliceRect(g, h, 2);
      if (!box) continue;
      p.fillRect(box.x, box.y, box.w, box.h, `rgba(255,230,0,${(alpha * 0.6).toFixed(3)})`);
      p.strokeRect(box.x - 1, box.y - 1, box.w + 2, box.h + 2, `rgba(255,0,200,${alpha.toFixed(3)})`, 2);
    }
  }

  if (m.selected) outlineSlice(p, g, m.selected, '#000000', 2, 1);
  if (m.message) paintSelectedMessage(p, g, m.message);

  // A measured or dragged range.
  if (m.range) {
    const { a, b } = paintRangeBox(p, g, m.range);
    const label = formatDuration(Math.abs(m.range.to - m.range.from));
    const tw = p.measureText(label, LABEL_FONT) + 10;
    const cx = Math.min(Math.max((a + b) / 2, left + tw / 2), right - tw / 2);
    p.fillRect(cx - tw / 2, RULER_HEIGHT + 4, tw, 18, 'rgba(40,90,200,0.95)');
    p.text(cx, RULER_HEIGHT + 13, label, { color: '#ffffff', font: LABEL_FONT, align: 'center', baseline: 'middle' });
  }

  if (m.cursorX !== null && m.cursorX >= left) p.line(m.cursorX, RULER_HEIGHT, m.cursorX, H, 'rgba(200,0,0,0.6)', 1);
  const rx = m.replayX ?? null;
  if (rx !== null && rx >= left && rx <= right) p.line(rx, RULER_HEIGHT, rx, H, REPLAY_COLOR, 2);
  p.restore();

  paintLabels(p, g, items, m.pinned);
  if (m.waits) {
    paintWaitStrips(p, g, m.waits);
    paintWaitsKey(p, g, m.waits);
  }
  paintRuler(p, g, ticks, m.range);
  // The replay cursor's handle on the ruler.
  if (rx !== null && rx >= left && rx <= right) {
    p.polygon([rx - 6, RULER_HEIGHT - 11, rx + 6, RULER_HEIGHT - 11, rx, RULER_HEIGHT - 1], REPLAY_COLOR);
  }
}

/** The band of a measured or dragged range over the rows, and its edges; their x. */
export function paintRangeBox(p: Painter, g: TimelineGeometry, range: { from: number; to: number }): { a: number; b: number } {
  const a = g.timeToX(Math.min(range.from, range.to));
  const b = g.timeToX(Math.max(range.from, range.to));
  p.fillRect(a, RULER_HEIGHT, b - a, g.height - RULER_HEIGHT, 'rgba(60,120,220,0.15)');
  p.line(a, RULER_HEIGHT, a, g.height, 'rgba(40,90,200,0.9)', 1);
  p.line(b, RULER_HEIGHT, b, g.height, 'rgba(40,90,200,0.9)', 1);
  return { a, b };
}

function sliceRect(
  g: TimelineGeometry,
  s: SliceBox,
  minWidth: number,
): { x: number; y: number; w: number; h: number } | null {
  let y = g.laneTop(s.row, s.depth);
  let h = LANE_HEIGHT - 1;
  if (Number.isNaN(y)) {
    // Row collapsed: mark its header.
    const item = g.layout.itemOfRow(s.row);
    if (!item) return null;
    y = g.toScreenY(item.y) + 2;
    h = item.height - 4;
  }
  const x0 = g.timeToX(s.begin);
  const x1 = g.timeToX(s.end);
  if (x1 < g.plotLeft - 4 || x0 > g.width + 4) return null;
  const w = Math.max(minWidth, x1 - x0);
  const x = x1 - x0 < minWidth ? (x0 + x1) / 2 - minWidth / 2 : x0;
  return { x, y, w, h };
}

function outlineSlice(p: Painter, g: TimelineGeometry, s: SliceBox, color: string, lw: number, inset: number): void {
  const box = sliceRect(g, s, 2);
  if (!box) return;
  p.strokeRect(box.x + inset, box.y + inset, box.w - 2 * inset, box.h - 2 * inset, color, lw);
}

/** Message arrows of one line width: their lines and heads, drawn with two operations. */
class ArrowBatch {
  private readonly lines: number[] = [];
  private readonly heads: number[] = [];
  constructor(private readonly lineWidth: number) {}

  add(x1: number, y1: number, x2: number, y2: number): void {
    this.lines.push(x1, y1, x2, y2);
    const len = Math.hypot(x2 - x1, y2 - y1);
    if (len < 4) return;
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const size = 5 + this.lineWidth;
    const bx = x2 - ux * size;
    const by = y2 - uy * size;
    const nx = -uy * (size / 2);
    const ny = ux * (size / 2);
    this.heads.push(x2, y2, bx + nx, by + ny, bx - nx, by - ny);
  }

  draw(p: Painter, color: string): void {
    p.segments(this.lines, color, this.lineWidth);
    p.triangles(this.heads, color);
  }
}

function paintLabels(
  p: Painter,
  g: TimelineGeometry,
  items: ReturnType<TimelineGeometry['layout']['itemsIn']>,
  pinned: ReadonlySet<number> = new Set(),
): void {
  const H = g.height;
  p.save();
  p.clip(0, RULER_HEIGHT, g.labelWidth, H - RULER_HEIGHT);
  p.fillRect(0, RULER_HEIGHT, g.labelWidth, H - RULER_HEIGHT, '#f7f8fa');
  for (const it of items) {
    const y = g.toScreenY(it.y);
    const indent = 6 + it.level * 12;
    if (it.kind === 'host' || it.kind === 'process') {
      p.fillRect(0, y, g.labelWidth, it.height, it.kind === 'host' ? '#e3e7ee' : '#eef1f5');
      const tx = indent;
      const ty = y + it.height / 2;
      // ▸ collapsed, ▾ expanded: drawn as polygons so export fonts do not matter.
      if (it.collapsed) p.polygon([tx, ty - 4, tx + 6, ty, tx, ty + 4], '#555555');
      else p.polygon([tx - 1, ty - 3, tx + 7, ty - 3, tx + 3, ty + 3], '#555555');
      const full = p.measureText(it.label, HEADER_FONT);
      p.text(tx + 11, ty + 0.5, fitText(it.label, full, g.labelWidth - tx - 16), {
        color: '#222222', font: HEADER_FONT, baseline: 'middle',
      });
    } else {
      const font = it.kind === 'counter' ? FONT : LABEL_FONT;
      const color = it.kind === 'counter' ? '#2f5f9f' : '#333333';
      const full = p.measureText(it.label, font);
      p.text(indent + 4, y + Math.min(it.height / 2, 9) + 1, fitText(it.label, full, g.labelWidth - indent - 10), {
        color, font, baseline: 'middle',
      });
    }
    if (it.kind === 'thread' && pinned.has(it.row)) p.fillRect(0, y, 3, it.height - 1, PIN_COLOR);
    p.fillRect(0, y + it.height - 1, g.labelWidth, 1, '#e2e2e2');
  }
  p.restore();
  p.fillRect(g.labelWidth - 1, RULER_HEIGHT, 1, H - RULER_HEIGHT, '#c8c8c8');
}

function paintRuler(
  p: Painter,
  g: TimelineGeometry,
  ticks: { step: number; values: number[] },
  range: { from: number; to: number } | null,
): void {
  const W = g.width;
  p.fillRect(0, 0, W, RULER_HEIGHT, '#fafafa');
  p.fillRect(0, RULER_HEIGHT - 1, W, 1, '#c8c8c8');
  p.text(8, RULER_HEIGHT / 2, `${formatDuration(g.window.to - g.window.from, 3)} shown`, {
    color: '#666666', font: FONT, baseline: 'middle',
  });
  p.save();
  p.clip(g.labelWidth, 0, W - g.labelWidth, RULER_HEIGHT);
  if (range) {
    const a = g.timeToX(Math.min(range.from, range.to));
    const b = g.timeToX(Math.max(range.from, range.to));
    p.fillRect(a, 0, b - a, RULER_HEIGHT - 1, 'rgba(60,120,220,0.25)');
  }
  const labels = formatTicks(ticks.values, ticks.step);
  ticks.values.forEach((t, i) => {
    const x = Math.round(g.timeToX(t)) + 0.5;
    p.line(x, RULER_HEIGHT - 8, x, RULER_HEIGHT - 1, '#777777', 1);
    p.text(x + 3, 9, labels[i]!, { color: '#333333', font: FONT, baseline: 'middle' });
  });
  p.restore();
  p.fillRect(g.labelWidth - 1, 0, 1, RULER_HEIGHT, '#c8c8c8');
}
