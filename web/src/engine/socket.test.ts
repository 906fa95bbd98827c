import { describe, expect, it } from 'vitest';
import { LiveSocket, type ServerMessage, type SocketLike } from './socket';

class FakeSocket implements SocketLike {
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  sent: string[] = [];
  closed = false;
  constructor(readonly url: string) {}
  send(d: string): void {
    this.sent.push(d);
  }
  close(): void {
    this.closed = true;
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const messages: ServerMessage[] = [];
  const opens: boolean[] = [];
  const live = new LiveSocket({
    url: 'ws://h/api/v1/ws?token=t',
    create: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    onMessage: (m) => messages.push(m),
    onOpen: (again) => opens.push(again),
    setTimer: (fn, ms) => {
      timers.push({ fn, ms });
      return timers.length;
    },
    clearTimer: () => {},
  });
  return { live, sockets, timers, messages, opens };
}

describe('LiveSocket', () => {
  it('delivers JSON messages and ignores junk', () => {
    const { live, sockets, messages } = setup();
    live.start();
    expect(sockets[0]!.url).toBe('ws://h/api/v1/ws?token=t');
    sockets[0]!.onopen!({});
    sockets[0]!.onmessage!({ data: '{"type":"hello","api_version":1,"server":"0.1"}' });
    sockets[0]!.onmessage!({ data: 'not json' });
    sockets[0]!.onmessage!({ data: '{"no":"type"}' });
    sockets[0]!.onmessage!({ data: '{"type":"progress","trace":"a","phase":"load","done":1,"total":4}' });
    expect(messages.map((m) => m.type)).toEqual(['hello', 'progress']);
    live.send({ type: 'ping' });
    expect(sockets[0]!.sent).toEqual(['{"type":"ping"}']);
  });

  it('reconnects with exponential backoff, reset after a successful open', () => {
    const { live, sockets, timers, opens } = setup();
    live.start();
    sockets[0]!.onclose!({});
    expect(timers.map((t) => t.ms)).toEqual([500]);
    timers[0]!.fn();
    expect(sockets).toHaveLength(2);
    sockets[1]!.onclose!({});
    timers[1]!.fn();
    sockets[2]!.onclose!({});
    expect(timers.map((t) => t.ms)).toEqual([500, 1000, 2000]);
    timers[2]!.fn();
    sockets[3]!.onopen!({});
    expect(opens).toEqual([false]);
    sockets[3]!.onclose!({});
    expect(timers[3]!.ms).toBe(500);
    timers[3]!.fn();
    sockets[4]!.onopen!({});
    expect(opens).toEqual([false, true]);
    expect(live.delay(20)).toBe(10_000);
  });

  it('stops for good', () => {
    const { live, sockets, timers } = setup();
    live.start();
    live.stop();
    expect(sockets[0]!.closed).toBe(true);
    expect(timers).toHaveLength(0);
  });
});
