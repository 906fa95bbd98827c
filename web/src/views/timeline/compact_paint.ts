// Painting the compact timeline: the /rowmap cells of the bands on screen as
// pixels (one cell = one pixel column × the band's height, in the state's
// colour), sparse labels in the label column, and the words for the cell
// under the pointer. compose() runs over every pixel of the plot each frame
// (1.4 M at 1600 × 1000), so it works on typed arrays: a line of packed
// colours per band, copied to the band's pixel rows. A frame may draw a
// band statistic instead of the dominant state (compact_stats.ts): the
// state's colour, paler the smaller the statistic.
import { parseHex } from '../../base/color';
import { NO_STATE } from '../../engine/rowmap';
import type { TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { ROWMAP_TILE_PX, rowmapKey, type CompactLayout } from './compact';
import { LABEL_WIDTH, RULER_HEIGHT } from './geometry';
import { fitText, LABEL_FONT } from './paint';
import { cellStats, describeStats, shade, statColumn, type BandStat, type CellStats, type StatRowmap } from './compact_stats';

/** Packed RGBA (little-endian, as ImageData's bytes read as a Uint32Array) of `color`, opaque. */
export function packColor(color: string): number {
  const rgb = parseHex(color) ?? [153, 153, 153];
  return ((255 << 24) | (rgb[2] << 16) | (rgb[1] << 8) | rgb[0]) >>> 0;
}
export const BACKGROUND = packColor('#ffffff');
/** Not loaded yet: left transparent so the previous image shows through. */
export const MISSING = 0;
/** Labels at least this many px apart. */
export const LABEL_GAP = 12;

/** What one frame of the compact plot is drawn from. */
export interface CompactFrame {
  layout: CompactLayout;
  window: { from: number; to: number };
  /** pixel columns and rows of the plot (rows area below the ruler) */
  width: number;
  height: number;
  /** content y at the top of the rows area */
  scrollTop: number;
  duration: number;
  /** ns per tile pixel and per tile (rowmapTiling) */
  res: number;
  span: number;
  tile(key: string): StatRowmap | undefined;
  /** packed colour per state; hidden states are BACKGROUND */
  colors: Uint32Array;
  /** what a band shows (default the dominant state); tiles without stats show the dominant state */
  stat?: BandStat;
  /** the tag of its requests (RowmapRequest.tag) */
  tag?: string;
}

/** The tile and cell index under plot column `x` (time at its middle) in `band`; null outside the trace. */
function cellRef(f: CompactFrame, x: number, band: number): { key: string; cell: number } | null {
  const t = f.window.from + ((x + 0.5) * (f.window.to - f.window.from)) / f.width;
  if (!(t >= 0 && t < f.duration) || band < 0 || band >= f.layout.bands) return null;
  const ti = Math.floor(t / f.span);
  const px = Math.min(ROWMAP_TILE_PX - 1, Math.floor((t - ti * f.span) / f.res));
  const block = Math.floor(band / f.layout.bandBlock) * f.layout.bandBlock;
  const bands = Math.min(f.layout.bandBlock, f.layout.bands - block);
  const key = rowmapKey({ from: ti * f.span, to: (ti + 1) * f.span, width: ROWMAP_TILE_PX, group: f.layout.group, band: block, bands, tag: f.tag });
  return { key, cell: (band - block) * ROWMAP_TILE_PX + px };
}

/**
 * Calls `line(y0, y1, colors)` for each band on screen: plot rows [y0, y1)
 * and a packed colour per column (MISSING where its tile has not come).
 * Returns whether every tile needed was there.
 */
export function compose(f: CompactFrame, line: (y0: number, y1: number, colors: Uint32Array) => void): boolean {
  const w = f.width;
  const { first, end } = f.layout.bandsIn(f.scrollTop, f.scrollTop + f.height);
  // Per column, its cell in the tile's first band; the columns in runs of one tile (segStart..segEnd, the
  // tile's states or null), so the per-pixel loop only reads and maps a state.
  const colCell = new Int32Array(w);
  const segStart: number[] = [];
  const segEnd: number[] = [];
  const segStates: Array<Uint32Array | null | undefined> = [];
  // Per segment, the statistic drawn (null: the dominant state's colour).
  const segValues: Array<Uint16Array | null> = [];
  const stat = f.stat ?? 'dominant';
  const colors = f.colors;
  const nColors = colors.length;
  const other = packColor('#999999');
  let complete = true;
  const out = new Uint32Array(w);
  let blockStart = -1;
  for (let b = first; b < end; b++) {
    const block = Math.floor(b / f.layout.bandBlock) * f.layout.bandBlock;
    if (block !== blockStart) {
      // A new block of bands: other tiles, the same columns.
      blockStart = block;
      segStart.length = segEnd.length = segStates.length = segValues.length = 0;
      let lastTile = -2;
      for (let x = 0; x < w; x++) {
        // As cellRef(), with the key made only where the tile changes.
        const t = f.window.from + ((x + 0.5) * (f.window.to - f.window.from)) / w;
        const ti = t >= 0 && t < f.duration ? Math.floor(t / f.span) : -1;
        if (ti !== lastTile) {
          if (x > 0) segEnd.push(x);
          segStart.push(x);
          // null: outside the trace; undefined: not come yet.
          const tile = ti < 0 ? null : f.tile(cellRef(f, x, block)!.key);
          segStates.push(tile === null ? null : tile ? tile.cells.state : undefined);
          segValues.push(tile?.stats ? statColumn(tile.stats, stat) : null);
          if (tile === undefined) complete = false;
          lastTile = ti;
        }
        colCell[x] = ti < 0 ? 0 : Math.min(ROWMAP_TILE_PX - 1, Math.floor((t - ti * f.span) / f.res));
      }
      segEnd.push(w);
    }
    const offset = (b - block) * ROWMAP_TILE_PX;
    for (let s = 0; s < segStart.length; s++) {
      const x0 = segStart[s]!;
      const x1 = segEnd[s]!;
      const states = segStates[s];
      if (!states) {
        out.fill(states === null ? BACKGROUND : MISSING, x0, x1);
        continue;
      }
      const values = segValues[s];
      for (let x = x0; x < x1; x++) {
        const i = colCell[x]! + offset;
        const st = states[i]!;
        const c = st < nColors ? colors[st]! : st === NO_STATE ? BACKGROUND : other;
        out[x] = values && c !== BACKGROUND ? shade(c, values[i]!) : c;
      }
    }
    const top = f.layout.bandTop(b) - f.scrollTop;
    const y0 = Math.max(0, Math.floor(top));
    const y1 = Math.min(f.height, Math.floor(top + f.layout.bandHeight));
    if (y1 > y0) line(y0, y1, out);
  }
  return complete;
}

/** Composes the frame into `pixels` (width × height packed colours, cleared to BACKGROUND first). */
export function composeImage(f: CompactFrame, pixels: Uint32Array): boolean {
  pixels.fill(BACKGROUND);
  return compose(f, (y0, y1, colors) => {
    pixels.set(colors, y0 * f.width);
    for (let y = y0 + 1; y < y1; y++) pixels.copyWithin(y * f.width, y0 * f.width, (y0 + 1) * f.width);
  });
}

/** Paints the frame with rectangles, one per run of a colour (exports: SVG, PNG at another size). */
export function paintRuns(p: Painter, f: CompactFrame, left: number, top: number, hex: (packed: number) => string): void {
  compose(f, (y0, y1, colors) => {
    for (let x = 0; x < colors.length; ) {
      const c = colors[x]!;
      let e = x + 1;
      while (e < colors.length && colors[e] === c) e++;
      if (c !== BACKGROUND && c !== MISSING) p.fillRect(left + x, top + y0, e - x, y1 - y0, hex(c));
      x = e;
    }
  });
}

/** The name of thread row `row` in labels: its process, and the thread's name when the process has several. */
export function rowName(summary: Pick<TraceSummary, 'processes' | 'threads'>, row: number): string {
  const t = summary.threads[row];
  if (!t) return `row ${row}`;
  const p = summary.processes[t.process];
  if (!p) return t.name;
  return p.threads.length > 1 ? `${p.name} ${t.name}` : p.name;
}

/** Labels of the bands on screen, one wherever LABEL_GAP px have passed since the last: the band's first row. */
export function paintCompactLabels(
  p: Painter,
  layout: CompactLayout,
  summary: Pick<TraceSummary, 'processes' | 'threads'>,
  scrollTop: number,
  height: number,
  labelWidth = LABEL_WIDTH,
): void {
  p.save();
  p.clip(0, RULER_HEIGHT, labelWidth, height - RULER_HEIGHT);
  p.fillRect(0, RULER_HEIGHT, labelWidth - 1, height - RULER_HEIGHT, '#f7f8fa');
  const { first, end } = layout.bandsIn(scrollTop, scrollTop + height - RULER_HEIGHT);
  let last = -Infinity;
  for (let b = first; b < end; b++) {
    const y = RULER_HEIGHT + layout.bandTop(b) - scrollTop;
    if (y - last < LABEL_GAP || y < RULER_HEIGHT) continue;
    last = y;
    const name = rowName(summary, layout.rows[layout.bandRows(b).first]!);
    const full = p.measureText(name, LABEL_FONT);
    // A tick at the band's top says which band the label names.
    p.fillRect(labelWidth - 6, y, 5, 1, '#888888');
    p.text(6, y + 6, fitText(name, full, labelWidth - 16), { color: '#333333', font: LABEL_FONT, baseline: 'middle' });
  }
  p.restore();
}

/** What one cell holds: its dominant state, how many rows are in it and busy, and its stats when asked. */
export interface CellInfo {
  state: number;
  rows: number;
  busy: number;
  stats?: CellStats;
}

/** What the cell at plot column `x` of `band` holds; null outside the trace or before its tile came. */
export function cellAt(f: CompactFrame, x: number, band: number): CellInfo | null {
  const ref = cellRef(f, x, band);
  const tile = ref && f.tile(ref.key);
  if (!ref || !tile) return null;
  const c = tile.cells;
  const cell: CellInfo = { state: c.state[ref.cell]!, rows: c.rows[ref.cell]!, busy: c.busy[ref.cell]! };
  if (tile.stats) cell.stats = cellStats(tile.stats, ref.cell);
  return cell;
}

/**
 * Words for a band and its cell: "rank 0 – rank 16 (17 rows): 12 of 17 rows
 * in MPI_Wait, 15 busy", and with its stats "; min 0% (rank 7) · median 45%
 * · max 100% (rank 3)" (the shares of the rows' time in that state).
 */
export function describeCell(
  summary: Pick<TraceSummary, 'processes' | 'threads' | 'states'>,
  layout: CompactLayout,
  band: number,
  cell: CellInfo | null,
): string {
  const { first, last } = layout.bandRows(band);
  const n = last - first + 1;
  const a = rowName(summary, layout.rows[first]!);
  const who = n === 1 ? a : `${a} – ${rowName(summary, layout.rows[last]!)} (${n} rows)`;
  if (!cell) return `${who}: loading`;
  if (cell.state === NO_STATE) return `${who}: no slice`;
  const name = summary.states[cell.state]?.name ?? `state ${cell.state}`;
  if (n === 1) return `${who}: ${name}`;
  const words = `${who}: ${cell.rows} of ${n} rows in ${name}, ${cell.busy} busy`;
  return cell.stats ? `${words}; ${describeStats(cell.stats, (r) => rowName(summary, r))}` : words;
}
