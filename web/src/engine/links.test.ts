import { describe, expect, it } from 'vitest';
import type { LamportMessage, LamportSlice } from '../protocol/api.gen';
import { fakeApi } from '../views/common/testing';
import { TraceLinks, messagesIn, nextMessageEvent, pathOverlap, sliceHolding } from './links';

function msg(id: number, sendRow: number, send: number, recvRow: number, recv: number): LamportMessage {
  return { id, send_row: sendRow, recv_row: recvRow, send_clock: 0, recv_clock: 0, send_time: send, recv_time: recv, bytes: 8, tag: 1 };
}

function slice(id: number, row: number, begin: number, end: number, depth = 0): LamportSlice {
  return { id, row, state: 0, depth, begin_clock: 0, end_clock: 0, begin, end };
}

// Row 0 sends to row 1 at 100 (received 150) and at 300 (received 320); row 1 sends back at 200 (received 250 on row 0).
const MESSAGES = [msg(1, 0, 100, 1, 150), msg(2, 1, 200, 0, 250), msg(3, 0, 300, 1, 320)];

describe('links: pure lookups', () => {
  it('finds the slice a message end lies in: the send in the call that goes on, the receive in the call that returns', () => {
    // MPI_Recv [100, 150] on row 1 ends where the next call begins, under main.
    const slices = [slice(10, 1, 0, 1000), slice(11, 1, 100, 150, 1), slice(12, 1, 150, 180, 1)];
    expect(sliceHolding(slices, 1, 150, 'recv')?.id).toBe(11);
    expect(sliceHolding(slices, 1, 150, 'send')?.id).toBe(12);
    expect(sliceHolding(slices, 1, 120, 'send')?.id).toBe(11);
    expect(sliceHolding(slices, 1, 500, 'send')?.id).toBe(10);
    expect(sliceHolding(slices, 0, 120, 'send')).toBeNull();
    expect(sliceHolding(slices, 1, 2000, 'recv')).toBeNull();
  });

  it('lists the messages a slice sent and received, in time order', () => {
    const { sent, received } = messagesIn(MESSAGES, 0, 100, 300);
    expect(sent.map((m) => m.id)).toEqual([1, 3]);
    expect(received.map((m) => m.id)).toEqual([2]);
    expect(sent[0]).toEqual({ id: 1, sendRow: 0, recvRow: 1, send: 100, recv: 150, bytes: 8, tag: 1 });
    expect(messagesIn(MESSAGES, 1, 151, 199)).toEqual({ sent: [], received: [] });
  });

  it('steps through the message ends of a row, forward and back', () => {
    const walk = (dir: 1 | -1, t: number): string[] => {
      const out: string[] = [];
      let after: { id: number; end: 'send' | 'recv' } | null = null;
      for (;;) {
        const ev = nextMessageEvent(MESSAGES, 0, t, dir, after);
        if (!ev) return out;
        out.push(`${ev.message.id}${ev.end}`);
        t = ev.end === 'send' ? ev.message.send : ev.message.recv;
        after = { id: ev.message.id, end: ev.end };
      }
    };
    expect(walk(1, 0)).toEqual(['1send', '2recv', '3send']);
    expect(walk(-1, 1000)).toEqual(['3send', '2recv', '1send']);
    // Ends at one time are taken one by one.
    const same = [msg(5, 0, 100, 1, 150), msg(6, 0, 100, 1, 160)];
    expect(nextMessageEvent(same, 0, 100, 1, { id: 5, end: 'send' })?.message.id).toBe(6);
    expect(nextMessageEvent(same, 0, 100, -1, { id: 6, end: 'send' })?.message.id).toBe(5);
    expect(nextMessageEvent(same, 0, 99.5, 1)?.message.id).toBe(5);
  });

  it('measures the critical path over a span of a row', () => {
    const segs = [
      { row: 0, begin: 0, end: 50 },
      { row: 1, begin: 50, end: 120 },
      { row: 0, begin: 120, end: 200 },
    ];
    expect(pathOverlap(segs, 0, 40, 150)).toBe(40);
    expect(pathOverlap(segs, 1, 0, 60)).toBe(10);
    expect(pathOverlap(segs, 1, 130, 400)).toBe(0);
  });
});

