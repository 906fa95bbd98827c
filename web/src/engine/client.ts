// The server client: typed GETs built from ENDPOINTS of api.gen.ts, the access
// token sent as a bearer header, JSON or binary answers, errors from the
// {"error": ...} body. A TraceApi queues a trace's requests until it is ready.
import { API_PREFIX, ENDPOINTS, type EndpointTypes } from '../protocol/api.gen';
import type { ApiClient } from '../views/context';

export type Endpoint = keyof EndpointTypes;

/** A failed request: the server's one-line message and the HTTP status (0: no answer). */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly endpoint: string,
    /** Seconds the server asked to wait before asking again (503), or 0. */
    readonly retryAfter = 0,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** A parameter value as the API wants it: decimal numbers, comma lists, 1/0. */
export function encodeParam(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return formatNumber(v);
  if (Array.isArray(v)) return encodeList(v);
  return String(v);
}

/**
 * A comma list, with each run of three or more consecutive whole numbers
 * written a-b, as the API allows: 16,384 rows fit a URL as "0-16383".
 */
function encodeList(v: readonly unknown[]): string {
  const out: string[] = [];
  const whole = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  for (let i = 0; i < v.length; ) {
    let j = i;
    if (whole(v[i])) while (j + 1 < v.length && v[j + 1] === (v[j] as number) + 1) j++;
    if (j - i >= 2) out.push(`${formatNumber(v[i] as number)}-${formatNumber(v[j] as number)}`);
    else for (let k = i; k <= j; k++) out.push(encodeParam(v[k]) ?? '');
    i = j + 1;
  }
  return out.join(',');
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`parameter is not a finite number: ${n}`);
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? n.toFixed(0) : BigInt(n).toString();
  // Decimal, never exponent notation; 6 decimals are plenty for ns.
  return n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

/** Path and query of an endpoint: '/api/v1/traces/t1/tile?rows=0,1&from=0&...'. */
export function buildPath<K extends Endpoint>(
  endpoint: K,
  params: EndpointTypes[K]['params'],
  trace: string | null,
): string {
  const spec = ENDPOINTS[endpoint];
  let path: string = spec.path;
  if (path.includes('{trace}')) {
    if (trace === null || trace === '') throw new Error(`${endpoint} needs a trace id`);
    path = path.replace('{trace}', encodeURIComponent(trace));
  }
  const query: string[] = [];
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    const encoded = encodeParam(value);
    if (encoded === null) continue;
    // Commas stay readable (rows=0,1,2); everything else is escaped.
    query.push(`${encodeURIComponent(name)}=${encodeURIComponent(encoded).replace(/%2C/g, ',')}`);
  }
  return API_PREFIX + path + (query.length ? `?${query.join('&')}` : '');
}

/** The WebSocket URL for a page at `location`, with the token as ?token=. */
export function webSocketUrl(location: { protocol: string; host: string }, token: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}//${location.host}${API_PREFIX}/ws${q}`;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface HttpClientOptions {
  /** Origin to prefix paths with; '' = same origin. */
  base?: string;
  token: string | null;
  fetch?: FetchLike;
  /** Told about every failed request (the error banner); the promise still rejects. */
  onError?: (error: ApiRequestError) => void;
}

/** Plain HTTP access to the API, for any trace. */
export class HttpClient {
  private readonly base: string;
  private readonly fetchFn: FetchLike;

  constructor(private readonly options: HttpClientOptions) {
    this.base = options.base ?? '';
    const f = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
    this.fetchFn = f;
  }

  get token(): string | null {
    return this.options.token;
  }

  async get<K extends Endpoint>(
    endpoint: K,
    params: EndpointTypes[K]['params'],
    trace: string | null = null,
    signal?: AbortSignal,
  ): Promise<EndpointTypes[K]['response']> {
    try {
      return await this.fetchOnce(endpoint, params, trace, signal);
    } catch (e) {
      const err =
        e instanceof ApiRequestError
          ? e
          : new ApiRequestError(`${endpoint}: ${e instanceof Error ? e.message : String(e)}`, 0, endpoint);
      // An abort is the caller's decision, not a failure to report; 501 is
      // an endpoint a trace served from its file cannot answer, which the
      // viewer says once when it opens the trace (TraceSummary.from_file);
      // a 503 with Retry-After is an answer still being made (TraceApi
      // asks again).
      // A 400 from /query is the user's SQL, which the Query panel shows.
      const aborted = e instanceof DOMException && e.name === 'AbortError';
      const later = err.status === 503 && err.retryAfter > 0;
      const sql = endpoint === 'query' && err.status === 400;
      if (!aborted && !later && !sql && err.status !== 501) this.options.onError?.(err);
      throw err;
    }
  }

