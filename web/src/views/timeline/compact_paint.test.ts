import { describe, expect, it } from 'vitest';
import { NO_STATE, type Rowmap } from '../../engine/rowmap';
import { TWO_RANKS } from './test_rows';
import { CompactLayout, ROWMAP_TILE_PX, rowmapKey, rowmapTiling } from './compact';
import { BACKGROUND, cellAt, composeImage, describeCell, MISSING, packColor, paintRuns, type CompactFrame } from './compact_paint';
import type { Painter } from '../../render/painter';

const RED = packColor('#ff0000');
const BLUE = packColor('#0000ff');

/** A row map of `bands` bands whose cell (band, x) is `state(band, x)`, 3 of the band's rows in it. */
function rowmap(bands: number, state: (band: number, x: number) => number): Rowmap {
  const n = bands * ROWMAP_TILE_PX;
  const cells = { count: n, state: new Uint32Array(n), rows: new Uint16Array(n).fill(3), busy: new Uint16Array(n).fill(4) };
  for (let b = 0; b < bands; b++) for (let x = 0; x < ROWMAP_TILE_PX; x++) cells.state[b * ROWMAP_TILE_PX + x] = state(b, x);
  const header = { magic: 0, version: 0, from: 0, to: 0, width: ROWMAP_TILE_PX, bands, group: 0, reserved: 0 };
  return { header, cells, bytes: 0 };
}

/** 4 rows in 2 bands over a 4 px plot showing [0, 4) of a trace 3 ns long (the last column is past its end). */
function frame(tiles: Map<string, Rowmap>, rowHeight: 'fit' | 2 = 'fit', height = 2): CompactFrame {
  const layout = new CompactLayout([0, 1, 2, 3], height, rowHeight);
  const window = { from: 0, to: 4 };
  return {
    layout, window, width: 4, height, scrollTop: 0, duration: 3,
    ...rowmapTiling(window, 4),
    tile: (key) => tiles.get(key),
    colors: new Uint32Array([RED, BLUE]),
  };
}

describe('compact painting', () => {
  const key = (group: number, bands: number) => rowmapKey({ from: 0, to: ROWMAP_TILE_PX, width: ROWMAP_TILE_PX, group, band: 0, bands });

  it('paints each cell in its state colour, empty cells and times past the end as background', () => {
    const tiles = new Map([[key(2, 2), rowmap(2, (b, x) => (b === 0 && x === 1 ? NO_STATE : b === 1 && x === 2 ? 1 : 0))]]);
    const f = frame(tiles);
    expect(f.layout.group).toBe(2);
    const px = new Uint32Array(8);
    expect(composeImage(f, px)).toBe(true);
    expect([...px]).toEqual([RED, BACKGROUND, RED, BACKGROUND, RED, RED, BLUE, BACKGROUND]);
  });

  it('repeats a band over its height, and leaves what has not come transparent', () => {
    const px = new Uint32Array(4 * 8);
    expect(composeImage(frame(new Map(), 2, 8), px)).toBe(false);
    expect(px[0]).toBe(MISSING);
    expect(px[3]).toBe(BACKGROUND); // past the end of the trace
    const tiles = new Map([[key(1, 4), rowmap(4, (b) => (b === 1 ? 1 : 0))]]);
    expect(composeImage(frame(tiles, 2, 8), px)).toBe(true);
    // Band 1 is rows 2 and 3 of the image.
    expect([px[0], px[4], px[8], px[12], px[16]]).toEqual([RED, RED, BLUE, BLUE, RED]);
  });

  it('paints exports as one rectangle per run of a colour', () => {
    const tiles = new Map([[key(2, 2), rowmap(2, (b, x) => (b === 0 && x === 1 ? NO_STATE : b === 1 && x === 2 ? 1 : 0))]]);
    const rects: string[] = [];
    const p = { fillRect: (x: number, y: number, w: number, h: number, c: string) => rects.push(`${x},${y} ${w}x${h} ${c}`) } as unknown as Painter;
    paintRuns(p, frame(tiles), 200, 24, (c) => (c === RED ? 'red' : c === BLUE ? 'blue' : '?'));
    expect(rects).toEqual(['200,24 1x1 red', '202,24 1x1 red', '200,25 2x1 red', '202,25 1x1 blue']);
  });

  it('tells what a cell holds, in words', () => {
    const tiles = new Map([[key(2, 2), rowmap(2, (_, x) => (x === 1 ? NO_STATE : 1))]]);
    const f = frame(tiles);
    const summary = {
      ...TWO_RANKS,
      processes: [...TWO_RANKS.processes, { ...TWO_RANKS.processes[0]!, index: 2, name: 'rank 2', threads: [2] }, { ...TWO_RANKS.processes[0]!, index: 3, name: 'rank 3', threads: [3] }],
      threads: [...TWO_RANKS.threads, { ...TWO_RANKS.threads[0]!, index: 2, process: 2 }, { ...TWO_RANKS.threads[0]!, index: 3, process: 3 }],
      states: [{ index: 0, name: 'compute', category: '', color: '' }, { index: 1, name: 'MPI_Wait', category: '', color: '' }],
    };
    expect(cellAt(f, 0, 1)).toEqual({ state: 1, rows: 3, busy: 4 });
    expect(describeCell(summary, f.layout, 1, cellAt(f, 0, 1))).toBe('rank 2 – rank 3 (2 rows): 3 of 2 rows in MPI_Wait, 4 busy');
    expect(describeCell(summary, f.layout, 0, cellAt(f, 1, 0))).toBe('rank 0 – rank 1 (2 rows): no slice');
    expect(describeCell(summary, f.layout, 0, null)).toBe('rank 0 – rank 1 (2 rows): loading');
    expect(cellAt(f, 3, 0)).toBeNull();
  });
});
