// Coalesced requests for views that follow a fast-moving input (the replay
// cursor): at most one request in flight; while it runs only the newest ask
// is kept, and it is sent when the running one ends. A cursor that moves every
// frame so costs one request per round trip.

export class LatestRequest<P, R> {
  private running = false;
  private pending: { params: P } | null = null;
  private generation = 0;
  /** requests sent (for tests and the benchmarks) */
  sent = 0;

  constructor(
    private readonly fetch: (params: P) => Promise<R>,
    private readonly onResult: (result: R, params: P) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Asks for `params`: now when idle, else after the running request (replacing an older wait). */
  request(params: P): void {
    if (this.running) {
      this.pending = { params };
      return;
    }
    this.start(params);
  }

  /** Whether a request is running. */
  busy(): boolean {
    return this.running;
  }

  /** Forgets the running and the waiting request; their answers are dropped. */
  cancel(): void {
    this.generation++;
    this.running = false;
    this.pending = null;
  }

  private start(params: P): void {
    const gen = this.generation;
    this.running = true;
    this.sent++;
    let promise: Promise<R>;
    try {
      promise = this.fetch(params);
    } catch (err) {
      promise = Promise.reject(err);
    }
    promise
      .then(
        (r) => {
          if (gen === this.generation) this.onResult(r, params);
        },
        (err: unknown) => {
          if (gen === this.generation) this.onError(err);
        },
      )
      .catch((err: unknown) => {
        // A listener that threw: report it, and go on with the next request.
        if (gen === this.generation) this.onError(err);
      })
      .finally(() => {
        if (gen !== this.generation) return;
        this.running = false;
        const next = this.pending;
        this.pending = null;
        if (next) this.start(next.params);
      });
  }
}
