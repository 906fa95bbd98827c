// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { NO_STATE, ROWMAP_MAGIC } from '../../engine/rowmap';
import {
  API_VERSION,
  ROWMAPCELL_SIZE,
  ROWMAPHEADER_SIZE,
  ROWMAPSTAT_SIZE,
  writeRowmapCell,
  writeRowmapHeader,
  writeRowmapStat,
  type RowmapStat,
} from '../../protocol/api.gen';
import { fakeApi, fakeStates, fixtureSummary } from '../common/testing';
import { CompactLayout, planRowmaps, ROWMAP_TILE_PX, rowmapKey, rowmapTiling } from './compact';
import { CompactMode } from './compact_mode';
import { BACKGROUND, cellAt, composeImage, describeCell, packColor, type CompactFrame } from './compact_paint';
import {
  decodeRowmapAnswer,
  describeStats,
  formatShare,
  MIN_TINT,
  parseBandStat,
  shade,
  SHARE_SCALE,
  type StatRowmap,
} from './compact_stats';
import { RULER_HEIGHT, TimelineGeometry } from './geometry';
import { TWO_RANKS } from './test_rows';

const RED = packColor('#ff0000');

/** A /rowmap answer of `bands` × `width` cells (cell i in state i % 2), with stat(i) after them when given. */
function answer(bands: number, width: number, stat?: (i: number) => RowmapStat): ArrayBuffer {
  const n = bands * width;
  const buf = new ArrayBuffer(ROWMAPHEADER_SIZE + n * ROWMAPCELL_SIZE + (stat ? n * ROWMAPSTAT_SIZE : 0));
  const v = new DataView(buf);
  writeRowmapHeader(v, 0, { magic: ROWMAP_MAGIC, version: API_VERSION, from: 0, to: 512, width, bands, group: 2, reserved: 0 });
  for (let i = 0; i < n; i++) writeRowmapCell(v, ROWMAPHEADER_SIZE + i * ROWMAPCELL_SIZE, { state: i % 2, rows: 1, busy: 2 });
  const at = ROWMAPHEADER_SIZE + n * ROWMAPCELL_SIZE;
  if (stat) for (let i = 0; i < n; i++) writeRowmapStat(v, at + i * ROWMAPSTAT_SIZE, stat(i));
  return buf;
}

const stat = (i: number): RowmapStat => ({ min_row: 10 + i, max_row: 20 + i, min: i, median: 1000 + i, max: SHARE_SCALE - i, mean: 7 });

