import { describe, expect, it } from 'vitest';
import { flush } from '../common/testing';
import { LatestFetcher } from './latest_fetcher';

/** A fetch whose answers the test releases by hand. */
function deferredFetch() {
  const calls: { t: number; resolve: (v: string) => void; reject: (e: unknown) => void }[] = [];
  const fetch = (t: number) => new Promise<string>((resolve, reject) => calls.push({ t, resolve, reject }));
  return { calls, fetch };
}

describe('LatestFetcher', () => {
  it('keeps one request in flight and asks for the newest time next', async () => {
    const { calls, fetch } = deferredFetch();
    const results: [number, string][] = [];
    const f = new LatestFetcher(fetch, (t, r) => results.push([t, r]), () => {});
    f.request(1);
    f.request(2);
    f.request(3);
    expect(calls.map((c) => c.t)).toEqual([1]);
    expect(f.inFlight()).toBe(true);
    calls[0]!.resolve('one');
    await flush();
    expect(results).toEqual([[1, 'one']]);
    expect(calls.map((c) => c.t)).toEqual([1, 3]); // 2 was never asked
    calls[1]!.resolve('three');
    await flush();
    expect(results).toEqual([[1, 'one'], [3, 'three']]);
    expect(f.inFlight()).toBe(false);
    expect(f.sent).toBe(2);
  });

  it('goes on after an error and ignores answers after cancel', async () => {
    const { calls, fetch } = deferredFetch();
    const results: number[] = [];
    const errors: unknown[] = [];
    const f = new LatestFetcher(fetch, (t) => results.push(t), (e) => errors.push(e));
    f.request(1);
    f.request(2);
    calls[0]!.reject(new Error('boom'));
    await flush();
    expect(errors).toHaveLength(1);
    expect(calls.map((c) => c.t)).toEqual([1, 2]);
    f.cancel();
    calls[1]!.resolve('late');
    await flush();
    expect(results).toEqual([]);
    f.request(5);
    expect(calls.map((c) => c.t)).toEqual([1, 2, 5]);
  });

  it('survives a listener that throws: its error is reported', async () => {
    const { calls, fetch } = deferredFetch();
    const errors: unknown[] = [];
    const f = new LatestFetcher(fetch, () => {
      throw new Error('listener');
    }, (e) => errors.push(e));
    f.request(1);
    f.request(2);
    calls[0]!.resolve('x');
    await flush();
    expect(calls.map((c) => c.t)).toEqual([1, 2]);
    expect(String(errors[0])).toContain('listener');
  });
});
