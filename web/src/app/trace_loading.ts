// Loading a trace into the shell: open the server session (its progress and
// failure shown as they come), fetch the first summary, and then, for a live
// trace, apply each newer snapshot's summary once and in order; for a trace
// file, show whether the program deadlocked.
import { HttpClient, webSocketUrl, type TraceApi } from '../engine/client';
import { Session } from '../engine/session';
import type { LiveStatus, TraceEntry, TraceList, TraceSummary } from '../protocol/api.gen';
import type { ApiClient } from '../views/context';
import type { ErrorBanner } from '../widgets/error_banner';
import type { ProgressBar } from '../widgets/progress';
import type { StatusBar } from '../widgets/status_bar';

export interface OpenedTrace {
  api: TraceApi;
  entry: TraceEntry;
  summary: TraceSummary;
}

export interface OpenTraceOptions {
  token: string | null;
  /** trace id or name from the page URL; null for the first served trace */
  trace: string | null;
  progress: ProgressBar;
  errors: ErrorBanner;
  /** gets the session's `live` messages */
  live: LiveSummaries;
  /** The trace is chosen: its name and whether it is live are known. */
  onEntry: (entry: TraceEntry) => void;
  /** The served traces are listed; `chosen` is the id opened, null when the URL names none served. */
  onList?: (list: TraceList, chosen: string | null) => void;
}

/** Opens the trace and fetches its summary; null when either failed (the banner says why). */
export async function openTrace(o: OpenTraceOptions): Promise<OpenedTrace | null> {
  const http = new HttpClient({ token: o.token, onError: (e) => o.errors.show(e) });
  const session: Session = new Session({
    http,
    wanted: o.trace,
    socketUrl: webSocketUrl(window.location, o.token),
    onProgress: (p) => {
      o.progress.update(session.entry?.name ?? p.trace, p.phase, p.done, p.total);
    },
    onReady: () => o.progress.hide(),
    onFailed: (p) => {
      o.progress.hide();
      o.errors.show(`trace ${session.entry?.name ?? p.trace} failed to load: ${p.error}`);
    },
    onLive: (s, summary) => o.live.message(s, summary),
  });
  let api: TraceApi;
  try {
    api = await session.open();
  } catch (e) {
    o.errors.show(e);
    if (session.list) o.onList?.(session.list, null);
    return null;
  }
  const entry = session.entry!;
  o.onList?.(session.list!, entry.id);
  o.onEntry(entry);
  try {
    if (entry.live) {
      // The snapshot the summary will be at least as new as.
      o.live.opened(await api.get('live', {}));
    }
    return { api, entry, summary: await api.get('summary', {}) };
  } catch {
    return null; // in the banner
  }
}

/** For a trace file: deadlocked when the diagnostics found a deadlock, else finished. */
export async function showFileProgramState(api: ApiClient, status: StatusBar): Promise<void> {
  try {
    const d = await api.get('diagnostics', { limit: 1 });
    const dead = d.findings.find((f) => f.kind === 'deadlock');
    if (dead) status.setProgram('deadlocked', dead.text);
    else status.setProgram('finished');
  } catch {
    status.setProgram('finished', 'diagnostics unavailable');
  }
}

export interface LiveSummariesOptions {
  /** Every status a `live` message brings (counts, program state), newest last. */
  onStatus: (s: LiveStatus) => void;
  /** A newer snapshot's summary, for the views to show. */
  apply: (summary: TraceSummary) => void;
}

/**
 * Follows a live trace's snapshots: a `live` message names the newest one,
 * whose summary comes with the message or is fetched. Nothing is applied
 * before attach() (the views are built on the first summary), and no summary
 * older than the one shown is applied.
 */
export class LiveSummaries {
  /** the live snapshot the shown summary is from; the newest status seen */
  private generation = -1;
  private newest: LiveStatus | null = null;
  private refreshing = false;
  private api: ApiClient | null = null;

  constructor(private readonly options: LiveSummariesOptions) {}

  /** The status fetched just before the first summary, which is at least as new as its snapshot. */
  opened(s: LiveStatus): void {
    this.generation = s.generation;
    this.show(s);
  }

  /** The views are built: newer snapshots are applied from now on. */
  attach(api: ApiClient): void {
    this.api = api;
  }

  /** Applies a snapshot that came while the first summary was loaded, if one did. */
  catchUp(): void {
    if (this.newest && this.newest.generation > this.generation) void this.refresh();
  }

  /** A `live` message: new counts in the status bar; a new snapshot's summary
   *  is applied from the message, or fetched when the message has none. */
  message(s: LiveStatus, summary?: TraceSummary): void {
    this.show(s);
    if (!this.api || s.generation <= this.generation) return;
    if (summary) {
      this.generation = s.generation;
      this.options.apply(summary);
    } else {
      void this.refresh();
    }
  }

  private show(s: LiveStatus): void {
    this.newest = s;
    this.options.onStatus(s);
  }

  private async refresh(): Promise<void> {
    if (this.refreshing || !this.api) return;
    this.refreshing = true;
    try {
      while (this.newest && this.newest.generation > this.generation) {
        const generation = this.newest.generation;
        let summary: TraceSummary;
        try {
          summary = await this.api.get('summary', {});
        } catch {
          return; // in the banner; the next message tries again
        }
        // A message may have brought a summary as new while this one was fetched.
        if (generation <= this.generation) continue;
        this.generation = generation;
        this.options.apply(summary);
      }
    } finally {
      this.refreshing = false;
    }
  }
}
