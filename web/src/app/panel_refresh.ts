// Panels whose views do not follow a live trace themselves (statistics,
// histogram, diagnostics, matrix, processes) are made again from the newest
// summary, at most once per interval, so their analyses are not asked for at
// every snapshot.
import type { TraceSummary } from '../protocol/api.gen';

export class PanelRefresher {
  private last = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private latest: TraceSummary | null = null;

  constructor(
    private readonly remount: (summary: TraceSummary) => void,
    private readonly intervalMs = 2000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A newer summary: remounts now, or once the interval since the last remount has passed. */
  update(summary: TraceSummary): void {
    this.latest = summary;
    if (this.timer !== null) return;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) {
      this.fire();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.fire();
    }, wait);
  }

  /** Forgets a waiting remount (the panel changed or the app closes). */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.latest = null;
  }

  private fire(): void {
    const s = this.latest;
    this.latest = null;
    if (!s) return;
    this.last = this.now();
    this.remount(s);
  }
}
