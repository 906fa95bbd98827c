// What is selected on the timeline and what the details panel shows: a click
// turned into an action (select a slice, show an instant or a message, zoom
// in to what is too small to pick, toggle a group), the selected slice's box,
// and the details asked of the server. Only the newest request may answer:
// a slow reply for an older click must not replace what was clicked since.
// A selected message keeps both its ends (drawn marked) and which of them the
// flow keys start from.
import type { RowLayout } from '../../base/layout';
import { windowAround, type TimeWindow } from '../../base/time_scale';
import type { End, MessageEnds } from '../../engine/links';
import type { Tile } from '../../engine/tile';
import type { Details } from '../../protocol/api.gen';
import { RULER_HEIGHT, type TimelineGeometry } from './geometry';
import { hitTest } from './hit';
import type { SliceBox } from './paint';

/** The selected slice: where it is drawn, and its name once the details came. */
export type SelectedSlice = SliceBox & { id: number; name: string };

/** The selected message: its ends, and the end the flow keys go on from. */
export type SelectedMessage = MessageEnds & { focus: End };

/** Where a message's ends are, as an arrow of the tile has them. */
export type ArrowEnds = Pick<MessageEnds, 'id' | 'sendRow' | 'recvRow' | 'send' | 'recv'>;

/** What the selection needs of the timeline. */
export interface TimelineSelectionHost {
  /** Asks the server for the details of a slice, an instant or a message. */
  fetchDetails(kind: 'slice' | 'instant' | 'message', id: number): Promise<Details>;
  /** The ends of message `id` sent on `row` at `time`; null when not matched. */
  fetchMessage(id: number, row: number, time: number): Promise<MessageEnds | null>;
  /** Hands details to the panel; null clears it, `loading` says an answer is on its way. */
  showDetails(d: Details | null, loading: boolean): void;
  /** The selected slice changed: report the status. */
  statusChanged(): void;
  requestDraw(): void;
}

export class TimelineSelection {
  private box: SelectedSlice | null = null;
  private msg: SelectedMessage | null = null;
  /** Counts the details requests; an answer whose number is not the last is dropped. */
  private seq = 0;

  constructor(private readonly host: TimelineSelectionHost) {}

  /** The selected slice, or null. */
  get selected(): SelectedSlice | null {
    return this.box;
  }

  /** The selected message, or null; its ends may come after its details. */
  get message(): SelectedMessage | null {
    return this.msg;
  }

  /** Selects slice `id` at `box` now, and its details (and exact box and name) when they come. */
  selectSlice(id: number, box: SliceBox): void {
    const name = '';
    this.msg = null;
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

  /**
   * Selects a message: `id` is a message id or (replay) a receive record,
   * `ends` where it lies when known (else asked for after its details), and
   * `focus` the end the flow keys go on from.
   */
  selectMessage(id: number, ends: ArrowEnds | MessageEnds | null, focus: End = 'send'): void {
    const seq = ++this.seq;
    this.box = null;
    this.msg = ends ? { bytes: 0, tag: 0, ...ends, focus } : null;
    this.host.showDetails(null, true);
    this.host.statusChanged();
    this.host.requestDraw();
    this.host.fetchDetails('message', id).then(
      (d) => {
        if (seq !== this.seq) return;
        this.host.showDetails(d, false);
        if (this.msg?.id === d.id) return;
        // A receive record answers with its message: the focus stays on the receive.
        const end: End = d.id !== id ? 'recv' : focus;
        return this.host.fetchMessage(d.id, d.row, d.begin).then((m) => {
          if (seq !== this.seq || !m) return;
          this.msg = { ...m, focus: end };
          this.host.statusChanged();
          this.host.requestDraw();
        });
      },
      () => {
        if (seq === this.seq) this.host.showDetails(null, false);
      },
    ).catch(() => undefined);
  }

  /** Moves the flow keys' end of the selected message to its other end. */
  flipFocus(): SelectedMessage | null {
    if (!this.msg) return null;
    this.msg = { ...this.msg, focus: this.msg.focus === 'send' ? 'recv' : 'send' };
    this.host.statusChanged();
    this.host.requestDraw();
    return this.msg;
  }

  /** Drops the selection and shows the details of an instant. */
  showDetails(kind: 'instant', id: number): void {
    const seq = ++this.seq;
    this.box = null;
    this.msg = null;
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
    this.msg = null;
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
      this.selectMessage(ev.ref, null, ev.kind === 'receive' ? 'recv' : 'send');
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
  | { kind: 'pin'; row: number }
  | { kind: 'zoom'; window: TimeWindow }
  | { kind: 'slice'; id: number; box: SliceBox }
  | { kind: 'instant'; id: number }
  | { kind: 'message'; id: number; ends: ArrowEnds }
  | { kind: 'clear' };

/**
 * What a click at (x, y), CSS px within the canvas, does: on a host or
 * process label it toggles the group, on a thread label pins or unpins the
 * row (row_order.ts), on the ruler nothing (the input moves
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
  if (x < g.labelWidth) {
    const item = layout.itemAt(g.toContentY(y));
    if (y >= RULER_HEIGHT && item && (item.kind === 'host' || item.kind === 'process')) return { kind: 'toggle', key: item.key };
    if (y >= RULER_HEIGHT && item?.kind === 'thread') return { kind: 'pin', row: item.row };
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
  const id = ar.ref[hit.index]!;
  return { kind: 'message', id, ends: { id, sendRow: ar.fromRow[hit.index]!, recvRow: ar.toRow[hit.index]!, send: ar.send[hit.index]!, recv: ar.recv[hit.index]! } };
}
