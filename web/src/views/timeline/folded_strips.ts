// Summaries on folded groups: a collapsed host or process header shows, in a
// strip across the plot, the state most of the threads it hides are in at
// each pixel (/rowmap with those rows as one band), so a folded group says
// what it does, not only where its messages go. The requests are the compact
// mode's (compact.ts), tagged with the header's key; its tiles are cached by
// RowmapTiles, and a strip keeps its background until they come.
import { rgbToHex } from '../../base/color';
import type { Painter } from '../../render/painter';
import type { StateStyle } from '../context';
import { CompactLayout, planRowmaps, rowmapTiling, type RowmapRequest } from './compact';
import { BACKGROUND, compose, MISSING, packColor, type CompactFrame } from './compact_paint';
import { RowmapTiles, type RowmapFetcher } from './compact_tiles';
import type { TimelineGeometry } from './geometry';

/** Space between a header's edges and its strip, CSS px. */
export const STRIP_INSET = 4;

export class FoldedStrips {
  private readonly tiles: RowmapTiles;

  constructor(fetch: RowmapFetcher, loaded: () => void, onError: (e: unknown) => void) {
    this.tiles = new RowmapTiles(fetch, loaded, onError);
  }

  /** The trace changed: its strips are asked for again. */
  invalidate(): void {
    this.tiles.invalidate();
  }

  /** Requests under way or queued (tests). */
  get pending(): number {
    return this.tiles.pending;
  }

  /**
   * Paints the strips of the collapsed headers on screen (in the plot,
   * inside each header) and asks for the tiles they still need.
   */
  paint(p: Painter, g: TimelineGeometry, duration: number, style: StateStyle, states: number): void {
    const { top, bottom } = g.visibleContent();
    const wanted: RowmapRequest[] = [];
    let colors: Uint32Array | null = null;
    for (const item of g.layout.itemsIn(top, bottom)) {
      const rows = g.layout.rowsHiddenBy(item);
      if (rows.length === 0) continue;
      // All the rows in one band (groups over 65,535 rows show their first band).
      const layout = new CompactLayout(rows, 1, 'fit');
      for (const r of planRowmaps(layout, g.window, g.plotWidth, duration, 0, 1)) wanted.push({ ...r, tag: item.key });
      if (!colors) {
        colors = new Uint32Array(states);
        for (let i = 0; i < states; i++) colors[i] = style.visible(i) ? packColor(style.color(i)) : BACKGROUND;
      }
      const frame: CompactFrame = {
        layout,
        window: g.window,
        width: Math.max(1, Math.floor(g.plotWidth)),
        height: 1,
        scrollTop: 0,
        duration,
        ...rowmapTiling(g.window, g.plotWidth),
        tile: (key) => this.tiles.get(key),
        colors,
        tag: item.key,
      };
      const y = g.toScreenY(item.y) + STRIP_INSET;
      const h = item.height - 2 * STRIP_INSET;
      compose(frame, (_y0, _y1, line) => {
        for (let x = 0; x < line.length; ) {
          const c = line[x]!;
          let e = x + 1;
          while (e < line.length && line[e] === c) e++;
          if (c !== BACKGROUND && c !== MISSING) {
            p.fillRect(g.plotLeft + x, y, e - x, h, rgbToHex(c & 255, (c >>> 8) & 255, (c >>> 16) & 255));
          }
          x = e;
        }
      });
    }
    this.tiles.want(wanted);
  }
}
