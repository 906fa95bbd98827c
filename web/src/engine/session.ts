// Opening a trace: list the served traces, pick one (the page's ?trace= or the
// first), follow its loading over the WebSocket (and by polling /traces as a
// fallback), and release the TraceApi's queued requests once it is ready.
import type { LiveStatus, TraceEntry, TraceList, TraceSummary } from '../protocol/api.gen';
import { HttpClient, TraceApi, type TraceStatus } from './client';
import { LiveSocket, type LiveMessage, type ServerMessage, type SocketLike } from './socket';

export interface LoadProgress {
  trace: string;
  status: TraceStatus;
  phase: string;
  done: number;
  total: number;
  error: string;
}

export interface SessionOptions {
  http: HttpClient;
  /** trace id from the page URL, or null for the first served trace */
  wanted: string | null;
  /** WebSocket URL; null = no socket (tests), progress comes from polling */
  socketUrl: string | null;
  createSocket?: (url: string) => SocketLike;
  /** Poll /traces every this many ms while loading (0 = never). */
  pollMs?: number;
  onProgress?: (p: LoadProgress) => void;
  onReady?: (entry: TraceEntry) => void;
  onFailed?: (p: LoadProgress) => void;
  /** A live trace's new snapshot or status (the `live` WebSocket message), also
   *  after it is ready; `summary` is the new snapshot's when the message has it. */
  onLive?: (s: LiveStatus, summary?: TraceSummary) => void;
}

/** The entry for `wanted` (an id or a name), else the first; null when none. */
export function chooseTrace(list: TraceList, wanted: string | null): TraceEntry | null {
  if (wanted) {
    const byId = list.traces.find((t) => t.id === wanted);
    if (byId) return byId;
    const byName = list.traces.find((t) => t.name === wanted);
    if (byName) return byName;
    throw new Error(`trace '${wanted}' is not served here (served: ${list.traces.map((t) => t.id).join(', ') || 'none'})`);
  }
  return list.traces[0] ?? null;
}

export class Session {
  api: TraceApi | null = null;
  entry: TraceEntry | null = null;
  list: TraceList | null = null;
  private socket: LiveSocket | null = null;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private done = false;

  constructor(private readonly options: SessionOptions) {}

  /** Resolves with the chosen trace's api (requests queue until ready). */
  async open(): Promise<TraceApi> {
    const list = await this.options.http.get('traces', {});
    this.list = list;
    const entry = chooseTrace(list, this.options.wanted);
    if (!entry) throw new Error('the server serves no traces');
    this.entry = entry;
    this.api = new TraceApi(this.options.http, entry.id);
    if (this.options.socketUrl) {
      const socketOptions: ConstructorParameters<typeof LiveSocket>[0] = {
        url: this.options.socketUrl,
        onMessage: (m) => this.onMessage(m),
        // After a reconnect, messages may have been missed: re-check the list.
        onOpen: (again) => {
          if (again && !this.done) void this.poll();
        },
      };
      if (this.options.createSocket) socketOptions.create = this.options.createSocket;
      this.socket = new LiveSocket(socketOptions);
      this.socket.start();
    }
    this.apply(entry);
    return this.api;
  }

  close(): void {
    this.socket?.stop();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  private progressOf(e: TraceEntry): LoadProgress {
    return {
      trace: e.id,
      status: e.status as TraceStatus,
      phase: e.phase,
      done: e.done,
      total: e.total,
      error: e.error ?? '',
    };
  }

  private apply(e: TraceEntry): void {
    if (this.done || !this.api) return;
    this.entry = e;
    if (e.status === 'ready') {
      this.finish();
      this.api.setStatus('ready');
      this.options.onReady?.(e);
    } else if (e.status === 'failed') {
      this.finish();
      this.api.setStatus('failed', e.error ?? 'unknown error');
      this.options.onFailed?.(this.progressOf(e));
    } else {
      this.options.onProgress?.(this.progressOf(e));
      this.schedulePoll();
    }
  }

  private finish(): void {
    this.done = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  private schedulePoll(): void {
    const ms = this.options.pollMs ?? 2000;
    if (ms <= 0 || this.pollTimer || this.done) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      void this.poll();
    }, ms);
  }

  private async poll(): Promise<void> {
    if (this.done || !this.entry) return;
    let list: TraceList;
    try {
      list = await this.options.http.get('traces', {});
    } catch {
      // Reported through the client's onError; try again later.
      this.schedulePoll();
      return;
    }
    const e = list.traces.find((t) => t.id === this.entry!.id);
    if (e) this.apply(e);
  }

  private onMessage(m: ServerMessage): void {
    if (m.type === 'live') {
      // The status may come flat beside `type` or as `status` (tolerated).
      const nested = (m as { status?: unknown }).status;
      const { summary, ...s } = (nested && typeof nested === 'object' ? nested : m) as LiveMessage;
      if (this.entry && s.trace === this.entry.id) this.options.onLive?.(s, summary);
      return;
    }
    if (this.done || !this.entry) return;
    const e = this.entry;
    switch (m.type) {
      case 'progress':
        if (m.trace === e.id) this.apply({ ...e, status: 'loading', phase: m.phase, done: m.done, total: m.total });
        break;
      case 'ready':
        if (m.trace === e.id) this.apply({ ...e, status: 'ready' });
        break;
      case 'failed':
        if (m.trace === e.id) this.apply({ ...e, status: 'failed', error: m.error });
        break;
      default:
        break;
    }
  }
}
