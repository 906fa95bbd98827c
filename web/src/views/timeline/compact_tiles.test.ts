import { describe, expect, it, vi } from 'vitest';
import { API_VERSION, ROWMAPCELL_SIZE, ROWMAPHEADER_SIZE, writeRowmapHeader } from '../../protocol/api.gen';
import { ROWMAP_MAGIC } from '../../engine/rowmap';
import { rowmapKey, type RowmapRequest } from './compact';
import { MAX_IN_FLIGHT, RETRY_MS, RowmapTiles } from './compact_tiles';

function answer(r: RowmapRequest): ArrayBuffer {
  const buf = new ArrayBuffer(ROWMAPHEADER_SIZE + r.bands * r.width * ROWMAPCELL_SIZE);
  writeRowmapHeader(new DataView(buf), 0, { magic: ROWMAP_MAGIC, version: API_VERSION, from: r.from, to: r.to, width: r.width, bands: r.bands, group: r.group, reserved: 0 });
  return buf;
}

const req = (i: number): RowmapRequest => ({ from: i * 10, to: i * 10 + 10, width: 2, group: 1, band: 0, bands: 1, rows: [0] });

/** A loader whose fetches wait until answered by hand. */
function setup() {
  const asked: Array<{ r: RowmapRequest; answer: () => void; fail: () => void }> = [];
  let loaded = 0;
  const errors: unknown[] = [];
  const tiles = new RowmapTiles(
    (r) => new Promise((resolve, reject) => asked.push({ r, answer: () => resolve(answer(r)), fail: () => reject(new Error('500')) })),
    () => loaded++,
    (e) => errors.push(e),
  );
  return { tiles, asked, errors, loaded: () => loaded };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('RowmapTiles', () => {
  it('asks for what is not cached, a few at a time, and caches the answers', async () => {
    const { tiles, asked, loaded } = setup();
    const reqs = Array.from({ length: MAX_IN_FLIGHT + 2 }, (_, i) => req(i));
    tiles.want(reqs);
    expect(asked).toHaveLength(MAX_IN_FLIGHT);
    tiles.want(reqs); // nothing new while under way
    expect(asked).toHaveLength(MAX_IN_FLIGHT);
    asked[0]!.answer();
    await settle();
    expect(loaded()).toBe(1);
    expect(tiles.get(rowmapKey(reqs[0]!))?.header.from).toBe(0);
    expect(asked).toHaveLength(MAX_IN_FLIGHT + 1); // a slot freed
    expect(tiles.pending).toBe(MAX_IN_FLIGHT + 1);
  });

  it('drops what was queued for an earlier screen', async () => {
    const { tiles, asked } = setup();
    tiles.want(Array.from({ length: MAX_IN_FLIGHT + 3 }, (_, i) => req(i)));
    tiles.want([req(100)]);
    for (const a of asked.slice()) a.answer();
    await settle();
    expect(asked.map((a) => a.r.from)).toEqual([...Array.from({ length: MAX_IN_FLIGHT }, (_, i) => i * 10), 1000]);
  });

  it('drops answers asked for before invalidate(), and reports failures', async () => {
    const { tiles, asked, errors, loaded } = setup();
    tiles.want([req(0), req(1)]);
    tiles.invalidate();
    asked[0]!.answer();
    await settle();
    expect(tiles.get(rowmapKey(req(0)))).toBeUndefined();
    expect(loaded()).toBe(0);
    tiles.want([req(2)]);
    asked[2]!.fail();
    await settle();
    expect(errors).toHaveLength(1);
    expect(tiles.pending).toBe(0);
    // Not asked again at once (every frame would), but after RETRY_MS.
    tiles.want([req(2)]);
    expect(asked).toHaveLength(3);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + RETRY_MS + 1);
    tiles.want([req(2)]);
    expect(asked).toHaveLength(4);
    vi.restoreAllMocks();
  });
});
