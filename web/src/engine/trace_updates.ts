// A trace's updates (views/context.ts TraceUpdates): a live trace publishes
// each new snapshot's summary here and every view refetches; a trace file
// never publishes.
import type { TraceSummary } from '../protocol/api.gen';
import type { TraceUpdates } from '../views/context';

export class TraceUpdateHub implements TraceUpdates {
  private isLive = false;
  private readonly listeners = new Set<(summary: TraceSummary) => void>();

  live(): boolean {
    return this.isLive;
  }

  setLive(live: boolean): void {
    this.isLive = live;
  }

  onUpdate(listener: (summary: TraceSummary) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(summary: TraceSummary): void {
    for (const l of [...this.listeners]) l(summary);
  }
}
