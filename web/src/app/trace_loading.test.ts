import { describe, expect, it } from 'vitest';
import type { LiveStatus, TraceSummary } from '../protocol/api.gen';
import { fakeApi, fixtureSummary, flush } from '../views/common/testing';
import { LiveSummaries } from './trace_loading';

const status = (generation: number): LiveStatus => ({
  trace: 't0', generation, program: 'running', connections: 1, processes: 1, received: 0, applied: 0, forced: 0,
  missing: 0, clock: 0, lag_ms: 0, window_from: 0, dropped: 0, bad_input: 0, last_bad_input: '',
});

/** A summary told apart by its duration. */
const summaryOf = (duration: number): TraceSummary => ({ ...fixtureSummary(), duration });

/** A server whose summary answers wait until the test releases them, each with the duration given then. */
function setup() {
  const pending: Array<(s: TraceSummary) => void> = [];
  const api = fakeApi({ summary: () => new Promise<TraceSummary>((resolve) => pending.push(resolve)) });
  const statuses: number[] = [];
  const applied: number[] = [];
  const live = new LiveSummaries({
    onStatus: (s) => statuses.push(s.generation),
    apply: (s) => applied.push(s.duration),
  });
  const fetches = () => api.calls.filter((c) => c.endpoint === 'summary').length;
  return { api, live, statuses, applied, pending, fetches };
}

describe('LiveSummaries', () => {
  it('shows every status but applies nothing before the views are attached', () => {
    const { live, statuses, applied, fetches } = setup();
    live.opened(status(3));
    live.message(status(4), summaryOf(40));
    live.message(status(5));
    expect(statuses).toEqual([3, 4, 5]);
    expect(applied).toEqual([]);
    expect(fetches()).toBe(0);
  });

  it('applies a newer summary from the message, and none that is not newer', () => {
    const { api, live, applied, fetches } = setup();
    live.opened(status(3));
    live.attach(api);
    live.message(status(3), summaryOf(30));
    live.message(status(4), summaryOf(40));
    live.message(status(4), summaryOf(41));
    live.message(status(2), summaryOf(20));
    expect(applied).toEqual([40]);
    expect(fetches()).toBe(0);
  });

  it('fetches the summary a message does not bring, once for messages that come meanwhile', async () => {
    const { api, live, applied, pending, fetches } = setup();
    live.attach(api);
    live.message(status(1));
    live.message(status(2));
    await flush();
    expect(fetches()).toBe(1);
    // The answer is from before snapshot 2: it is applied, and 2 is fetched next.
    pending.shift()!(summaryOf(10));
    await flush();
    expect(applied).toEqual([10]);
    expect(fetches()).toBe(2);
    pending.shift()!(summaryOf(20));
    await flush();
    expect(applied).toEqual([10, 20]);
    expect(fetches()).toBe(2);
  });

  it('drops a fetched summary once a message brought one as new', async () => {
    const { api, live, applied, pending } = setup();
    live.attach(api);
    live.message(status(1));
    await flush();
    live.message(status(1), summaryOf(11));
    pending.shift()!(summaryOf(10));
    await flush();
    expect(applied).toEqual([11]);
  });

  it('catches up with a snapshot that came while the first summary loaded', async () => {
    const { api, live, applied, pending, fetches } = setup();
    live.opened(status(3));
    live.attach(api);
    live.catchUp();
    expect(fetches()).toBe(0);

    const later = setup();
    later.live.opened(status(3));
    later.live.message(status(5));
    later.live.attach(later.api);
    expect(later.fetches()).toBe(0);
    later.live.catchUp();
    await flush();
    later.pending.shift()!(summaryOf(50));
    await flush();
    expect(later.applied).toEqual([50]);
    expect(applied).toEqual([]);
    expect(pending).toEqual([]);
  });
});
