// The normal mode's hover tooltip: what the slice, instant or arrow under the
// pointer is (hitTest, the same as a click picks), its times at the precision
// they differ, beside the pointer. describeHit() says it in words (tested
// without a page); TimelineHover holds the box and sets the canvas's
// data-hover test hook at each frame (the compact mode sets the same hook
// for its cells).
import { formatDuration, formatTimeSpan } from '../../base/format';
import type { Tile } from '../../engine/tile';
import type { TraceSummary } from '../../protocol/api.gen';
import { tooltipElement } from '../common/dom';
import { RULER_HEIGHT, type TimelineGeometry } from './geometry';
import { hitTest, type Hit } from './hit';

/** The row's label as the timeline shows it (process and thread). */
export function rowName(summary: Pick<TraceSummary, 'threads' | 'processes'>, row: number): string {
  const t = summary.threads[row];
  if (!t) return `row ${row}`;
  const p = summary.processes[t.process];
  return p ? `${p.name} · ${t.name}` : t.name;
}

/** The tooltip's lines for `hit` on `tile`: a title, then details; [] when it names nothing. */
export function describeHit(tile: Tile, hit: Hit, summary: Pick<TraceSummary, 'threads' | 'processes' | 'states' | 'event_types'>): string[] {
  const merged = hit.merged ? ['several merged here: zoom in to tell them apart'] : [];
  if (hit.kind === 'slice') {
    const s = tile.slices;
    const begin = s.begin[hit.index]!;
    const end = s.end[hit.index]!;
    const [b, e] = formatTimeSpan(begin, end);
    const name = summary.states[s.state[hit.index]!]?.name ?? `state ${s.state[hit.index]}`;
    return [`${name} · ${formatDuration(end - begin)}`, `${b} – ${e}`, rowName(summary, s.row[hit.index]!), ...merged];
  }
  if (hit.kind === 'instant') {
    const ins = tile.instants;
    const type = summary.event_types[ins.type[hit.index]!]?.name ?? `event ${ins.type[hit.index]}`;
    const [t] = formatTimeSpan(ins.time[hit.index]!, ins.time[hit.index]!);
    return [type, t!, rowName(summary, ins.row[hit.index]!), ...merged];
  }
  const ar = tile.arrows;
  const send = ar.send[hit.index]!;
  const recv = ar.recv[hit.index]!;
  const [s, r] = formatTimeSpan(send, recv);
  return [
    `message · ${formatDuration(recv - send)} in flight`,
    `${rowName(summary, ar.fromRow[hit.index]!)} → ${rowName(summary, ar.toRow[hit.index]!)}`,
    `sent ${s}, received ${r}`,
    ...merged,
  ];
}

/** Offset of the box from the pointer, CSS px. */
const OFFSET = 14;

export class TimelineHover {
  /** the box, put in the timeline's host */
  readonly element: HTMLDivElement;
  private text = '';

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.element = tooltipElement('timeline-tooltip');
  }

  /**
   * Shows what is under `pointer` (CSS px in the canvas) on `tile`, or hides
   * the box when nothing is, or no pointer, or a button is down.
   */
  update(
    g: TimelineGeometry,
    tile: Tile | null,
    pointer: { x: number; y: number } | null,
    summary: TraceSummary,
    visible: (state: number) => boolean,
  ): void {
    let lines: string[] = [];
    if (tile && pointer && pointer.x >= g.labelWidth && pointer.y >= RULER_HEIGHT) {
      const hit = hitTest(tile, g, pointer.x, pointer.y, visible);
      if (hit) lines = describeHit(tile, hit, summary);
    }
    const text = lines.join('\n');
    if (text !== this.text) {
      this.text = text;
      this.element.replaceChildren(...lines.map((l, i) => lineElement(l, i === 0)));
    }
    this.canvas.dataset['hover'] = text;
    this.element.hidden = lines.length === 0;
    if (!pointer || lines.length === 0) return;
    // Beside the pointer, flipped to its left or above it near the edges.
    const w = this.element.offsetWidth;
    const h = this.element.offsetHeight;
    const left = pointer.x + OFFSET + w > g.width ? pointer.x - OFFSET - w : pointer.x + OFFSET;
    const top = pointer.y + OFFSET + h > g.height ? pointer.y - OFFSET - h : pointer.y + OFFSET;
    this.element.style.left = `${Math.max(0, left)}px`;
    this.element.style.top = `${Math.max(0, top)}px`;
  }

  /** Hides the box (the compact mode has its own words for the hook). */
  hide(): void {
    this.element.hidden = true;
  }
}

function lineElement(text: string, title: boolean): HTMLDivElement {
  const d = document.createElement('div');
  if (title) d.className = 'tooltip-title';
  d.textContent = text;
  return d;
}
