// What is selected on the timeline and what the details panel shows: a click
// turned into an action (select a slice, show an instant or a message, zoom
// in to what is too small to pick, toggle a group), the selected slice's box,
// and the details asked of the server. Only the newest request may answer:
// a slow reply for an older click must not replace what was clicked since.
import type { RowLayout } from '../../base/layout';
import { windowAround, type TimeWindow } from '../../base/time_scale';
import type { Tile } from '../../engine/tile';
import type { Details } from '../../protocol/api.gen';
import { LABEL_WIDTH, RULER_HEIGHT, type TimelineGeometry } from './geometry';
import { hitTest } from './hit';
import type { SliceBox } from './paint';

/** The selected slice: where it is drawn, and its name once the details came. */
export type SelectedSlice = SliceBox & { id: number; name: string };

/** What the selection needs of the timeline. */
export interface TimelineSelectionHost {
  /** Asks the server for the details of a slice, an instant or a message. */
  fetchDetails(kind: 'slice' | 'instant' | 'message', id: number): Promise<Details>;
  /** Hands details to the panel; null clears it, `loading` says an answer is on its way. */
  showDetails(d: Details | null, loading: boolean): void;
  /** The selected slice changed: report the status. */
  statusChanged(): void;
  requestDraw(): void;
}

export class TimelineSelection {
  private box: SelectedSlice | null = null;
  /** Counts the details requests; an answer whose number is not the last is dropped. */
  private seq = 0;

  constructor(private readonly host: TimelineSelectionHost) {}

  /** The selected slice, or null. */
  get selected(): SelectedSlice | null {
    return this.box;
  }

  /** Selects slice `id` at `box` now, and its details (and exact box and name) when they come. */
  selectSlice(id: number, box: SliceBox): void {
    const name = '';
    this.box = { ...box, id, name };
    this.host.requestDraw();
    this.host.statusChanged();
    const seq = ++this.seq;
    this.host.showDetails(null, true);
    this.host.fetchDetails('slice', id).then(
      (d) => {
        if (seq !== this.seq) return;
        this.box = { row: d.row, begin: d.begin, end: d.end, depth: d.depth, id, name: d.name };
        this.host.showDetails(d, false);
        this.host.statusChanged();
        this.host.requestDraw();
      },
      () => {
        if (seq === this.seq) this.host.showDetails(null, false);
      },
    );
  }

  /** Drops the selected slice and shows the details of an instant or a message. */
  showDetails(kind: 'instant' | 'message', id: number): void {
    const seq = ++this.seq;
    this.box = null;
    this.host.showDetails(null, true);
    this.host.requestDraw();
    this.host.fetchDetails(kind, id).then(
      (d) => {
        if (seq === this.seq) this.host.showDetails(d, false);
      },
      () => {
        if (seq === this.seq) this.host.showDetails(null, false);
      },
    );
  }

  /** Selects nothing and empties the panel; details still on their way are dropped. */
  clear(): void {
    this.box = null;
    this.seq++;
    this.host.showDetails(null, false);
    this.host.statusChanged();
    this.host.requestDraw();
  }

  /** Selects what replay stepped to: a slice (with details), a message or instant (details), else nothing. */
  showEvent(ev: { kind: string; ref: number; row: number; time: number }): void {
    if (ev.kind === 'begin' || ev.kind === 'end' || ev.kind === 'state') {
      this.selectSlice(ev.ref, { row: ev.row, begin: ev.time, end: ev.time, depth: 0 });
    } else if (ev.kind === 'send' || ev.kind === 'receive' || ev.kind === 'message') {
      this.showDetails('message', ev.ref);
    } else if (ev.kind === 'instant') {
      this.showDetails('instant', ev.ref);
    } else {
      this.clear();
    }
  }
}

/** What a click does; the timeline carries it out. */
export type ClickAction =
  | { kind: 'none' }
  | { kind: 'toggle'; key: string }
  | { kind: 'zoom'; window: TimeWindow }
  | { kind: 'slice'; id: number; box: SliceBox }
  | { kind: 'instant' | 'message'; id: number }
  | { kind: 'clear' };

/**
 * What a click at (x, y), CSS px within the canvas, does: on a host or
 * process label it toggles the group, on the ruler nothing (the input moves
 * the replay cursor there), on a bar, instant or arrow it selects it, or
 * zooms in to it when it is too small to pick apart; elsewhere it clears.
 */
export function clickAction(
  g: TimelineGeometry,
  layout: RowLayout,
  tile: Tile | null,
  x: number,
  y: number,
  visible: (state: number) => boolean,
): ClickAction {
  if (x < LABEL_WIDTH) {
    const item = layout.itemAt(g.toContentY(y));
    if (y >= RULER_HEIGHT && item && (item.kind === 'host' || item.kind === 'process')) return { kind: 'toggle', key: item.key };
    return { kind: 'none' };
  }
  if (y < RULER_HEIGHT) return { kind: 'none' };
  const hit = tile ? hitTest(tile, g, x, y, visible) : null;
  if (!hit || !tile) return { kind: 'clear' };
  if (hit.kind === 'slice') {
    const s = tile.slices;
    const i = hit.index;
    if (hit.merged) return { kind: 'zoom', window: windowAround(s.begin[i]!, s.end[i]!, 0.5) };
    return { kind: 'slice', id: s.ref[i]!, box: { row: s.row[i]!, begin: s.begin[i]!, end: s.end[i]!, depth: s.depth[i]! } };
  }
  if (hit.kind === 'instant') {
    const ins = tile.instants;
    if (hit.merged) {
      // A merged marker covers a few pixels of instants: zoom to a few pixels around it.
      const t = ins.time[hit.index]!;
      const res = g.scale.resolution;
      return { kind: 'zoom', window: windowAround(t - 4 * res, t + 4 * res, 0.5) };
    }
    return { kind: 'instant', id: ins.ref[hit.index]! };
  }
  const ar = tile.arrows;
  if (hit.merged) {
    const a = ar.send[hit.index]!;
    const b = ar.recv[hit.index]!;
    return { kind: 'zoom', window: windowAround(Math.min(a, b), Math.max(a, b), 0.5) };
  }
  return { kind: 'message', id: ar.ref[hit.index]! };
}
