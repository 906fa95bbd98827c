// A trace served from its file is drawn on its recorded times while the
// server repairs causality (TraceSummary.repairing, on the first open of a
// large trace): the watch says so with how far the repair is, asks for the
// summary again until the repair is done, then hands that summary over so
// that every view is drawn again on the repaired times.
import type { ApiClient } from '../views/context';
import type { TraceSummary } from '../protocol/api.gen';

export interface RepairWatchOptions {
  api: ApiClient;
  /** How far the repair is (0..1), while it runs. */
  onProgress: (fraction: number) => void;
  /** The summary on the repaired times. */
  onRepaired: (summary: TraceSummary) => void;
  pollMs?: number;
}

export class RepairWatch {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(private readonly options: RepairWatchOptions) {}

  /** Starts watching when `summary` is on the recorded times. */
  start(summary: TraceSummary): void {
    if (!summary.repairing) return;
    this.options.onProgress(summary.repair_progress);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll();
    }, this.options.pollMs ?? 2000);
  }

  private async poll(): Promise<void> {
    let summary: TraceSummary;
    try {
      summary = await this.options.api.get('summary', {});
    } catch {
      this.schedule(); // the client reports the error; try again
      return;
    }
    if (this.stopped) return;
    if (summary.repairing) {
      this.options.onProgress(summary.repair_progress);
      this.schedule();
      return;
    }
    this.stopped = true;
    this.options.onRepaired(summary);
  }
}
