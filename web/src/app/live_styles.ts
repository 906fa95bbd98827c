// The StateStyle the views and the timeline hold for the whole session: it
// forwards to the current StateStyles, which a live trace replaces when new
// states appear (the legend is rebuilt over the new one).
import type { StateStyle } from '../views/context';
import type { StateStyles } from './state_style';

export class SwappableStyles implements StateStyle {
  private readonly listeners = new Set<() => void>();
  private unsubscribe: () => void;

  constructor(private inner: StateStyles) {
    this.unsubscribe = inner.onChange(() => this.changed());
  }

  get current(): StateStyles {
    return this.inner;
  }

  /** Uses `next` from now on and tells the listeners. */
  swap(next: StateStyles): void {
    this.unsubscribe();
    this.inner = next;
    this.unsubscribe = next.onChange(() => this.changed());
    this.changed();
  }

  color(state: number): string {
    return this.inner.color(state);
  }

  visible(state: number): boolean {
    return this.inner.visible(state);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
