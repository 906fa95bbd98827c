// The WebSocket to /api/v1/ws: delivers the server's messages and reconnects
// with exponential backoff when the connection drops.
import type { LiveStatus, TraceSummary } from '../protocol/api.gen';

export interface HelloMessage {
  type: 'hello';
  api_version: number;
  server: string;
}
export interface ProgressMessage {
  type: 'progress';
  trace: string;
  phase: string;
  done: number;
  total: number;
}
export interface ReadyMessage {
  type: 'ready';
  trace: string;
}
export interface FailedMessage {
  type: 'failed';
  trace: string;
  error: string;
}
/** A live trace's new snapshot: the LiveStatus fields beside `type`, and the
 *  new snapshot's summary (absent when only the status changed, or when the
 *  summary is too large to send: fetch it then). */
export type LiveMessage = { type: 'live'; summary?: TraceSummary } & LiveStatus;
export type ServerMessage =
  | HelloMessage
  | LiveMessage
  | ProgressMessage
  | ReadyMessage
  | FailedMessage
  | { type: 'pong' }
  | { type: 'error'; error: string };

/** What LiveSocket needs of a WebSocket (tests pass a fake). */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface LiveSocketOptions {
  url: string;
  create?: (url: string) => SocketLike;
  onMessage: (m: ServerMessage) => void;
  /** Connected (again): a client may have missed messages and should re-check. */
  onOpen?: (reconnect: boolean) => void;
  onClose?: () => void;
  /** First and largest delay between attempts, ms. */
  minDelay?: number;
  maxDelay?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class LiveSocket {
  private socket: SocketLike | null = null;
  private attempts = 0;
  private connectedOnce = false;
  private timer: unknown = null;
  private stopped = false;
  private readonly create: (url: string) => SocketLike;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: LiveSocketOptions) {
    this.create = options.create ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  get connected(): boolean {
    return this.socket !== null && this.open;
  }
  private open = false;

  /** Delay before reconnect attempt `n` (1-based), ms. */
  delay(n: number): number {
    const min = this.options.minDelay ?? 500;
    const max = this.options.maxDelay ?? 10_000;
    return Math.min(max, min * Math.pow(2, Math.max(0, n - 1)));
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.close();
    }
  }

  send(message: object): void {
    if (this.socket && this.open) this.socket.send(JSON.stringify(message));
  }

  private connect(): void {
    if (this.stopped) return;
    let s: SocketLike;
    try {
      s = this.create(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = s;
    this.open = false;
    s.onopen = () => {
      this.open = true;
      this.attempts = 0;
      const again = this.connectedOnce;
      this.connectedOnce = true;
      this.options.onOpen?.(again);
    };
    s.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let m: unknown;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m && typeof m === 'object' && typeof (m as { type?: unknown }).type === 'string') {
        this.options.onMessage(m as ServerMessage);
      }
    };
    s.onerror = () => {
      // onclose follows and reconnects.
    };
    s.onclose = () => {
      if (this.socket !== s) return;
      this.socket = null;
      this.open = false;
      this.options.onClose?.();
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.timer !== null) return;
    this.attempts++;
    this.timer = this.setTimer(() => {
      this.timer = null;
      this.connect();
    }, this.delay(this.attempts));
  }
}
