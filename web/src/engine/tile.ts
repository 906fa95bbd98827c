// Decodes a binary tile (docs/api-reference.md, "Binary records") into
// columns of typed arrays: checks the header, then composes the column
// decoders generated from spec/api.toml (protocol/api_columns.gen.ts).
import {
  API_VERSION,
  TILEARROW_SIZE,
  TILECOUNTERPOINT_SIZE,
  TILEHEADER_SIZE,
  TILEINSTANT_SIZE,
  TILESLICE_SIZE,
  decodeTileArrows,
  decodeTileInstants,
  decodeTilePoints,
  decodeTileSlices,
  readTileHeader,
  writeTileHeader,
  type TileArrows,
  type TileHeader,
  type TileInstants,
  type TilePoints,
  type TileSlices,
} from '../protocol/api.gen';
import { checkedHeader, checkLength } from './binary_answer';

// The columns are generated from spec/api.toml (api_columns.gen.ts).
export type { TileArrows, TileInstants, TilePoints, TileSlices };

export const TILE_MAGIC = 0x544c5850;
export const FLAG_MERGED = 1;
export const FLAG_UNCLOSED = 2;

export interface Tile {
  header: TileHeader;
  slices: TileSlices;
  instants: TileInstants;
  arrows: TileArrows;
  points: TilePoints;
  /** bytes of the encoded tile */
  bytes: number;
}

export function decodeTile(buffer: ArrayBuffer): Tile {
  const { view, header } = checkedHeader('tile', buffer, TILEHEADER_SIZE, TILE_MAGIC, readTileHeader);
  const need =
    TILEHEADER_SIZE +
    header.slices * TILESLICE_SIZE +
    header.instants * TILEINSTANT_SIZE +
    header.arrows * TILEARROW_SIZE +
    header.points * TILECOUNTERPOINT_SIZE;
  checkLength('tile', buffer, need);
  let off = TILEHEADER_SIZE;
  const slices = decodeTileSlices(view, off, header.slices);
  off += header.slices * TILESLICE_SIZE;
  const instants = decodeTileInstants(view, off, header.instants);
  off += header.instants * TILEINSTANT_SIZE;
  const arrows = decodeTileArrows(view, off, header.arrows);
  off += header.arrows * TILEARROW_SIZE;
  const points = decodeTilePoints(view, off, header.points);
  return { header, slices, instants, arrows, points, bytes: buffer.byteLength };
}

/** An empty tile (before the first answer). */
export function emptyTile(from = 0, to = 1, width = 1): Tile {
  const buf = new ArrayBuffer(TILEHEADER_SIZE);
  const counts = { slices: 0, instants: 0, arrows: 0, points: 0, reserved: 0 };
  const header = { magic: TILE_MAGIC, version: API_VERSION, from, to, width, ...counts };
  writeTileHeader(new DataView(buf), 0, header);
  return decodeTile(buf);
}
