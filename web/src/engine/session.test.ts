import { describe, expect, it } from 'vitest';
import type { TraceList } from '../protocol/api.gen';
import { HttpClient } from './client';
import { chooseTrace, Session } from './session';
import type { SocketLike } from './socket';

const entry = (id: string, status: string) => ({
  id, name: `${id}.plx`, path: `/x/${id}.plx`, status, phase: 'load', done: 0, total: 10, error: null as string | null, live: false,
});
const list = (...traces: ReturnType<typeof entry>[]): TraceList => ({ api_version: 1, server: 't', traces });

describe('chooseTrace', () => {
  it('takes the wanted id or name, else the first', () => {
    const l = list(entry('a', 'ready'), entry('b', 'ready'));
    expect(chooseTrace(l, null)!.id).toBe('a');
    expect(chooseTrace(l, 'b')!.id).toBe('b');
    expect(chooseTrace(l, 'b.plx')!.id).toBe('b');
    expect(() => chooseTrace(l, 'zzz')).toThrow(/not served/);
    expect(chooseTrace(list(), null)).toBeNull();
  });
});

describe('Session', () => {
  it('releases queued requests when the socket says ready', async () => {
    const urls: string[] = [];
    const http = new HttpClient({
      token: 'k',
      fetch: async (url) => {
        urls.push(url);
        const body = url.endsWith('/traces') ? list(entry('a', 'loading')) : { ok: url };
        return new Response(JSON.stringify(body), { status: 200 });
      },
    });
    let socket: SocketLike | null = null;
    const progress: string[] = [];
    let ready = false;
    const s = new Session({
      http,
      wanted: null,
      socketUrl: 'ws://x/api/v1/ws?token=k',
      pollMs: 0,
      createSocket: () => {
        socket = { onopen: null, onclose: null, onerror: null, onmessage: null, send() {}, close() {} };
        return socket;
      },
      onProgress: (p) => progress.push(`${p.phase} ${p.done}/${p.total}`),
      onReady: () => {
        ready = true;
      },
    });
    const api = await s.open();
    const summary = api.get('summary', {});
    await Promise.resolve();
    expect(urls).toEqual(['/api/v1/traces']);
    const sock = socket as unknown as SocketLike;
    sock.onmessage!({ data: JSON.stringify({ type: 'progress', trace: 'a', phase: 'index', done: 3, total: 9 }) });
    sock.onmessage!({ data: JSON.stringify({ type: 'ready', trace: 'other' }) });
    expect(ready).toBe(false);
    sock.onmessage!({ data: JSON.stringify({ type: 'ready', trace: 'a' }) });
    expect(ready).toBe(true);
    expect(await summary).toEqual({ ok: '/api/v1/traces/a/summary' });
    expect(progress).toEqual(['load 0/10', 'index 3/9']);
    s.close();
  });

  it('fails queued requests when the trace fails', async () => {
    const http = new HttpClient({
      token: null,
      fetch: async () => new Response(JSON.stringify(list({ ...entry('a', 'failed'), error: 'truncated file' })), { status: 200 }),
    });
    const failures: string[] = [];
    const s = new Session({ http, wanted: 'a', socketUrl: null, pollMs: 0, onFailed: (p) => failures.push(p.error) });
    const api = await s.open();
    await expect(api.get('summary', {})).rejects.toThrow(/truncated file/);
    expect(failures).toEqual(['truncated file']);
  });

  it('delivers live messages for its trace, also after it is ready', async () => {
    const http = new HttpClient({
      token: null,
      fetch: async () => new Response(JSON.stringify(list({ ...entry('live', 'ready'), live: true })), { status: 200 }),
    });
    let socket: SocketLike | null = null;
    const seen: string[] = [];
    const s = new Session({
      http, wanted: null, socketUrl: 'ws://x', pollMs: 0,
      createSocket: () => (socket = { onopen: null, onclose: null, onerror: null, onmessage: null, send() {}, close() {} }),
      onLive: (st, summary) =>
        seen.push(`${st.trace} ${st.generation} ${st.program} ${st.applied}` +
                  (summary ? ` summary ${summary.duration}` : '') + ('summary' in st ? ' (in status)' : '')),
    });
    await s.open();
    const sock = socket as unknown as SocketLike;
    const status = { trace: 'live', generation: 4, program: 'running', applied: 99 };
    sock.onmessage!({ data: JSON.stringify({ type: 'live', ...status }) });
    sock.onmessage!({ data: JSON.stringify({ type: 'live', ...status, trace: 'other' }) });
    sock.onmessage!({ data: JSON.stringify({ type: 'live', status: { ...status, generation: 5 } }) });
    sock.onmessage!({ data: JSON.stringify({ type: 'live', ...status, generation: 6, summary: { duration: 42 } }) });
    expect(seen).toEqual(['live 4 running 99', 'live 5 running 99', 'live 6 running 99 summary 42']);
    s.close();
  });
});