describe('compact band statistics', () => {
  it('decodes answers with and without stats, and refuses a short one', () => {
    const plain = decodeRowmapAnswer(answer(2, 3));
    expect(plain.stats).toBeNull();
    expect([...plain.cells.state]).toEqual([0, 1, 0, 1, 0, 1]);
    const m = decodeRowmapAnswer(answer(2, 3, stat));
    expect(m.stats?.count).toBe(6);
    expect([...m.stats!.minRow]).toEqual([10, 11, 12, 13, 14, 15]);
    expect([...m.stats!.max]).toEqual([65535, 65534, 65533, 65532, 65531, 65530]);
    expect(m.stats!.median[5]).toBe(1005);
    expect(m.stats!.mean[5]).toBe(7);
    expect(m.bytes).toBe(ROWMAPHEADER_SIZE + 6 * (ROWMAPCELL_SIZE + ROWMAPSTAT_SIZE));
    expect(() => decodeRowmapAnswer(answer(2, 3, stat).slice(0, ROWMAPHEADER_SIZE + 6 * ROWMAPCELL_SIZE + 5))).toThrow(/rowmap: /);
  });

  it('shades a colour from pale (share 0) to full (share 1), formats shares and names the extremes', () => {
    expect(shade(RED, SHARE_SCALE)).toBe(RED);
    const pale = shade(RED, 0);
    expect(pale & 255).toBe(255); // red stays
    expect((pale >>> 8) & 255).toBe(Math.round(255 * (1 - MIN_TINT)));
    expect((shade(RED, SHARE_SCALE / 2) >>> 8) & 255).toBeLessThan((pale >>> 8) & 255);
    expect([0, 1638, 32768, 65535].map(formatShare)).toEqual(['0%', '2.5%', '50%', '100%']);
    const words = describeStats({ min: 0, median: 32768, max: 65535, minRow: 3, maxRow: 1 }, (r) => `rank ${r}`);
    expect(words).toBe('min 0% (rank 3) · median 50% · max 100% (rank 1)');
    expect(parseBandStat('median')).toBe('median');
    expect(parseBandStat('mean')).toBeNull();
  });

  it('draws the chosen statistic, and says all three in a cell’s words', () => {
    // 4 rows in 2 bands over a 4 px plot of [0, 4), a trace 3 ns long; states red and blue.
    const layout = new CompactLayout([0, 1, 2, 3], 2, 'fit');
    const window = { from: 0, to: 4 };
    const key = rowmapKey({ from: 0, to: ROWMAP_TILE_PX, width: ROWMAP_TILE_PX, group: 2, band: 0, bands: 2 });
    const cellStat = (i: number): RowmapStat => ({ min_row: 1, max_row: 0, min: i ? 100 : 0, median: 32768, max: SHARE_SCALE, mean: 9 });
    const tile = decodeRowmapAnswer(answer(2, ROWMAP_TILE_PX, cellStat));
    const f: CompactFrame = {
      layout, window, width: 4, height: 2, scrollTop: 0, duration: 3, ...rowmapTiling(window, 4),
      tile: (k) => (k === key ? tile : undefined),
      colors: new Uint32Array([RED, packColor('#0000ff')]),
    };
    const draw = (stat?: CompactFrame['stat']): number[] => {
      const px = new Uint32Array(8);
      expect(composeImage({ ...f, stat }, px)).toBe(true);
      return [...px];
    };
    const dominant = draw();
    expect(dominant[0]).toBe(RED);
    expect(draw('max')).toEqual(dominant); // every max is 1
    const min = draw('min');
    expect(min[0]).toBe(shade(RED, 0));
    expect(min[2]).toBe(shade(RED, 100));
    expect(min[3]).toBe(BACKGROUND); // past the end
    expect(draw('median')[0]).toBe(shade(RED, 32768));
    // Tiles without stats (one row a band) show the dominant state whatever is chosen.
    const plain: StatRowmap = decodeRowmapAnswer(answer(2, ROWMAP_TILE_PX));
    const px = new Uint32Array(8);
    composeImage({ ...f, stat: 'min', tile: () => plain }, px);
    expect([...px]).toEqual(dominant);
    const t0 = TWO_RANKS.threads[0]!;
    const threads = [...TWO_RANKS.threads, { ...t0, index: 2, process: 0 }, { ...t0, index: 3, process: 1 }];
    const summary = { ...TWO_RANKS, threads, states: [{ index: 0, name: 'MPI_Wait', category: '', color: '' }] };
    const words = describeCell(summary, layout, 0, cellAt(f, 0, 0));
    expect(words).toMatch(/^rank 0 .*\(2 rows\): 1 of 2 rows in MPI_Wait, 2 busy; min 0% \(.+\) · median 50% · max 100% \(.+\)$/);
    const noSlice = { ...cellAt(f, 0, 0)!, state: NO_STATE };
    expect(describeCell(summary, layout, 0, noSlice)).not.toContain('min');
  });

  it('asks for stats only for bands of several rows, and marks the statistic drawn', () => {
    const layout = new CompactLayout([0, 1, 2, 3], 2, 'fit');
    expect(planRowmaps(layout, { from: 0, to: 4 }, 4, 3, 0, 2, true).every((r) => r.stats === true)).toBe(true);
    expect(planRowmaps(layout, { from: 0, to: 4 }, 4, 3, 0, 2).some((r) => 'stats' in r)).toBe(false);
    const summary = fixtureSummary();
    const api = fakeApi({ rowmap: () => new ArrayBuffer(0) });
    let changes = 0;
    const mode = new CompactMode(() => ({ api, summary, style: fakeStates(summary) }), () => {}, () => changes++);
    const EMPTY = new RowLayout({ processes: [], threads: [], counters: [] });
    const g = (rows: number) => new TimelineGeometry({ from: 0, to: summary.duration }, 1200, RULER_HEIGHT + rows, EMPTY, 0);
    mode.set(true, 'fit');
    mode.ensure(g(2)); // 2 rows a band
    const asked = () => api.calls.filter((c) => c.endpoint === 'rowmap').map((c) => c.params as { stats?: boolean; group: number });
    expect(asked().length).toBeGreaterThan(0);
    for (const p of asked()) expect(p).toMatchObject({ group: 2, stats: true });
    api.calls.length = 0;
    mode.set(true, 8);
    mode.ensure(g(40)); // a row a band
    expect(asked().length).toBeGreaterThan(0);
    for (const p of asked()) expect(p.stats).toBeUndefined();
    const canvas = document.createElement('canvas');
    mode.mark(canvas, g(40), () => 0);
    expect(canvas.dataset['bandStat']).toBe('dominant');
    const before = changes;
    mode.setStat('median');
    expect(mode.stat).toBe('median');
    expect(changes).toBe(before + 1);
    expect(mode.frame(g(40)).stat).toBe('median');
    mode.mark(canvas, g(40), () => 0);
    expect(canvas.dataset['bandStat']).toBe('median');
  });
});
