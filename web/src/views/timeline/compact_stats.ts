// The spread behind an aggregated band of the compact timeline: /rowmap with
// stats=1 adds, per cell, how much of the pixel column's time each of the
// band's rows spends in the cell's dominant state (a share, 0..65535 for
// 0..1) and its min, lower median and max with the rows of the min and max
// (RowmapStat, docs/api-reference.md). The compact mode draws either the
// dominant state (as before) or one of those statistics: the state's colour,
// paler the smaller the share, so one pixel row still says it (a 1 px band
// has no room for sub-strips); the hover text of an aggregated cell gives
// all three with the rows that hold the extremes.
import {
  decodeRowmapCells,
  decodeRowmapStats,
  readRowmapHeader,
  ROWMAPCELL_SIZE,
  ROWMAPHEADER_SIZE,
  ROWMAPSTAT_SIZE,
  type RowmapStats,
} from '../../protocol/api.gen';
import { checkedHeader, checkLength } from '../../engine/binary_answer';
import { ROWMAP_MAGIC, type Rowmap } from '../../engine/rowmap';

export type { RowmapStats };

/** What a band shows: its dominant state, or the min, median or max share of its rows in that state. */
export type BandStat = 'dominant' | 'min' | 'median' | 'max';
export const BAND_STATS: readonly BandStat[] = ['dominant', 'min', 'median', 'max'];

/** `text` as a band statistic; null when it is none. */
export function parseBandStat(text: string | null): BandStat | null {
  return BAND_STATS.includes(text as BandStat) ? (text as BandStat) : null;
}

/** A share's scale: RowmapStat values are 65535ths. */
export const SHARE_SCALE = 65535;
/** The palest a band is drawn (share 0): this much of its state's colour over white. */
export const MIN_TINT = 0.15;

/** A row map, and its stats when it was asked with stats=1. */
export type StatRowmap = Rowmap & { stats?: RowmapStats | null };

/** Decodes a /rowmap answer with or without its RowmapStat records (told apart by its length). */
export function decodeRowmapAnswer(buffer: ArrayBuffer): StatRowmap {
  const { view, header } = checkedHeader('rowmap', buffer, ROWMAPHEADER_SIZE, ROWMAP_MAGIC, readRowmapHeader);
  const count = header.bands * header.width;
  const cellsEnd = ROWMAPHEADER_SIZE + count * ROWMAPCELL_SIZE;
  checkLength('rowmap', buffer, cellsEnd);
  const cells = decodeRowmapCells(view, ROWMAPHEADER_SIZE, count);
  if (buffer.byteLength === cellsEnd) return { header, cells, bytes: buffer.byteLength, stats: null };
  checkLength('rowmap', buffer, cellsEnd + count * ROWMAPSTAT_SIZE);
  return { header, cells, bytes: buffer.byteLength, stats: decodeRowmapStats(view, cellsEnd, count) };
}

/** Packed colour (as packColor) `color` shaded by share `value` (0..SHARE_SCALE): over white, from MIN_TINT to opaque. */
export function shade(color: number, value: number): number {
  const a = MIN_TINT + ((1 - MIN_TINT) * Math.min(SHARE_SCALE, Math.max(0, value))) / SHARE_SCALE;
  const mix = (shift: number): number => Math.round(255 - (255 - ((color >>> shift) & 255)) * a);
  return ((255 << 24) | (mix(16) << 16) | (mix(8) << 8) | mix(0)) >>> 0;
}

/** The column of `stats` a band statistic reads; null for the dominant state. */
export function statColumn(stats: RowmapStats, stat: BandStat): Uint16Array | null {
  return stat === 'dominant' ? null : stats[stat];
}

/** A share as a percentage: "45%", one decimal below 10 ("2.5%", "0%"). */
export function formatShare(value: number): string {
  const pct = (value * 100) / SHARE_SCALE;
  const text = pct < 10 && pct > 0 ? pct.toFixed(1).replace(/\.0$/, '') : String(Math.round(pct));
  return `${text}%`;
}

/** One cell's statistics, as cellAt() reads them. */
export interface CellStats {
  min: number;
  median: number;
  max: number;
  minRow: number;
  maxRow: number;
}

/** The stats of cell `i` of `stats`. */
export function cellStats(stats: RowmapStats, i: number): CellStats {
  return { min: stats.min[i]!, median: stats.median[i]!, max: stats.max[i]!, minRow: stats.minRow[i]!, maxRow: stats.maxRow[i]! };
}

/** "min 0% (rank 7) · median 45% · max 100% (rank 3)"; `name` names a thread row. */
export function describeStats(s: CellStats, name: (row: number) => string): string {
  const [min, median, max] = [s.min, s.median, s.max].map(formatShare);
  return `min ${min} (${name(s.minRow)}) · median ${median} · max ${max} (${name(s.maxRow)})`;
}
