// The geometry of the timeline's compact mode (Paraver/Vampir style): every
// thread row a thin strip, in layout order without headers or counters;
// when rows outnumber pixel rows, `group` consecutive rows share one band
// (one pixel row or more) showing their dominant state, as /rowmap answers
// (with the spread of its rows' shares in it, compact_stats.ts).
// Pure math: which band is where, which rows it holds, which /rowmap tiles
// cover the screen.
import { RowLayout, type LayoutInput } from '../../base/layout';
import { tileResolution } from './tiles';

/** Px per row of the compact mode: 'fit' puts every row on screen, a number is fixed (rows scroll). */
export type CompactRowHeight = 'fit' | 1 | 2 | 4 | 8;
export const COMPACT_ROW_HEIGHTS: readonly CompactRowHeight[] = ['fit', 1, 2, 4, 8];

/** `text` as a row height ('fit', '1', '2', '4', '8'); null when it is none. */
export function parseRowHeight(text: string | null): CompactRowHeight | null {
  if (text === 'fit') return 'fit';
  const n = Number(text);
  return COMPACT_ROW_HEIGHTS.includes(n as CompactRowHeight) ? (n as CompactRowHeight) : null;
}

/**
 * Pixel columns of one /rowmap tile, and about how many rows it covers: the
 * server's work grows with rows × columns, and 1024 rows × 512 px take it
 * about 20 ms on a 10^8-event trace of 16,384 ranks (bench/rowmap_bench.cc),
 * so every tile comes well under 50 ms.
 */
export const ROWMAP_TILE_PX = 512;
export const ROWMAP_TILE_ROWS = 1024;
/** The most bands one tile holds (1 px each at group 1 and 4 rows a band). */
export const ROWMAP_MAX_BAND_BLOCK = 256;

/** The thread rows in layout order (host → process → thread); folded groups do not count here. */
export function compactRows(input: LayoutInput): number[] {
  return new RowLayout(input).items.filter((it) => it.kind === 'thread').map((it) => it.row);
}

export class CompactLayout {
  /** rows per band */
  readonly group: number;
  /** CSS px per band */
  readonly bandHeight: number;
  readonly bands: number;
  /** CSS px of all bands: the compact mode's content height */
  readonly height: number;
  /** bands per /rowmap tile: about ROWMAP_TILE_ROWS rows */
  readonly bandBlock: number;
  private positions: Map<number, number> | null = null;

  /** `rows` in order, over a rows area `rowsHeight` CSS px high. */
  constructor(
    readonly rows: readonly number[],
    rowsHeight: number,
    readonly rowHeight: CompactRowHeight,
  ) {
    const n = rows.length;
    const h = Math.max(1, Math.floor(rowsHeight));
    if (rowHeight === 'fit') {
      this.group = Math.min(65535, Math.max(1, Math.ceil(n / h)));
      this.bands = Math.ceil(n / this.group);
      this.bandHeight = Math.max(1, Math.floor(h / Math.max(1, this.bands)));
    } else {
      this.group = 1;
      this.bands = n;
      this.bandHeight = rowHeight;
    }
    this.height = this.bands * this.bandHeight;
    this.bandBlock = Math.min(ROWMAP_MAX_BAND_BLOCK, Math.max(1, Math.floor(ROWMAP_TILE_ROWS / this.group)));
  }

  /** The band at content y, or -1. */
  bandAt(y: number): number {
    const b = Math.floor(y / this.bandHeight);
    return y >= 0 && b < this.bands ? b : -1;
  }

  bandTop(band: number): number {
    return band * this.bandHeight;
  }

  /** Positions in `rows` of the band's first and last row. */
  bandRows(band: number): { first: number; last: number } {
    const first = band * this.group;
    return { first, last: Math.min(this.rows.length, first + this.group) - 1 };
  }

  /** Bands meeting content range [top, bottom): first and one past the last. */
  bandsIn(top: number, bottom: number): { first: number; end: number } {
    const first = Math.max(0, Math.floor(top / this.bandHeight));
    const end = Math.min(this.bands, Math.ceil(bottom / this.bandHeight));
    return { first, end: Math.max(first, end) };
  }

  /** The thread rows of bands [first, end). */
  rowsOfBands(first: number, end: number): number[] {
    return this.rows.slice(first * this.group, Math.min(this.rows.length, end * this.group));
  }

  /** The band showing thread row `row`, or -1. */
  bandOfRow(row: number): number {
    if (!this.positions) this.positions = new Map(this.rows.map((r, i) => [r, i]));
    const i = this.positions.get(row);
    return i === undefined ? -1 : Math.floor(i / this.group);
  }
}

/** One /rowmap request: a time tile of ROWMAP_TILE_PX columns over a block of bands. */
export interface RowmapRequest {
  from: number;
  to: number;
  width: number;
  group: number;
  /** first band and how many (the block's) */
  band: number;
  bands: number;
  /** the thread rows of those bands, top to bottom */
  rows: number[];
  /** tells apart requests of other row lists with the same shape (folded groups) */
  tag?: string;
  /** ask for the bands' stats too (compact_stats.ts): the answers of a layout are all with or all without */
  stats?: boolean;
}

export function rowmapKey(r: Pick<RowmapRequest, 'from' | 'to' | 'width' | 'group' | 'band' | 'bands' | 'tag'>): string {
  return `${r.tag ?? ''}|${r.from}|${r.to}|${r.width}|${r.group}|${r.band}|${r.bands}`;
}

/** The time tiling of a view: ns per tile pixel (a power of two, at most the screen's) and ns per tile. */
export function rowmapTiling(view: { from: number; to: number }, plotWidth: number): { res: number; span: number } {
  const res = tileResolution(view.to - view.from, plotWidth);
  return { res, span: res * ROWMAP_TILE_PX };
}

/**
 * The requests covering `view` (trace time) and content range [top, bottom):
 * the aligned time tiles within the trace, times the aligned band blocks on
 * screen. Aligned, so that panning, scrolling and zooming back reuse them.
 * `stats` asks for the bands' statistics too.
 */
export function planRowmaps(
  layout: CompactLayout,
  view: { from: number; to: number },
  plotWidth: number,
  duration: number,
  top: number,
  bottom: number,
  stats = false,
): RowmapRequest[] {
  const { span } = rowmapTiling(view, plotWidth);
  const { first, end } = layout.bandsIn(top, bottom);
  const out: RowmapRequest[] = [];
  // The part of the trace on screen.
  const lo = Math.max(0, view.from);
  const hi = Math.min(Math.max(duration, 1), view.to);
  if (end <= first || hi <= lo) return out;
  const t0 = Math.floor(lo / span);
  const t1 = Math.ceil(hi / span);
  const block = layout.bandBlock;
  const b0 = Math.floor(first / block);
  const b1 = Math.ceil(end / block);
  for (let b = b0; b < b1; b++) {
    const band = b * block;
    const bands = Math.min(block, layout.bands - band);
    const rows = layout.rowsOfBands(band, band + bands);
    for (let t = t0; t < t1; t++) {
      const r: RowmapRequest = { from: t * span, to: (t + 1) * span, width: ROWMAP_TILE_PX, group: layout.group, band, bands, rows };
      out.push(stats ? { ...r, stats } : r);
    }
  }
  return out;
}
