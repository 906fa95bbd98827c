// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { TraceLinks, type End, type MessageEnds } from '../engine/links';
import type { Details, LamportMessage } from '../protocol/api.gen';
import type { TimelineTarget } from '../views/context';
import { fakeApi, fixtureSummary, flush } from '../views/common/testing';
import { DetailsPanel } from '../widgets/details';
import { LinkedDetails, type LinkedTimeline } from './linked_details';

const summary = fixtureSummary();
// Row 0 (rank 0 / main) sends message 1 to row 2 (rank 1 / main): sent at 1000 in MPI_Send [900, 1100], received at 5000 at the end of MPI_Wait [2000, 5000].
const MESSAGE: LamportMessage = { id: 1, send_row: 0, recv_row: 2, send_clock: 1, recv_clock: 2, send_time: 1000, recv_time: 5000, bytes: 64, tag: 7 };
const SLICES = [
  { id: 10, row: 0, state: 1, depth: 1, begin_clock: 0, end_clock: 0, begin: 900, end: 1100 },
  { id: 20, row: 2, state: 2, depth: 1, begin_clock: 0, end_clock: 0, begin: 2000, end: 5000 },
  { id: 21, row: 2, state: 0, depth: 1, begin_clock: 0, end_clock: 0, begin: 5000, end: 9000 },
];

function details(kind: string, id: number, row: number, begin: number, end: number): Details {
  return { kind, id, name: kind, row, begin, end, depth: 1, callsite: null, fields: [] };
}

function setup() {
  const api = fakeApi({
    lamport: (p) => ({
      min_clock: 0,
      max_clock: 0,
      slices: SLICES.filter((s) => p.rows!.includes(s.row) && s.end >= p.from! && s.begin <= p.to!),
      messages: [MESSAGE],
      truncated: false,
    }),
    waits: () => ({
      total: { late_sender: 3000, late_receiver: 0, collective: 0, total: 3000, count: 1 },
      processes: [],
      callsites: [],
      longest: [{ kind: 'late-sender', slice: { id: 20, row: 2, state: 2, begin: 2000, end: 5000, depth: 1 }, begin: 2000, end: 5000, cause_row: 0 }],
    }),
    critical_path: () => ({ length: 0, segments: [{ row: 2, begin: 4000, end: 9000 }], total_segments: 1, states: [] }),
  });
  const jumps: TimelineTarget[] = [];
  const shownMessages: Array<[number, End]> = [];
  const timeline: LinkedTimeline = {
    links: new TraceLinks(api, () => 1e6),
    selection: { message: null },
    flow: { show: (m: MessageEnds, focus: End) => void shownMessages.push([m.id, focus]) },
    jumpTo: (t) => jumps.push(t),
    reveal: () => undefined,
  };
  const panel = new DetailsPanel(summary);
  document.body.replaceChildren(panel.el);
  const linked = new LinkedDetails(timeline, () => panel, () => summary);
  const show = (d: Details): void => {
    panel.show(d);
    linked.shown(d);
  };
  return { panel, show, jumps, shownMessages, linked };
}

const q = (id: string): HTMLElement | null => document.querySelector(`[data-testid=${id}]`);

describe('LinkedDetails', () => {
  it("links a message's details to its send and receive slices", async () => {
    const { show, jumps } = setup();
    show(details('message', 1, 0, 1000, 5000));
    await flush();
    expect(q('details-send-slice')?.textContent).toContain('rank 0 / main');
    expect(q('details-recv-slice')?.textContent).toContain('rank 1 / main');
    q('details-send-slice')!.click();
    await flush();
    q('details-recv-slice')!.click();
    await flush();
    // The receive lies at MPI_Wait's end, where the next slice begins: the wait is chosen.
    expect(jumps).toEqual([
      { row: 0, begin: 900, end: 1100, slice: 10 },
      { row: 2, begin: 2000, end: 5000, slice: 20 },
    ]);
  });

  it("shows a slice's wait state, critical path and messages, each message a link", async () => {
    const { show, shownMessages } = setup();
    show(details('slice', 20, 2, 2000, 5000));
    await flush();
    expect(q('details-wait')?.textContent).toBe('late sender: waited 3 µs for rank 0 / main');
    expect(q('details-wait')?.dataset['kind']).toBe('late-sender');
    expect(q('details-path')?.dataset['onPath']).toBe('true');
    expect(q('details-path')?.textContent).toContain('33 %');
    const items = [...document.querySelectorAll<HTMLElement>('[data-testid=details-message]')];
    expect(items.map((b) => [b.dataset['message'], b.dataset['end']])).toEqual([['1', 'recv']]);
    expect(items[0]!.textContent).toContain('received from rank 0 / main');
    items[0]!.click();
    expect(shownMessages).toEqual([[1, 'recv']]);
  });

  it('says when a slice did not wait and is off the critical path; drops links of details no longer shown', async () => {
    const { show, panel, linked } = setup();
    show(details('slice', 10, 0, 900, 1100));
    await flush();
    expect(q('details-wait')?.textContent).toBe('none');
    expect(q('details-path')?.dataset['onPath']).toBe('false');
    show(details('slice', 20, 2, 2000, 5000));
    panel.clear();
    linked.shown(null);
    await flush();
    expect(q('details-slice-links')).toBeNull();
  });
});
