import { describe, expect, it } from 'vitest';
import { encodeTile } from '../../engine/tile_encode';
import { MAX_TILE_WIDTH, TileLoader, planTile, tileResolution, tileServes, type LoadedTile, type TileRequest } from './tiles';

describe('planTile', () => {
  it('adds margins, snaps to chunks and clips to the trace', () => {
    const p = planTile({ from: 10_000, to: 20_000 }, 1000, 1_000_000, [0, 1], []);
    // 10 ns/px on screen → 8 ns/px tiles, chunks of 2048 ns.
    expect(tileResolution(10_000, 1000)).toBe(8);
    expect(p.from % 2048).toBe(0);
    expect(p.to % 2048).toBe(0);
    expect(p.from).toBeLessThanOrEqual(5000);
    expect(p.to).toBeGreaterThanOrEqual(25_000);
    expect(p.width).toBe((p.to - p.from) / 8);
    const whole = planTile({ from: -100, to: 1_000_100 }, 1000, 1_000_000, [0], []);
    expect(whole.from).toBe(0);
    expect(whole.to).toBeGreaterThanOrEqual(1_000_000);
  });

  it('never asks for more than the server allows', () => {
    const p = planTile({ from: 0, to: 1e9 }, 16000, 1e9, [0], []);
    expect(p.width).toBeLessThanOrEqual(MAX_TILE_WIDTH);
    expect(p.to - p.from).toBeGreaterThanOrEqual(1e9);
  });

  it('reuses a tile for small pans but not after zooming', () => {
    const view = { from: 100_000, to: 200_000 };
    const a = planTile(view, 1000, 1e7, [0, 1, 2], []);
    const panned = { from: 120_000, to: 220_000 };
    expect(tileServes(a, planTile(panned, 1000, 1e7, [1, 2], []), panned)).toBe(true);
    const zoomed = { from: 100_000, to: 140_000 };
    expect(tileServes(a, planTile(zoomed, 1000, 1e7, [0], []), zoomed)).toBe(false);
    // More rows than the tile has: a new tile.
    expect(tileServes(a, planTile(panned, 1000, 1e7, [3], []), panned)).toBe(false);
  });
});

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}

