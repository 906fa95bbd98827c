import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { windowAround } from '../../base/time_scale';
import { decodeTile } from '../../engine/tile';
import { encodeTile } from '../../engine/tile_encode';
import type { MessageEnds } from '../../engine/links';
import type { Details } from '../../protocol/api.gen';
import { LABEL_WIDTH, RULER_HEIGHT, TimelineGeometry } from './geometry';
import { TimelineSelection, clickAction, type TimelineSelectionHost } from './selection';
import { TWO_RANKS } from './test_rows';

const rows = TWO_RANKS;

// 1000 ns over 1000 px: 1 ns per px, plot starting at LABEL_WIDTH.
const layout = new RowLayout(rows);
const g = new TimelineGeometry({ from: 0, to: 1000 }, LABEL_WIDTH + 1000, 400, layout, 0);

const tile = decodeTile(
  encodeTile({
    from: 0,
    to: 1000,
    width: 1000,
    slices: [
      { begin: 100, end: 400, row: 0, state: 0, ref: 11, depth: 0, flags: 0 },
      { begin: 600, end: 600.4, row: 0, state: 2, ref: 5, depth: 0, flags: 1 },
    ],
    instants: [
      { time: 700, row: 1, type: 0, ref: 21, flags: 0 },
      { time: 300, row: 1, type: 0, ref: 22, flags: 1 },
    ],
    arrows: [
      { send: 450, recv: 550, from_row: 0, to_row: 1, ref: 31, flags: 0 },
      { send: 980, recv: 760, from_row: 0, to_row: 1, ref: 32, flags: 1 },
    ],
  }),
);

const visible = (): boolean => true;
const laneY = (row: number) => g.laneTop(row, 0) + 5;
const arrowY = (g.rowAnchorY(0) + g.rowAnchorY(1)) / 2 + 1;

describe('clickAction', () => {
  it('toggles a host or process group on its label, pins a row on its label, and does nothing on the ruler', () => {
    expect(clickAction(g, layout, tile, 10, RULER_HEIGHT + 5, visible)).toEqual({ kind: 'toggle', key: 'host:h' });
    expect(clickAction(g, layout, tile, 10, RULER_HEIGHT + 25, visible)).toEqual({ kind: 'toggle', key: 'process:0' });
    expect(clickAction(g, layout, tile, 10, laneY(0), visible)).toEqual({ kind: 'pin', row: 0 });
    expect(clickAction(g, layout, tile, 10, 5, visible)).toEqual({ kind: 'none' });
    expect(clickAction(g, layout, tile, g.timeToX(300), 5, visible)).toEqual({ kind: 'none' });
  });

  it('selects a bar with its box, and zooms in to a merged one', () => {
    expect(clickAction(g, layout, tile, g.timeToX(300), laneY(0), visible)).toEqual({
      kind: 'slice',
      id: 11,
      box: { row: 0, begin: 100, end: 400, depth: 0 },
    });
    expect(clickAction(g, layout, tile, g.timeToX(600) + 0.5, laneY(0), visible)).toEqual({
      kind: 'zoom',
      window: windowAround(600, 600.4, 0.5),
    });
  });

  it('shows an instant, and zooms to a few pixels around a merged one', () => {
    expect(clickAction(g, layout, tile, g.timeToX(700) + 1, g.rowTop(1) + 2, visible)).toEqual({ kind: 'instant', id: 21 });
    const res = g.scale.resolution;
    expect(clickAction(g, layout, tile, g.timeToX(300) + 1, g.rowTop(1) + 2, visible)).toEqual({
      kind: 'zoom',
      window: windowAround(300 - 4 * res, 300 + 4 * res, 0.5),
    });
  });

  it('shows a message on its arrow, and zooms to the span of a merged one', () => {
    expect(clickAction(g, layout, tile, g.timeToX(500), arrowY, visible)).toEqual({
      kind: 'message',
      id: 31,
      ends: { id: 31, sendRow: 0, recvRow: 1, send: 450, recv: 550 },
    });
    // Sent after it was received (clocks apart): the window still runs forwards.
    expect(clickAction(g, layout, tile, g.timeToX(870), arrowY, visible)).toEqual({
      kind: 'zoom',
      window: windowAround(760, 980, 0.5),
    });
  });

  it('clears on empty space, on a hidden state and without a tile', () => {
    expect(clickAction(g, layout, tile, g.timeToX(50), laneY(0), visible)).toEqual({ kind: 'clear' });
    expect(clickAction(g, layout, tile, g.timeToX(300), laneY(0), (s) => s !== 0)).toEqual({ kind: 'clear' });
    expect(clickAction(g, layout, null, g.timeToX(300), laneY(0), visible)).toEqual({ kind: 'clear' });
  });
});

