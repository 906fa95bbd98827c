// Decodes a row map, the answer of /rowmap (docs/api-reference.md, "Binary
// records"): per band of rows and pixel column, the dominant state. Checks
// the header (binary_answer.ts), then takes the cells as typed-array columns
// (decoder generated from spec/api.toml): the compact timeline reads a
// million of them per frame.
import {
  ROWMAPCELL_SIZE,
  ROWMAPHEADER_SIZE,
  decodeRowmapCells,
  readRowmapHeader,
  type RowmapCells,
  type RowmapHeader,
} from '../protocol/api.gen';
import { checkedHeader, checkLength } from './binary_answer';

export type { RowmapCells, RowmapHeader };

/** 'PXLR' read as bytes. */
export const ROWMAP_MAGIC = 0x524c5850;
/** A cell's state when no row of its band has a slice there. */
export const NO_STATE = 0xffffffff;

export interface Rowmap {
  header: RowmapHeader;
  /** bands × width cells, band by band: cell b * width + x */
  cells: RowmapCells;
  /** bytes of the encoded answer */
  bytes: number;
}

export function decodeRowmap(buffer: ArrayBuffer): Rowmap {
  const { view, header } = checkedHeader('rowmap', buffer, ROWMAPHEADER_SIZE, ROWMAP_MAGIC, readRowmapHeader);
  const count = header.bands * header.width;
  checkLength('rowmap', buffer, ROWMAPHEADER_SIZE + count * ROWMAPCELL_SIZE);
  return { header, cells: decodeRowmapCells(view, ROWMAPHEADER_SIZE, count), bytes: buffer.byteLength };
}
