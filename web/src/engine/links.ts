// How events link up, for following a program's flow: a message's two ends
// and the slices they lie in, the messages a slice sent and received, the
// next or previous message on a row, a slice's wait state and its share of
// the critical path. No endpoint answers these directly: message ends and
// slices come from /lamport over a moment or a slice's span on its row,
// waits and the critical path are fetched once per trace and looked up.
import type { CriticalPathResult, LamportMessage, LamportSlice, PathSegment, WaitInstance, WaitsResult } from '../protocol/api.gen';
import type { ApiClient } from '../views/context';

/** A matched message: where and when it was sent and received. */
export interface MessageEnds {
  /** message id (the send's), as /details?kind=message takes it */
  id: number;
  sendRow: number;
  recvRow: number;
  send: number;
  recv: number;
  bytes: number;
  tag: number;
}

/** One end of a message. */
export type End = 'send' | 'recv';

/** A message end on a row: the message and which of its ends lies there. */
export interface MessageEvent {
  message: MessageEnds;
  end: End;
}

/** What a slice has to do with messages, waits and the critical path. */
export interface SliceLinks {
  /** messages sent (received) on its row within its span, in time order */
  sent: MessageEnds[];
  received: MessageEnds[];
  /** more messages than asked for lie in its span */
  truncated: boolean;
  /** false when the server could not say (a trace served from its file has no paired messages) */
  messagesKnown: boolean;
  /** the wait state of this call, null when it did not wait (or waits are unknown) */
  wait: WaitInstance | null;
  /** false when the server could not give the wait states (yet) */
  waitsKnown: boolean;
  /** ns of its span on the critical path; null when the path is unknown */
  onPath: number | null;
}

/** Messages listed for one slice, at most. */
export const SLICE_MESSAGE_LIMIT = 200;

export function messageEnds(m: LamportMessage): MessageEnds {
  return { id: m.id, sendRow: m.send_row, recvRow: m.recv_row, send: m.send_time, recv: m.recv_time, bytes: m.bytes, tag: m.tag };
}

/** Time and row of a message's `end`. */
export function endOf(m: MessageEnds, end: End): { row: number; time: number } {
  return end === 'send' ? { row: m.sendRow, time: m.send } : { row: m.recvRow, time: m.recv };
}

/**
 * The slice of `row` in which a message end at `t` lies: of those holding t
 * (begin ≤ t ≤ end), one that runs on after a send (end > t) or ran before a
 * receive (begin < t) if any, the deepest of them; null when none holds t.
 * (A receive recorded as its call returns lies at the call's end, where the
 * next call may begin.)
 */
export function sliceHolding(slices: readonly LamportSlice[], row: number, t: number, end: End = 'send'): LamportSlice | null {
  let best: LamportSlice | null = null;
  let bestProper = false;
  for (const s of slices) {
    if (s.row !== row || s.begin > t || s.end < t) continue;
    const proper = end === 'send' ? s.end > t : s.begin < t;
    if (!best || (proper && !bestProper) || (proper === bestProper && s.depth > best.depth)) {
      best = s;
      bestProper = proper;
    }
  }
  return best;
}

/** The messages sent and received on `row` within [begin, end], each list in time order. */
export function messagesIn(messages: readonly LamportMessage[], row: number, begin: number, end: number): { sent: MessageEnds[]; received: MessageEnds[] } {
  const sent = messages.filter((m) => m.send_row === row && m.send_time >= begin && m.send_time <= end).map(messageEnds);
  const received = messages.filter((m) => m.recv_row === row && m.recv_time >= begin && m.recv_time <= end).map(messageEnds);
  sent.sort((a, b) => a.send - b.send || a.id - b.id);
  received.sort((a, b) => a.recv - b.recv || a.id - b.id);
  return { sent, received };
}

/**
 * The first message end on `row` strictly after `t` (dir 1) or the last one
 * strictly before it (dir -1); at one time, ends are ordered by message id
 * (sends before receives), and `after` (the message end one comes from) breaks
 * the tie so that stepping walks through ends that share a time.
 */
export function nextMessageEvent(
  messages: readonly LamportMessage[],
  row: number,
  t: number,
  dir: 1 | -1,
  after: { id: number; end: End } | null = null,
): MessageEvent | null {
  const key = (time: number, id: number, end: End): [number, number, number] => [time, id, end === 'send' ? 0 : 1];
  const cmp = (a: [number, number, number], b: [number, number, number]): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const from = key(t, after ? after.id : dir > 0 ? Infinity : -Infinity, after ? after.end : 'send');
  let best: { k: [number, number, number]; ev: MessageEvent } | null = null;
  for (const m of messages) {
    const ends: Array<[End, number, number]> = [['send', m.send_row, m.send_time], ['recv', m.recv_row, m.recv_time]];
    for (const [end, r, time] of ends) {
      if (r !== row || time < 0) continue;
      const k = key(time, m.id, end);
      const c = cmp(k, from);
      if (dir > 0 ? c <= 0 : c >= 0) continue;
      if (!best || (dir > 0 ? cmp(k, best.k) < 0 : cmp(k, best.k) > 0)) best = { k, ev: { message: messageEnds(m), end } };
    }
  }
  return best?.ev ?? null;
}

