// Coalesced requests for "the program at time t" while the cursor moves: at
// most one request in flight; moves meanwhile only remember the newest time,
// asked next. A fast-moving cursor so costs one request per round trip.

export class LatestFetcher<T> {
  private busy = false;
  private pending: number | null = null;
  private generation = 0;
  /** requests sent (for tests and the benchmark) */
  sent = 0;

  constructor(
    private readonly fetch: (t: number) => Promise<T>,
    private readonly onResult: (t: number, result: T) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Asks for time t now, or after the request in flight (replacing any older wait). */
  request(t: number): void {
    if (this.busy) {
      this.pending = t;
      return;
    }
    this.start(t);
  }

  /** Whether a request is in flight. */
  inFlight(): boolean {
    return this.busy;
  }

  /** Drops the request in flight (its answer is ignored) and any waiting one. */
  cancel(): void {
    this.generation++;
    this.busy = false;
    this.pending = null;
  }

  private start(t: number): void {
    this.busy = true;
    this.sent++;
    const gen = this.generation;
    const done = (): void => {
      if (gen !== this.generation) return;
      this.busy = false;
      const next = this.pending;
      this.pending = null;
      if (next !== null) this.start(next);
    };
    let p: Promise<T>;
    try {
      p = this.fetch(t);
    } catch (err) {
      p = Promise.reject(err);
    }
    p.then(
      (r) => {
        try {
          if (gen === this.generation) this.onResult(t, r);
        } catch (err) {
          this.onError(err);
        } finally {
          done();
        }
      },
      (err: unknown) => {
        try {
          if (gen === this.generation) this.onError(err);
        } finally {
          done();
        }
      },
    );
  }
}