describe('TraceLinks', () => {
  it("answers a slice's messages, wait and path, fetching waits and the path once", async () => {
    const api = fakeApi({
      lamport: () => ({ min_clock: 0, max_clock: 0, slices: [], messages: MESSAGES, truncated: false }),
      waits: () => ({
        total: { late_sender: 0, late_receiver: 0, collective: 0, total: 0, count: 1 },
        processes: [],
        callsites: [],
        longest: [{ kind: 'late-sender', slice: { id: 7, row: 0, state: 0, begin: 200, end: 260, depth: 0 }, begin: 200, end: 250, cause_row: 1 }],
      }),
      critical_path: () => ({ length: 0, segments: [{ row: 0, begin: 240, end: 400 }], total_segments: 1, states: [] }),
    });
    const links = new TraceLinks(api, () => 1000);
    const l = await links.slice(7, 0, 200, 260);
    expect(l.received.map((m) => m.id)).toEqual([2]);
    expect(l.sent).toEqual([]);
    expect(l.wait?.kind).toBe('late-sender');
    expect(l.onPath).toBe(20);
    const other = await links.slice(8, 0, 90, 110);
    expect(other.wait).toBeNull();
    expect(other.sent.map((m) => m.id)).toEqual([1]);
    expect(api.calls.filter((c) => c.endpoint === 'waits')).toHaveLength(1);
    expect(api.calls.filter((c) => c.endpoint === 'critical_path')).toHaveLength(1);
    links.reset();
    await links.slice(7, 0, 200, 260);
    expect(api.calls.filter((c) => c.endpoint === 'waits')).toHaveLength(2);
  });

  it('says what the server could not answer, and asks for waits and the path again next time', async () => {
    let fail = true;
    const api = fakeApi({
      lamport: () => {
        if (fail) throw new Error('501');
        return { min_clock: 0, max_clock: 0, slices: [], messages: MESSAGES, truncated: false };
      },
      waits: () => {
        if (fail) throw new Error('503');
        return { total: { late_sender: 0, late_receiver: 0, collective: 0, total: 0, count: 0 }, processes: [], callsites: [], longest: [] };
      },
      critical_path: () => {
        if (fail) throw new Error('503');
        return { length: 0, segments: [], total_segments: 0, states: [] };
      },
    });
    const links = new TraceLinks(api, () => 1000);
    const first = await links.slice(7, 0, 200, 260);
    expect([first.messagesKnown, first.waitsKnown, first.onPath]).toEqual([false, false, null]);
    fail = false;
    const second = await links.slice(7, 0, 200, 260);
    expect([second.messagesKnown, second.waitsKnown, second.onPath, second.received.length]).toEqual([true, true, 0, 1]);
  });

  it('widens the search for the next message until it finds one or passes the end', async () => {
    const spans: Array<[number, number]> = [];
    const far = [msg(1, 0, 50000, 1, 50050)];
    const api = fakeApi({
      lamport: (p) => {
        spans.push([p.from!, p.to!]);
        return { min_clock: 0, max_clock: 0, slices: [], messages: far.filter((m) => m.send_time >= p.from! && m.send_time <= p.to!), truncated: false };
      },
    });
    const links = new TraceLinks(api, () => 1e6);
    const ev = await links.nextMessage(0, 0, 1, 100);
    expect(ev?.message.id).toBe(1);
    expect(spans).toEqual([[0, 1000], [0, 4000], [0, 16000], [0, 64000]]);
    expect((await links.nextMessage(0, 1e6, -1, 1000))?.message.id).toBe(1);
    spans.length = 0;
    expect(await links.nextMessage(0, 60000, 1, 1000)).toBeNull();
    expect(spans.at(-1)![1]).toBe(1e6);
  });

  it('finds a message by id and the slice an end lies in', async () => {
    const api = fakeApi({
      lamport: () => ({ min_clock: 0, max_clock: 0, slices: [slice(11, 1, 100, 150, 1)], messages: MESSAGES, truncated: false }),
    });
    const links = new TraceLinks(api, () => 1000);
    expect((await links.message(2, 1, 200))?.recvRow).toBe(0);
    expect(await links.message(9, 1, 200)).toBeNull();
    expect((await links.sliceAt(1, 150, 'recv'))?.id).toBe(11);
  });
});
