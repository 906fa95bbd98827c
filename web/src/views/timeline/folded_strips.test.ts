import { describe, expect, it } from 'vitest';
import { RowLayout } from '../../base/layout';
import { ROWMAP_MAGIC } from '../../engine/rowmap';
import { API_VERSION, ROWMAPCELL_SIZE, ROWMAPHEADER_SIZE, writeRowmapCell, writeRowmapHeader } from '../../protocol/api.gen';
import { fakeStates, fixtureSummary, flush, RecordingPainter } from '../common/testing';
import { ROWMAP_TILE_PX, type RowmapRequest } from './compact';
import { FoldedStrips, STRIP_INSET } from './folded_strips';
import { LABEL_WIDTH, TimelineGeometry } from './geometry';

/** A /rowmap answer of one band: rows 2, 3: state 1 (MPI_Send) over the first half of the tile, 2 (MPI_Wait) after it; rows 0, 1: state 0. */
function answer(r: RowmapRequest): ArrayBuffer {
  const buf = new ArrayBuffer(ROWMAPHEADER_SIZE + r.width * ROWMAPCELL_SIZE);
  const v = new DataView(buf);
  writeRowmapHeader(v, 0, { magic: ROWMAP_MAGIC, version: API_VERSION, from: r.from, to: r.to, width: r.width, bands: 1, group: r.group, reserved: 0 });
  for (let x = 0; x < r.width; x++) {
    writeRowmapCell(v, ROWMAPHEADER_SIZE + x * ROWMAPCELL_SIZE, { state: r.rows[0] === 0 ? 0 : x < r.width / 2 ? 1 : 2, rows: r.group, busy: r.group });
  }
  return buf;
}

describe('folded strips', () => {
  it('asks for the rows a folded header hides, as one band, and paints their states in its strip', async () => {
    const summary = fixtureSummary();
    const layout = new RowLayout(summary, new Set(['process:1']));
    const header = layout.items.find((it) => it.key === 'process:1')!;
    expect(layout.rowsHiddenBy(header)).toEqual([2, 3]);
    expect(layout.rowsHiddenBy(layout.items[0]!)).toEqual([]); // an expanded host hides nothing
    const asked: RowmapRequest[] = [];
    let loaded = 0;
    const strips = new FoldedStrips(
      async (r) => {
        asked.push(r);
        return answer(r);
      },
      () => loaded++,
      (e) => {
        throw e;
      },
    );
    // A window of exactly one tile: ROWMAP_TILE_PX ns over as many plot pixels.
    const g = new TimelineGeometry({ from: 0, to: ROWMAP_TILE_PX }, LABEL_WIDTH + ROWMAP_TILE_PX, 400, layout, 0);
    const style = fakeStates(summary);
    const before = new RecordingPainter(g.width, g.height);
    strips.paint(before, g, summary.duration, style, summary.states.length);
    expect(before.ops).toEqual([]); // nothing until the tile comes
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ rows: [2, 3], group: 2, bands: 1, from: 0, to: ROWMAP_TILE_PX, tag: 'process:1' });
    await flush();
    expect(loaded).toBe(1);

    const p = new RecordingPainter(g.width, g.height);
    strips.paint(p, g, summary.duration, style, summary.states.length);
    const y = g.toScreenY(header.y) + STRIP_INSET;
    const h = header.height - 2 * STRIP_INSET;
    expect(p.ops.map((o) => ({ args: o.args, color: o.color }))).toEqual([
      { args: [LABEL_WIDTH, y, ROWMAP_TILE_PX / 2, h], color: style.color(1) },
      { args: [LABEL_WIDTH + ROWMAP_TILE_PX / 2, y, ROWMAP_TILE_PX / 2, h], color: style.color(2) },
    ]);
    expect(asked).toHaveLength(1); // cached

    // Both ranks folded: two requests of the same shape, told apart, each strip its own states.
    const both = new RowLayout(summary, new Set(['process:0', 'process:1']));
    const g2 = new TimelineGeometry(g.window, g.width, g.height, both, 0);
    strips.paint(new RecordingPainter(g.width, g.height), g2, summary.duration, style, summary.states.length);
    expect(asked.map((r) => r.rows)).toEqual([[2, 3], [0, 1]]);
    await flush();
    const p2 = new RecordingPainter(g.width, g.height);
    strips.paint(p2, g2, summary.duration, style, summary.states.length);
    expect(p2.ops.map((o) => o.color)).toEqual([style.color(0), style.color(1), style.color(2)]);

    // Unfolded, nothing is painted nor asked.
    const open = new TimelineGeometry(g.window, g.width, g.height, new RowLayout(summary), 0);
    const q = new RecordingPainter(g.width, g.height);
    strips.paint(q, open, summary.duration, style, summary.states.length);
    expect(q.ops).toEqual([]);
    expect(asked).toHaveLength(2);
  });
});