  private async fetchOnce<K extends Endpoint>(
    endpoint: K,
    params: EndpointTypes[K]['params'],
    trace: string | null,
    signal?: AbortSignal,
  ): Promise<EndpointTypes[K]['response']> {
    const url = this.base + buildPath(endpoint, params, trace);
    const headers: Record<string, string> = {};
    if (this.options.token) headers['Authorization'] = `Bearer ${this.options.token}`;
    const init: RequestInit = { method: 'GET', headers, credentials: 'same-origin' };
    if (signal) init.signal = signal;
    const res = await this.fetchFn(url, init);
    if (!res.ok) {
      let message = `HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''}`;
      try {
        const text = await res.text();
        try {
          const body = JSON.parse(text) as { error?: unknown };
          if (body && typeof body.error === 'string') message = body.error;
          else if (text) message = `${message}: ${text.slice(0, 200)}`;
        } catch {
          if (text) message = `${message}: ${text.slice(0, 200)}`;
        }
      } catch {
        // No body: the status line is all there is.
      }
      const retry = res.status === 503 ? Number(res.headers.get('Retry-After') ?? 0) : 0;
      throw new ApiRequestError(`${endpoint}: ${message}`, res.status, endpoint, Number.isFinite(retry) ? retry : 0);
    }
    if (ENDPOINTS[endpoint].response === 'binary') {
      return (await res.arrayBuffer()) as EndpointTypes[K]['response'];
    }
    return (await res.json()) as EndpointTypes[K]['response'];
  }
}

export type TraceStatus = 'loading' | 'ready' | 'failed';

/**
 * ApiClient for one trace. Requests made while the trace loads wait until
 * setStatus('ready'); if it fails they reject with the load error.
 */
export class TraceApi implements ApiClient {
  private status: TraceStatus = 'loading';
  private failure = '';
  private waiting: Array<{ run: () => void; fail: (e: Error) => void }> = [];

  constructor(
    private readonly http: HttpClient,
    readonly trace: string,
  ) {}

  get currentStatus(): TraceStatus {
    return this.status;
  }

  /** Requests waiting for the trace to be ready. */
  get queued(): number {
    return this.waiting.length;
  }

  setStatus(status: TraceStatus, error = ''): void {
    this.status = status;
    if (status === 'loading') return;
    const waiting = this.waiting;
    this.waiting = [];
    if (status === 'ready') {
      for (const w of waiting) w.run();
    } else {
      this.failure = error;
      for (const w of waiting) w.fail(new ApiRequestError(`trace ${this.trace} failed to load: ${error}`, 503, ''));
    }
  }

  get<K extends Endpoint>(endpoint: K, params: EndpointTypes[K]['params']): Promise<EndpointTypes[K]['response']> {
    return this.request(endpoint, params);
  }

  /** Like get, with an AbortSignal. */
  request<K extends Endpoint>(
    endpoint: K,
    params: EndpointTypes[K]['params'],
    signal?: AbortSignal,
  ): Promise<EndpointTypes[K]['response']> {
    if (this.status === 'ready') return this.askUntilAnswered(endpoint, params, signal);
    if (this.status === 'failed') {
      return Promise.reject(new ApiRequestError(`trace ${this.trace} failed to load: ${this.failure}`, 503, endpoint));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({
        run: () => this.askUntilAnswered(endpoint, params, signal).then(resolve, reject),
        fail: reject,
      });
    });
  }

  /**
   * The answer, asking again while the server says it is still computing it
   * (503 with Retry-After: a trace served from its file makes its analyses
   * after the timeline is ready), every 1 to 5 s, until `signal` aborts.
   */
  private async askUntilAnswered<K extends Endpoint>(
    endpoint: K,
    params: EndpointTypes[K]['params'],
    signal?: AbortSignal,
  ): Promise<EndpointTypes[K]['response']> {
    for (let attempt = 0; ; ++attempt) {
      try {
        return await this.http.get(endpoint, params, this.trace, signal);
      } catch (e) {
        if (!(e instanceof ApiRequestError) || e.status !== 503 || e.retryAfter <= 0) throw e;
        await pause(Math.min(5, Math.max(e.retryAfter, attempt)) * 1000, signal);
      }
    }
  }
}
