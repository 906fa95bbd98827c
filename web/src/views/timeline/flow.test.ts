import { describe, expect, it } from 'vitest';
import type { End, MessageEnds, MessageEvent } from '../../engine/links';
import { MessageFlow, windowShowing, windowShowingMessage, type FlowSelection } from './flow';
import type { SelectedMessage, SelectedSlice } from './selection';

const FIRST: MessageEnds = { id: 1, sendRow: 0, recvRow: 2, send: 100, recv: 180, bytes: 8, tag: 0 };
const SECOND: MessageEnds = { id: 2, sendRow: 2, recvRow: 0, send: 400, recv: 450, bytes: 8, tag: 0 };

/** A selection and a server stand-in: the next message end asked for is `answer`. */
function setup(answer: MessageEvent | null) {
  let slice: SelectedSlice | null = null;
  let message: SelectedMessage | null = null;
  const asked: Array<[number, number, number, { id: number; end: End } | null]> = [];
  const revealed: Array<[number, number]> = [];
  let win = { from: 0, to: 1000 };
  const selection: FlowSelection = {
    get selected() {
      return slice;
    },
    get message() {
      return message;
    },
    selectMessage: (_id, ends, focus = 'send') => {
      slice = null;
      message = ends ? { bytes: 0, tag: 0, ...ends, focus } : null;
    },
    flipFocus: () => (message = message ? { ...message, focus: message.focus === 'send' ? 'recv' : 'send' } : null),
  };
  const flow = new MessageFlow(
    selection,
    { nextMessage: (row, t, dir, _span, after) => (asked.push([row, t, dir, after ?? null]), Promise.resolve(answer)) },
    { window: () => ({ ...win }), setWindow: (w) => void (win = w), reveal: (row, time) => revealed.push([row, time]) },
  );
  return {
    flow,
    asked,
    revealed,
    selectSlice: (s: SelectedSlice) => (slice = s),
    message: () => message,
    win: () => win,
  };
}

describe('MessageFlow', () => {
  it('does nothing without a selection', async () => {
    const { flow, asked } = setup({ message: FIRST, end: 'send' });
    expect(await flow.step(1)).toBe(false);
    expect(flow.partner()).toBe(false);
    expect(asked).toEqual([]);
  });

  it("steps from a slice to the first message end in it, and from a message on along the focused end's row", async () => {
    const s = setup({ message: FIRST, end: 'send' });
    s.selectSlice({ row: 0, begin: 90, end: 120, depth: 0, id: 5, name: 'MPI_Send' });
    expect(await s.flow.step(1)).toBe(true);
    expect(s.asked).toEqual([[0, 89.5, 1, null]]);
    expect(s.message()).toMatchObject({ id: 1, focus: 'send' });
    expect(s.revealed).toEqual([[0, 100]]);
    // P: to the receive on row 2, then "[" goes back along row 2 from it.
    expect(s.flow.partner()).toBe(true);
    expect(s.message()?.focus).toBe('recv');
    expect(s.revealed.at(-1)).toEqual([2, 180]);
    await s.flow.step(-1);
    expect(s.asked.at(-1)).toEqual([2, 180, -1, { id: 1, end: 'recv' }]);
  });

  it('shows a message picked elsewhere with both ends in the window', () => {
    const s = setup(null);
    s.flow.show(SECOND, 'recv');
    expect(s.message()).toMatchObject({ id: 2, focus: 'recv' });
    expect(s.win().from).toBeLessThanOrEqual(400);
    expect(s.win().to).toBeGreaterThanOrEqual(450);
    expect(s.revealed).toEqual([[0, 450]]);
  });

  it('keeps the selection when there is no further message', async () => {
    const s = setup(null);
    s.selectSlice({ row: 0, begin: 90, end: 120, depth: 0, id: 5, name: '' });
    expect(await s.flow.step(-1)).toBe(false);
    expect(s.asked).toEqual([[0, 90, -1, null]]);
    expect(s.message()).toBeNull();
  });
});

describe('flow windows', () => {
  it('keeps a window that shows the time, else centres it there at the same zoom', () => {
    expect(windowShowing({ from: 0, to: 100 }, 50)).toEqual({ from: 0, to: 100 });
    expect(windowShowing({ from: 0, to: 100 }, 250)).toEqual({ from: 200, to: 300 });
    expect(windowShowing({ from: 0, to: 100 }, 99)).toEqual({ from: 49, to: 149 });
  });

  it("shows both ends of a message: kept, moved, or zoomed out to fit it", () => {
    expect(windowShowingMessage({ from: 0, to: 1000 }, FIRST)).toEqual({ from: 0, to: 1000 });
    expect(windowShowingMessage({ from: 0, to: 100 }, SECOND)).toEqual({ from: 375, to: 475 });
    const w = windowShowingMessage({ from: 0, to: 10 }, FIRST);
    expect(w.from).toBeLessThan(100);
    expect(w.to).toBeGreaterThan(180);
  });
});
