import { describe, expect, it } from 'vitest';
import { LatestRequest } from './latest_request';
import { flush } from './testing';

function controlled() {
  const asked: number[] = [];
  const resolve: ((v: string) => void)[] = [];
  const reject: ((e: Error) => void)[] = [];
  const shown: [string, number][] = [];
  const errors: string[] = [];
  const req = new LatestRequest<number, string>(
    (p) => {
      asked.push(p);
      return new Promise<string>((res, rej) => {
        resolve.push(res);
        reject.push(rej);
      });
    },
    (r, p) => shown.push([r, p]),
    (e) => errors.push(String(e)),
  );
  return { req, asked, resolve, reject, shown, errors };
}

describe('LatestRequest', () => {
  it('keeps one request in flight and sends only the newest waiting ask after it', async () => {
    const c = controlled();
    c.req.request(1);
    c.req.request(2);
    c.req.request(3);
    expect(c.asked).toEqual([1]);
    expect(c.req.busy()).toBe(true);
    c.resolve[0]!('one');
    await flush();
    expect(c.shown).toEqual([['one', 1]]);
    expect(c.asked).toEqual([1, 3]); // 2 was replaced by 3
    c.resolve[1]!('three');
    await flush();
    expect(c.shown).toEqual([['one', 1], ['three', 3]]);
    expect(c.req.busy()).toBe(false);
    c.req.request(4);
    expect(c.asked).toEqual([1, 3, 4]);
  });

  it('reports errors and goes on with the waiting ask', async () => {
    const c = controlled();
    c.req.request(1);
    c.req.request(2);
    c.reject[0]!(new Error('boom'));
    await flush();
    expect(c.errors).toEqual(['Error: boom']);
    expect(c.asked).toEqual([1, 2]);
  });

  it('drops answers after cancel', async () => {
    const c = controlled();
    c.req.request(1);
    c.req.request(2);
    c.req.cancel();
    c.resolve[0]!('late');
    await flush();
    expect(c.shown).toEqual([]);
    expect(c.asked).toEqual([1]);
  });
});

/** A fetch whose answers the test releases by hand. */
function deferredFetch() {
  const calls: { t: number; resolve: (v: string) => void; reject: (e: unknown) => void }[] = [];
  const fetch = (t: number) => new Promise<string>((resolve, reject) => calls.push({ t, resolve, reject }));
  return { calls, fetch };
}

describe('LatestRequest following a cursor', () => {
  it('keeps one request in flight and asks for the newest time next', async () => {
    const { calls, fetch } = deferredFetch();
    const results: [number, string][] = [];
    const f = new LatestRequest(fetch, (r: string, t: number) => results.push([t, r]), () => {});
    f.request(1);
    f.request(2);
    f.request(3);
    expect(calls.map((c) => c.t)).toEqual([1]);
    expect(f.busy()).toBe(true);
    calls[0]!.resolve('one');
    await flush();
    expect(results).toEqual([[1, 'one']]);
    expect(calls.map((c) => c.t)).toEqual([1, 3]); // 2 was never asked
    calls[1]!.resolve('three');
    await flush();
    expect(results).toEqual([[1, 'one'], [3, 'three']]);
    expect(f.busy()).toBe(false);
    expect(f.sent).toBe(2);
  });

  it('goes on after an error and ignores answers after cancel', async () => {
    const { calls, fetch } = deferredFetch();
    const results: number[] = [];
    const errors: unknown[] = [];
    const f = new LatestRequest(fetch, (_r: string, t: number) => results.push(t), (e) => errors.push(e));
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
    const f = new LatestRequest(fetch, () => {
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
