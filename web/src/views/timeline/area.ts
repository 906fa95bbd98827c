// The timeline's area selection: a time range and the rows (threads) a
// ctrl-drag (meta-drag on macOS) covered, kept until Escape or a plain click
// (input.ts reads the gesture). Other views follow it through AreaSource
// (the Statistics tab asks /stats for just that area). A collapsed group's
// header stands for all its threads; the rectangle is drawn over the lines
// of the selected rows as they are laid out now, so folding moves it along.
import { formatDuration } from '../../base/format';
import { RowLayout, type LayoutInput } from '../../base/layout';
import type { Painter } from '../../render/painter';
import { RULER_HEIGHT, type TimelineGeometry } from './geometry';

/** A selected area: trace times (from ≤ to) and thread rows (ascending, distinct). */
export interface AreaSelection {
  from: number;
  to: number;
  rows: number[];
}

/** What a view may read of the timeline's area selection. */
export interface AreaSource {
  /** The selected area; null when there is none. */
  area(): AreaSelection | null;
  /** Called when an area is selected or cleared; returns an unsubscribe function. */
  onAreaChange(listener: (area: AreaSelection | null) => void): () => void;
}

/** `timeline` as an AreaSource when it has an area selection (the real timeline does; test stand-ins may not). */
export function areaSource(timeline: object): AreaSource | null {
  const t = timeline as Partial<AreaSource>;
  return typeof t.area === 'function' && typeof t.onAreaChange === 'function' ? (t as AreaSource) : null;
}

/** A rectangle being dragged: trace times at its two sides, content y of its top and bottom (any order). */
export interface AreaBox {
  from: number;
  to: number;
  top: number;
  bottom: number;
}

/**
 * The thread rows whose lines meet content y [top, bottom]: a thread line or
 * its counter tracks give their row, a collapsed host or process header all
 * the threads it hides; an expanded header gives none (its threads are below it).
 */
export function rowsCovered(layout: RowLayout, processes: LayoutInput['processes'], top: number, bottom: number): number[] {
  const a = Math.min(top, bottom);
  const b = Math.max(top, bottom);
  const rows = new Set<number>();
  for (const it of layout.itemsIn(a, b + 1)) {
    if (it.kind === 'thread' || it.kind === 'counter') {
      if (it.row >= 0) rows.add(it.row);
    } else if (it.collapsed && it.kind === 'process') {
      for (const r of processes[it.process]?.threads ?? []) rows.add(r);
    } else if (it.collapsed && it.kind === 'host') {
      const host = it.key.slice('host:'.length);
      for (const p of processes) if (p.host === host) for (const r of p.threads) rows.add(r);
    }
  }
  return [...rows].sort((x, y) => x - y);
}

/** The area a dragged box selects; null when it covers no row or no time. */
export function areaOf(box: AreaBox, layout: RowLayout, processes: LayoutInput['processes']): AreaSelection | null {
  const from = Math.min(box.from, box.to);
  const to = Math.max(box.from, box.to);
  const rows = rowsCovered(layout, processes, box.top, box.bottom);
  return rows.length > 0 && to > from ? { from, to, rows } : null;
}

/**
 * Content y from the top of the first to the bottom of the last line showing
 * one of `rows` (thread lines with their counter tracks, collapsed headers);
 * null when none is laid out.
 */
export function areaExtent(layout: RowLayout, rows: readonly number[]): { top: number; bottom: number } | null {
  const set = new Set(rows);
  let top = Infinity;
  let bottom = -Infinity;
  for (const r of rows) {
    const it = layout.itemOfRow(r);
    if (!it) continue;
    top = Math.min(top, it.y);
    bottom = Math.max(bottom, it.y + it.height);
  }
  if (!(bottom > top)) return null;
  // Counter tracks follow their thread's line.
  for (let i = layout.indexAt(bottom); i >= 0 && i < layout.items.length; i++) {
    const it = layout.items[i]!;
    if (it.y !== bottom || it.kind !== 'counter' || !set.has(it.row)) break;
    bottom += it.height;
  }
  return { top, bottom };
}

export const AREA_FILL = 'rgba(240,150,20,0.2)';
export const AREA_BORDER = 'rgba(210,110,0,0.95)';
const AREA_FONT = '12px sans-serif';

/** Draws `area` over the plot (clipped to it) as a translucent box with a border and a label: rows and duration. */
export function paintArea(p: Painter, g: TimelineGeometry, area: AreaSelection): void {
  const ext = areaExtent(g.layout, area.rows);
  if (!ext) return;
  p.save();
  p.clip(g.plotLeft, RULER_HEIGHT, g.plotWidth, g.rowsHeight);
  drawBox(p, g, area, ext);
  p.restore();
}

function drawBox(p: Painter, g: TimelineGeometry, area: AreaSelection, ext: { top: number; bottom: number }): void {
  const x0 = g.timeToX(area.from);
  const x1 = g.timeToX(area.to);
  const y0 = g.toScreenY(ext.top);
  const y1 = g.toScreenY(ext.bottom);
  if (x1 < g.plotLeft || x0 > g.width || y1 < RULER_HEIGHT || y0 > g.height) return;
  const w = Math.max(1, x1 - x0);
  p.fillRect(x0, y0, w, y1 - y0, AREA_FILL);
  p.strokeRect(x0, y0, w, y1 - y0, AREA_BORDER, 2);
  const label = `${area.rows.length} ${area.rows.length === 1 ? 'row' : 'rows'}, ${formatDuration(area.to - area.from)}`;
  const tw = p.measureText(label, AREA_FONT) + 10;
  const lx = Math.min(Math.max(x0, g.plotLeft), g.width - tw);
  const ly = Math.max(y0, RULER_HEIGHT) + 2;
  p.fillRect(lx, ly, tw, 18, AREA_BORDER);
  p.text(lx + 5, ly + 9, label, { color: '#ffffff', font: AREA_FONT, align: 'left', baseline: 'middle' });
}

/** The area selection of one timeline and who follows it. */
export class TimelineArea implements AreaSource {
  private current: AreaSelection | null = null;
  private readonly listeners = new Set<(area: AreaSelection | null) => void>();

  /** `layout` and `processes` are the timeline's as they are now (folding changes the layout). */
  constructor(
    private readonly layout: () => RowLayout = () => EMPTY_LAYOUT,
    private readonly processes: () => LayoutInput['processes'] = () => [],
  ) {}

  /** Selects the area of a dragged box (none when it covers no row or time). */
  select(box: AreaBox): void {
    this.set(areaOf(box, this.layout(), this.processes()));
  }

  /** What to draw: the area of the box being dragged, else the selected one. */
  shown(drag: AreaBox | null): AreaSelection | null {
    return drag ? areaOf(drag, this.layout(), this.processes()) : this.current;
  }

  area(): AreaSelection | null {
    return this.current ? { ...this.current, rows: [...this.current.rows] } : null;
  }

  onAreaChange(listener: (area: AreaSelection | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Selects `area` (null clears); listeners hear of real changes only. */
  set(area: AreaSelection | null): void {
    if (sameArea(area, this.current)) return;
    this.current = area ? { from: area.from, to: area.to, rows: [...area.rows] } : null;
    for (const l of [...this.listeners]) l(this.area());
  }
}

const EMPTY_LAYOUT = new RowLayout({ processes: [], threads: [], counters: [] });

function sameArea(a: AreaSelection | null, b: AreaSelection | null): boolean {
  if (a === null || b === null) return a === b;
  return a.from === b.from && a.to === b.to && a.rows.length === b.rows.length && a.rows.every((r, i) => r === b.rows[i]);
}
