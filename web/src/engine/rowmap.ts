// Decodes a row map, the answer of /rowmap (docs/api-reference.md, "Binary
// records"): per band of rows and pixel column, the dominant state. Checks
// the header as tile.ts does, then takes the cells as typed-array columns
// (decoder generated from spec/api.toml): the compact timeline reads a
// million of them per frame.
import {
  API_VERSION,
  ROWMAPCELL_SIZE,
  ROWMAPHEADER_SIZE,
  decodeRowmapCells,
  readRowmapHeader,
  type RowmapCells,
  type RowmapHeader,
} from '../protocol/api.gen';

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
  if (buffer.byteLength < ROWMAPHEADER_SIZE) {
    throw new Error(`rowmap: ${buffer.byteLength} bytes, shorter than its header`);
  }
  const view = new DataView(buffer);
  const header = readRowmapHeader(view, 0);
  if (header.magic !== ROWMAP_MAGIC) {
    throw new Error(`rowmap: bad magic 0x${header.magic.toString(16)}`);
  }
  if (header.version !== API_VERSION) {
    throw new Error(`rowmap: version ${header.version}, this viewer reads ${API_VERSION}`);
  }
  const count = header.bands * header.width;
  const need = ROWMAPHEADER_SIZE + count * ROWMAPCELL_SIZE;
  if (buffer.byteLength < need) {
    throw new Error(`rowmap: ${buffer.byteLength} bytes, its header announces ${need}`);
  }
  return { header, cells: decodeRowmapCells(view, ROWMAPHEADER_SIZE, count), bytes: buffer.byteLength };
}