function details(kind: string, id: number, extra: Partial<Details> = {}): Details {
  return { kind, id, name: `${kind} ${id}`, row: 1, begin: 10, end: 20, depth: 2, callsite: null, fields: [], ...extra };
}

/** A timeline stand-in whose details requests answer when the test says so. */
function setup() {
  const pending: Array<{ kind: string; id: number; resolve: (d: Details) => void; reject: (e: unknown) => void }> = [];
  const shown: Array<[string | null, boolean]> = [];
  let statuses = 0;
  let draws = 0;
  const messages: Array<[number, number, number]> = [];
  const host: TimelineSelectionHost = {
    fetchDetails: (kind, id) => new Promise<Details>((resolve, reject) => pending.push({ kind, id, resolve, reject })),
    fetchMessage: (id, row, time) => {
      messages.push([id, row, time]);
      return Promise.resolve<MessageEnds>({ id, sendRow: row, recvRow: 3, send: time, recv: time + 7, bytes: 8, tag: 1 });
    },
    showDetails: (d, loading) => shown.push([d ? `${d.kind} ${d.id}` : null, loading]),
    statusChanged: () => statuses++,
    requestDraw: () => draws++,
  };
  const selection = new TimelineSelection(host);
  return { selection, pending, shown, messages, statuses: () => statuses, draws: () => draws };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('TimelineSelection', () => {
  it('selects a slice at once and takes its exact box and name from the details', async () => {
    const { selection, pending, shown, statuses } = setup();
    selection.selectSlice(11, { row: 0, begin: 5, end: 5, depth: 0 });
    expect(selection.selected).toEqual({ row: 0, begin: 5, end: 5, depth: 0, id: 11, name: '' });
    expect(shown).toEqual([[null, true]]);
    expect(statuses()).toBe(1);
    expect(pending.map((p) => [p.kind, p.id])).toEqual([['slice', 11]]);
    pending[0]!.resolve(details('slice', 11));
    await settle();
    expect(selection.selected).toEqual({ row: 1, begin: 10, end: 20, depth: 2, id: 11, name: 'slice 11' });
    expect(shown.at(-1)).toEqual(['slice 11', false]);
    expect(statuses()).toBe(2);
  });

  it('drops the answer of an older request', async () => {
    const { selection, pending, shown } = setup();
    selection.selectSlice(11, { row: 0, begin: 5, end: 5, depth: 0 });
    selection.showDetails('instant', 21);
    selection.selectMessage(31, null);
    expect(selection.selected).toBeNull();
    pending[2]!.resolve(details('message', 31));
    pending[1]!.resolve(details('instant', 21));
    pending[0]!.resolve(details('slice', 11));
    await settle();
    expect(selection.selected).toBeNull();
    expect(shown).toEqual([
      [null, true],
      [null, true],
      [null, true],
      ['message 31', false],
    ]);
  });

  it('clears the panel when the request fails, unless a newer one was made', async () => {
    const { selection, pending, shown } = setup();
    selection.showDetails('instant', 21);
    pending[0]!.reject(new Error('gone'));
    await settle();
    expect(shown.at(-1)).toEqual([null, false]);
    selection.showDetails('instant', 22);
    selection.showDetails('instant', 23);
    pending[1]!.reject(new Error('gone'));
    selection.selectSlice(11, { row: 0, begin: 5, end: 5, depth: 0 });
    selection.selectSlice(12, { row: 0, begin: 6, end: 6, depth: 0 });
    pending[3]!.reject(new Error('gone'));
    await settle();
    expect(shown.at(-1)).toEqual([null, true]);
  });

  it('drops details still on their way when cleared', async () => {
    const { selection, pending, shown, draws } = setup();
    selection.selectSlice(11, { row: 0, begin: 5, end: 5, depth: 0 });
    const before = draws();
    selection.clear();
    expect(draws()).toBe(before + 1);
    expect(selection.selected).toBeNull();
    pending[0]!.resolve(details('slice', 11));
    await settle();
    expect(selection.selected).toBeNull();
    expect(shown).toEqual([
      [null, true],
      [null, false],
    ]);
  });

  it('selects a clicked message at once, with both ends, and moves its focus', async () => {
    const { selection, pending, shown, messages } = setup();
    selection.selectSlice(11, { row: 0, begin: 5, end: 5, depth: 0 });
    selection.selectMessage(31, { id: 31, sendRow: 0, recvRow: 1, send: 450, recv: 550 });
    expect(selection.selected).toBeNull();
    expect(selection.message).toEqual({ id: 31, sendRow: 0, recvRow: 1, send: 450, recv: 550, bytes: 0, tag: 0, focus: 'send' });
    pending[1]!.resolve(details('message', 31));
    await settle();
    expect(shown.at(-1)).toEqual(['message 31', false]);
    expect(messages).toEqual([]); // its ends were known
    expect(selection.flipFocus()?.focus).toBe('recv');
    expect(selection.flipFocus()?.focus).toBe('send');
    selection.clear();
    expect(selection.message).toBeNull();
    expect(selection.flipFocus()).toBeNull();
  });

  it('finds the ends of a message selected by id from its details; a receive record keeps the focus on the receive', async () => {
    const { selection, pending, messages } = setup();
    selection.selectMessage(31, null);
    expect(selection.message).toBeNull();
    pending[0]!.resolve(details('message', 31, { row: 2, begin: 100 }));
    await settle();
    expect(messages).toEqual([[31, 2, 100]]);
    expect(selection.message).toEqual({ id: 31, sendRow: 2, recvRow: 3, send: 100, recv: 107, bytes: 8, tag: 1, focus: 'send' });
    // Replay stepped to receive record 40, whose message is 31.
    selection.showEvent({ kind: 'receive', ref: 40, row: 3, time: 107 });
    pending[1]!.resolve(details('message', 31, { row: 2, begin: 100 }));
    await settle();
    expect(selection.message?.focus).toBe('recv');
    // A newer selection drops the older one's ends.
    selection.selectMessage(32, null);
    selection.selectSlice(12, { row: 0, begin: 6, end: 6, depth: 0 });
    pending[2]!.resolve(details('message', 32, { row: 2, begin: 200 }));
    await settle();
    expect(selection.message).toBeNull();
  });

  it('selects what replay stepped to', () => {
    const { selection, pending } = setup();
    selection.showEvent({ kind: 'end', ref: 11, row: 0, time: 40 });
    expect(selection.selected).toEqual({ row: 0, begin: 40, end: 40, depth: 0, id: 11, name: '' });
    selection.showEvent({ kind: 'receive', ref: 31, row: 1, time: 50 });
    selection.showEvent({ kind: 'instant', ref: 21, row: 1, time: 60 });
    expect(pending.map((p) => [p.kind, p.id])).toEqual([
      ['slice', 11],
      ['message', 31],
      ['instant', 21],
    ]);
    selection.showEvent({ kind: 'begin', ref: 12, row: 0, time: 70 });
    selection.showEvent({ kind: 'counter', ref: 1, row: 0, time: 80 });
    expect(selection.selected).toBeNull();
    expect(pending).toHaveLength(4);
  });
});
