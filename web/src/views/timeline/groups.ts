// The host and process groups folded on the timeline, by key ('host:NAME',
// 'process:N', as base/layout.ts names them): what a click on a header
// toggles, what a saved view restores, and what is unfolded to show a row.
import type { TraceSummary } from '../../protocol/api.gen';

export class FoldedGroups {
  private keys = new Set<string>();

  /** The set RowLayout takes. */
  get set(): ReadonlySet<string> {
    return this.keys;
  }

  list(): string[] {
    return [...this.keys];
  }

  /** Folds exactly `keys`. */
  replace(keys: readonly string[]): void {
    this.keys = new Set(keys);
  }

  toggle(key: string): void {
    if (!this.keys.delete(key)) this.keys.add(key);
  }

  /** Unfolds the groups that hide `row`; true when one was folded. */
  unfoldFor(summary: TraceSummary, row: number): boolean {
    const t = summary.threads[row];
    if (!t) return false;
    const p = summary.processes[t.process];
    let changed = false;
    for (const key of [`host:${p?.host ?? ''}`, `process:${t.process}`]) {
      if (this.keys.delete(key)) changed = true;
    }
    return changed;
  }
}
