import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, buildPath, encodeParam, HttpClient, TraceApi, webSocketUrl, type FetchLike } from './client';

interface Call {
  url: string;
  init: RequestInit | undefined;
}

function fakeFetch(answer: (url: string) => Response | Promise<Response>): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return answer(url);
    },
  };
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('URL building', () => {
  it('fills in the trace id and encodes comma lists, booleans and numbers', () => {
    expect(buildPath('tile', { rows: [0, 1, 2], from: 0, to: 1500.5, width: 800, arrows: false, counters: [3] }, 'run one')).toBe(
      '/api/v1/traces/run%20one/tile?rows=0-2&from=0&to=1500.5&width=800&arrows=0&counters=3',
    );
    // Runs of three or more consecutive rows become ranges; the rest stay as they are.
    expect(buildPath('tile', { rows: [5, 0, 1, 3, 4, 5, 6, 9, 10, 12], from: 0, to: 1, width: 1 }, 't')).toBe(
      '/api/v1/traces/t/tile?rows=5,0,1,3-6,9,10,12&from=0&to=1&width=1',
    );
    expect(buildPath('traces', {}, null)).toBe('/api/v1/traces');
    expect(buildPath('critical_path', {}, 't')).toBe('/api/v1/traces/t/critical-path');
    expect(buildPath('search', { q: 'MPI_Send&x', limit: 5 }, 't')).toBe('/api/v1/traces/t/search?q=MPI_Send%26x&limit=5');
  });

  it('skips undefined parameters and never writes exponents', () => {
    expect(buildPath('stats', { process: undefined, thread: 3 }, 't')).toBe('/api/v1/traces/t/stats?thread=3');
    expect(encodeParam(1e21)).toBe('1000000000000000000000');
    expect(encodeParam(1e-7)).toBe('0');
    expect(encodeParam(true)).toBe('1');
    expect(() => encodeParam(NaN)).toThrow();
  });

  it('needs a trace id for trace endpoints', () => {
    expect(() => buildPath('summary', {}, null)).toThrow(/trace id/);
  });

  it('puts the token on the WebSocket URL', () => {
    expect(webSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080' }, 'ab cd')).toBe('ws://127.0.0.1:8080/api/v1/ws?token=ab%20cd');
    expect(webSocketUrl({ protocol: 'https:', host: 'h' }, null)).toBe('wss://h/api/v1/ws');
  });
});

describe('HttpClient', () => {
  it('sends the token as a bearer header and parses JSON', async () => {
    const f = fakeFetch(() => json({ api_version: 1, server: 'x', traces: [] }));
    const c = new HttpClient({ token: 'sekrit', fetch: f.fetch });
    const r = await c.get('traces', {});
    expect(r.server).toBe('x');
    expect(f.calls[0]!.url).toBe('/api/v1/traces');
    expect((f.calls[0]!.init!.headers as Record<string, string>)['Authorization']).toBe('Bearer sekrit');
  });

  it('returns binary answers as ArrayBuffer', async () => {
    const f = fakeFetch(() => new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
    const c = new HttpClient({ token: null, fetch: f.fetch });
    const r = await c.get('tile', { rows: [0], from: 0, to: 10, width: 10 }, 't');
    expect(r).toBeInstanceOf(ArrayBuffer);
    expect(new Uint8Array(r)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('throws the server message with its status and reports it', async () => {
    const reported: ApiRequestError[] = [];
    const f = fakeFetch(() => json({ error: 'width: must be 1..16384' }, 400));
    const c = new HttpClient({ token: 't', fetch: f.fetch, onError: (e) => reported.push(e) });
    const p = c.get('tile', { rows: [0], from: 0, to: 1, width: 0 }, 'x');
    await expect(p).rejects.toThrow('tile: width: must be 1..16384');
    await p.catch((e: ApiRequestError) => {
      expect(e).toBeInstanceOf(ApiRequestError);
      expect(e.status).toBe(400);
    });
    expect(reported).toHaveLength(1);
    expect(reported[0]!.status).toBe(400);
  });

  it('throws but does not report what a trace served from its file cannot answer (501)', async () => {
    const reported: ApiRequestError[] = [];
    const f = fakeFetch(() => json({ error: "trace 'x' is served from its file" }, 501));
    const c = new HttpClient({ token: 't', fetch: f.fetch, onError: (e) => reported.push(e) });
    await expect(c.get('waits', {}, 'x')).rejects.toMatchObject({ status: 501 });
    expect(reported).toHaveLength(0);
  });

  it("throws but does not report a query's bad SQL (400), which the Query panel shows", async () => {
    const reported: ApiRequestError[] = [];
    const f = fakeFetch(() => json({ error: 'query: no such column: nope' }, 400));
    const c = new HttpClient({ token: 't', fetch: f.fetch, onError: (e) => reported.push(e) });
    await expect(c.get('query', { sql: 'SELECT nope FROM slices' }, 'x')).rejects.toMatchObject({ status: 400 });
    expect(reported).toHaveLength(0);
  });

  it('falls back to the status line for bodies that are not JSON, and reports network failures', async () => {
    const c1 = new HttpClient({ token: null, fetch: fakeFetch(() => new Response('oops', { status: 502, statusText: 'Bad Gateway' })).fetch });
    await expect(c1.get('traces', {})).rejects.toThrow('traces: HTTP 502 Bad Gateway: oops');
    const reported: ApiRequestError[] = [];
    const c2 = new HttpClient({
      token: null,
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      onError: (e) => reported.push(e),
    });
    await expect(c2.get('traces', {})).rejects.toMatchObject({ status: 0, message: 'traces: Failed to fetch' });
    expect(reported).toHaveLength(1);
  });
});

describe('TraceApi', () => {
  it('queues requests until the trace is ready', async () => {
    const f = fakeFetch((url) => json({ url }));
    const api = new TraceApi(new HttpClient({ token: null, fetch: f.fetch }), 'tr');
    const a = api.get('summary', {});
    const b = api.get('stats', { thread: 2 });
    await Promise.resolve();
    expect(f.calls).toHaveLength(0);
    expect(api.queued).toBe(2);
    api.setStatus('ready');
    expect(((await a) as unknown as { url: string }).url).toBe('/api/v1/traces/tr/summary');
    expect(((await b) as unknown as { url: string }).url).toBe('/api/v1/traces/tr/stats?thread=2');
    expect(api.queued).toBe(0);
    // Once ready, requests go out at once.
    await api.get('processes', {});
    expect(f.calls).toHaveLength(3);
  });

  describe('an answer still being made (503 with Retry-After)', () => {
    afterEach(() => vi.useRealTimers());
    const later = (): Response =>
      new Response(JSON.stringify({ error: 'waits: is being computed from the file' }), {
        status: 503,
        headers: { 'Retry-After': '1' },
      });

    it('is asked again until it comes, without reporting an error', async () => {
      vi.useFakeTimers();
      let asked = 0;
      const f = fakeFetch(() => (++asked < 3 ? later() : json({ total: 7 })));
      const reported: ApiRequestError[] = [];
      const api = new TraceApi(new HttpClient({ token: null, fetch: f.fetch, onError: (e) => reported.push(e) }), 'tr');
      api.setStatus('ready');
      const answer = api.get('waits', {});
      await vi.advanceTimersByTimeAsync(1000);
      expect(asked).toBe(2);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await answer).toEqual({ total: 7 });
      expect(asked).toBe(3);
      expect(reported).toHaveLength(0);
    });

    it('stops asking when aborted, and a 503 without Retry-After is an error', async () => {
      vi.useFakeTimers();
      const f = fakeFetch(() => later());
      const api = new TraceApi(new HttpClient({ token: null, fetch: f.fetch }), 'tr');
      api.setStatus('ready');
      const abort = new AbortController();
      const answer = api.request('waits', {}, abort.signal);
      const failed = expect(answer).rejects.toBeDefined();
      await vi.advanceTimersByTimeAsync(10);
      abort.abort();
      await failed;
      expect(f.calls).toHaveLength(1);
      const plain = new TraceApi(new HttpClient({ token: null, fetch: fakeFetch(() => json({ error: 'busy' }, 503)).fetch }), 'tr');
      plain.setStatus('ready');
      await expect(plain.get('waits', {})).rejects.toMatchObject({ status: 503, retryAfter: 0 });
    });
  });

  it('rejects queued and later requests when the trace fails', async () => {
    const f = fakeFetch(() => json({}));
    const api = new TraceApi(new HttpClient({ token: null, fetch: f.fetch }), 'tr');
    const a = api.get('summary', {});
    api.setStatus('failed', 'bad magic');
    await expect(a).rejects.toThrow('trace tr failed to load: bad magic');
    await expect(api.get('summary', {})).rejects.toThrow(/bad magic/);
    expect(f.calls).toHaveLength(0);
  });
});
