import { describe, expect, it } from 'vitest';
import { flush } from '../common/testing';
import { LatestRequest } from './latest';

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