/** Ns of [begin, end] on `row` covered by the critical path's segments. */
export function pathOverlap(segments: readonly PathSegment[], row: number, begin: number, end: number): number {
  let ns = 0;
  for (const s of segments) {
    if (s.row !== row) continue;
    const a = Math.max(s.begin, begin);
    const b = Math.min(s.end, end);
    if (b > a) ns += b - a;
  }
  return ns;
}

/** Asks the server what links events, caching what does not change with the question. */
export class TraceLinks {
  private waits: Promise<Map<number, WaitInstance> | null> | null = null;
  private path: Promise<CriticalPathResult | null> | null = null;

  constructor(
    private readonly api: ApiClient,
    /** the trace's duration: how far the search for a next message goes */
    private duration: () => number,
  ) {}

  /** A live trace's new snapshot: waits and path are fetched again when next asked. */
  reset(): void {
    this.waits = null;
    this.path = null;
  }

  /** The message `id` sent on `sendRow` at `send`, with its receive; null when /lamport does not have it. */
  async message(id: number, sendRow: number, send: number): Promise<MessageEnds | null> {
    const r = await this.api.get('lamport', { from: Math.floor(send), to: Math.ceil(send), rows: [sendRow], limit: 1000 });
    const m = r.messages.find((x) => x.id === id);
    return m ? messageEnds(m) : null;
  }

  /** The slice in which message end `end` on `row` at `t` lies (sliceHolding), or null. */
  async sliceAt(row: number, t: number, end: End): Promise<LamportSlice | null> {
    const r = await this.api.get('lamport', { from: Math.floor(t), to: Math.ceil(t), rows: [row], limit: 1000 });
    return sliceHolding(r.slices, row, t, end);
  }

  /** The messages, wait state and critical-path share of slice `id` on `row` over [begin, end]. */
  async slice(id: number, row: number, begin: number, end: number): Promise<SliceLinks> {
    const [lamport, waits, path] = await Promise.all([
      this.api.get('lamport', { from: Math.floor(begin), to: Math.ceil(end), rows: [row], limit: SLICE_MESSAGE_LIMIT }).catch(() => null),
      this.waitsBySlice(),
      this.criticalPath(),
    ]);
    const { sent, received } = lamport ? messagesIn(lamport.messages, row, begin, end) : { sent: [], received: [] };
    return {
      sent,
      received,
      truncated: lamport !== null && lamport.truncated && lamport.messages.length >= SLICE_MESSAGE_LIMIT,
      messagesKnown: lamport !== null,
      wait: waits?.get(id) ?? null,
      waitsKnown: waits !== null,
      onPath: path ? pathOverlap(path.segments, row, begin, end) : null,
    };
  }

  /**
   * The next (dir 1) or previous (dir -1) message end on `row` from `t`:
   * asks /lamport over a span that doubles from `span` until one is found or
   * the trace's end (start) is passed. /lamport keeps the earliest messages
   * of a span it cuts, so a backward search over a cut span narrows it.
   */
  async nextMessage(row: number, t: number, dir: 1 | -1, span: number, after: { id: number; end: End } | null = null): Promise<MessageEvent | null> {
    const duration = this.duration();
    let width = Math.max(span, 1000);
    for (let narrowed = 0; ; ) {
      const from = dir > 0 ? Math.floor(t) : Math.max(0, Math.floor(t - width));
      const to = dir > 0 ? Math.min(duration, Math.ceil(t + width)) : Math.ceil(t);
      const r = await this.api.get('lamport', { from, to, rows: [row], limit: 2000 });
      if (dir < 0 && r.truncated && r.messages.length >= 2000 && width > 1000 && narrowed++ < 20) {
        width /= 8;
        continue;
      }
      const found = nextMessageEvent(r.messages, row, t, dir, after);
      if (found) return found;
      if ((dir > 0 && to >= duration) || (dir < 0 && from <= 0)) return null;
      width *= 4;
    }
  }

  // A failed answer (an analysis still being made) is not kept: the next slice asks again.
  private waitsBySlice(): Promise<Map<number, WaitInstance> | null> {
    this.waits ??= this.api.get('waits', { limit: 100000 }).then(
      (w: WaitsResult) => new Map(w.longest.map((x) => [x.slice.id, x])),
      () => {
        this.waits = null;
        return null;
      },
    );
    return this.waits;
  }

  private criticalPath(): Promise<CriticalPathResult | null> {
    this.path ??= this.api.get('critical_path', {}).then(
      (p) => p,
      () => {
        this.path = null;
        return null;
      },
    );
    return this.path;
  }
}
