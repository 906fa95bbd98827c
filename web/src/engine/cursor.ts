// The replay cursor every view follows (views/context.ts ReplayCursor): one
// moment in trace time with listeners. Replay (play, step, triggers) moves it.
import type { ReplayCursor } from '../views/context';

export class Cursor implements ReplayCursor {
  private t: number;
  private readonly listeners = new Set<(time: number) => void>();

  constructor(time = 0) {
    this.t = time;
  }

  time(): number {
    return this.t;
  }

  seek(time: number): void {
    if (!Number.isFinite(time) || time === this.t) return;
    this.t = time;
    for (const l of [...this.listeners]) l(time);
  }

  onMove(listener: (time: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