function setup() {
  const pending: Array<{ req: TileRequest; d: ReturnType<typeof deferred<ArrayBuffer>> }> = [];
  const drawn: LoadedTile[] = [];
  const errors: unknown[] = [];
  const loader = new TileLoader(
    (req) => {
      const d = deferred<ArrayBuffer>();
      pending.push({ req, d });
      return d.promise;
    },
    (t) => drawn.push(t),
    4,
    (e) => errors.push(e),
  );
  const answer = (i: number) => {
    const { req, d } = pending[i]!;
    d.resolve(encodeTile({ from: req.from, to: req.to, width: req.width }));
  };
  return { loader, pending, drawn, errors, answer };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('TileLoader', () => {
  it('does not ask again for what the newest request covers', () => {
    const { loader, pending } = setup();
    const v = { from: 0, to: 1000 };
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    const v2 = { from: 50, to: 1050 };
    loader.want(planTile(v2, 100, 1e6, [0], []), v2);
    expect(pending).toHaveLength(1);
  });

  it('draws only the newest answer and keeps the old tile meanwhile', async () => {
    const { loader, pending, drawn, answer } = setup();
    const v1 = { from: 0, to: 1000 };
    loader.want(planTile(v1, 100, 1e6, [0], []), v1);
    answer(0);
    await tick();
    expect(drawn).toHaveLength(1);
    const first = loader.current;
    const v2 = { from: 0, to: 100 };
    const v3 = { from: 0, to: 10 };
    loader.want(planTile(v2, 100, 1e6, [0], []), v2);
    loader.want(planTile(v3, 100, 1e6, [0], []), v3);
    expect(pending).toHaveLength(3);
    expect(loader.current).toBe(first); // no flicker while loading
    answer(2);
    answer(1); // stale: arrives last, never drawn
    await tick();
    expect(drawn).toHaveLength(2);
    expect(drawn[1]!.request).toBe(pending[2]!.req);
    expect(loader.current!.request).toBe(pending[2]!.req);
  });

  it('fetches a tile ahead without drawing it; wanting it then draws it at once', async () => {
    const { loader, pending, drawn, answer } = setup();
    const a = { from: 0, to: 1000 };
    loader.want(planTile(a, 100, 1e6, [0], []), a);
    answer(0);
    await tick();
    const next = { from: 5000, to: 6000 }; // beyond what the first tile covers
    const plan = planTile(next, 100, 1e6, [0], []);
    loader.prefetch(plan);
    loader.prefetch(plan); // asked once
    expect(pending).toHaveLength(2);
    answer(1);
    await tick();
    expect(drawn).toHaveLength(1); // fetched, not drawn
    loader.want(planTile(next, 100, 1e6, [0], []), next);
    expect(pending).toHaveLength(2); // from the cache, at once
    expect(drawn).toHaveLength(2);
    expect(loader.current!.request).toEqual(plan);
  });

  it('wanting a tile being fetched ahead waits for that request rather than sending another', async () => {
    const { loader, pending, drawn, answer } = setup();
    const next = { from: 1000, to: 2000 };
    loader.prefetch(planTile(next, 100, 1e6, [0], []));
    loader.want(planTile(next, 100, 1e6, [0], []), next);
    expect(pending).toHaveLength(1);
    answer(0);
    await tick();
    expect(drawn).toHaveLength(1);
    expect(loader.inFlight).toBe(0);
  });

  it('serves recent tiles from the cache', async () => {
    const { loader, pending, drawn, answer } = setup();
    const a = { from: 0, to: 1000 };
    const b = { from: 0, to: 10 };
    loader.want(planTile(a, 100, 1e6, [0], []), a);
    answer(0);
    await tick();
    loader.want(planTile(b, 100, 1e6, [0], []), b);
    answer(1);
    await tick();
    loader.want(planTile(a, 100, 1e6, [0], []), a);
    expect(pending).toHaveLength(2);
    expect(drawn).toHaveLength(3);
    expect(drawn[2]!.request.to).toBe(drawn[0]!.request.to);
  });

  it('after invalidate (a live snapshot) asks again for the same view, drawing the old tile meanwhile', async () => {
    const { loader, pending, drawn, answer } = setup();
    const v = { from: 0, to: 1000 };
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    answer(0);
    await tick();
    const old = loader.current;
    loader.invalidate();
    expect(loader.current).toBe(old);
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    expect(pending).toHaveLength(2);
    answer(1);
    await tick();
    expect(drawn).toHaveLength(2);
    expect(loader.current).not.toBe(old);
  });

  it('never caches an answer asked for before invalidate (the old snapshot\'s data)', async () => {
    const { loader, pending, drawn, answer } = setup();
    const v = { from: 0, to: 1000 };
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    loader.invalidate();
    answer(0); // the old snapshot's tile arrives after the new snapshot
    await tick();
    expect(drawn).toHaveLength(0);
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    expect(pending).toHaveLength(2); // asked again, not served from the cache
    answer(1);
    await tick();
    expect(drawn).toHaveLength(1);
    expect(drawn[0]!.generation).toBe(1);
  });

  it('reports failures and retries on the next want', async () => {
    const { loader, pending, errors } = setup();
    const v = { from: 0, to: 1000 };
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    pending[0]!.d.reject(new Error('tile: boom'));
    await tick();
    expect(errors).toHaveLength(1);
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    expect(pending).toHaveLength(2);
  });

  it('reports undecodable answers', async () => {
    const { loader, pending, errors, drawn } = setup();
    const v = { from: 0, to: 1000 };
    loader.want(planTile(v, 100, 1e6, [0], []), v);
    pending[0]!.d.resolve(new ArrayBuffer(3));
    await tick();
    expect(drawn).toHaveLength(0);
    expect(String(errors[0])).toMatch(/shorter than its header/);
  });
});
