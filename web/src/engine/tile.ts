// Decodes a binary tile (docs/api-reference.md, "Binary records") into
// columns of typed arrays: the timeline loops over thousands of records per
// frame, and typed arrays keep that fast and compact.
import {
  API_VERSION,
  TILEARROW_SIZE,
  TILECOUNTERPOINT_SIZE,
  TILEHEADER_SIZE,
  TILEINSTANT_SIZE,
  TILESLICE_SIZE,
  readTileArrow,
  readTileCounterPoint,
  readTileHeader,
  readTileInstant,
  readTileSlice,
  type TileHeader,
} from '../protocol/api.gen';

export const TILE_MAGIC = 0x544c5850;
export const FLAG_MERGED = 1;
export const FLAG_UNCLOSED = 2;

export interface TileSlices {
  count: number;
  begin: Float64Array;
  end: Float64Array;
  row: Uint32Array;
  state: Uint32Array;
  /** slice id; merged: how many */
  ref: Uint32Array;
  depth: Uint16Array;
  flags: Uint16Array;
}

export interface TileInstants {
  count: number;
  time: Float64Array;
  row: Uint32Array;
  type: Uint32Array;
  ref: Uint32Array;
  flags: Uint32Array;
}

export interface TileArrows {
  count: number;
  send: Float64Array;
  recv: Float64Array;
  fromRow: Uint32Array;
  toRow: Uint32Array;
  ref: Uint32Array;
  flags: Uint32Array;
}

export interface TilePoints {
  count: number;
  time: Float64Array;
  min: Float64Array;
  max: Float64Array;
  last: Float64Array;
  track: Uint32Array;
  samples: Uint32Array;
}

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
  if (buffer.byteLength < TILEHEADER_SIZE) {
    throw new Error(`tile: ${buffer.byteLength} bytes, shorter than its header`);
  }
  const view = new DataView(buffer);
  const header = readTileHeader(view, 0);
  if (header.magic !== TILE_MAGIC) {
    throw new Error(`tile: bad magic 0x${header.magic.toString(16)}`);
  }
  if (header.version !== API_VERSION) {
    throw new Error(`tile: version ${header.version}, this viewer reads ${API_VERSION}`);
  }
  const need =
    TILEHEADER_SIZE +
    header.slices * TILESLICE_SIZE +
    header.instants * TILEINSTANT_SIZE +
    header.arrows * TILEARROW_SIZE +
    header.points * TILECOUNTERPOINT_SIZE;
  if (buffer.byteLength < need) {
    throw new Error(`tile: ${buffer.byteLength} bytes, its header announces ${need}`);
  }
  let off = TILEHEADER_SIZE;

  const ns = header.slices;
  const slices: TileSlices = {
    count: ns,
    begin: new Float64Array(ns),
    end: new Float64Array(ns),
    row: new Uint32Array(ns),
    state: new Uint32Array(ns),
    ref: new Uint32Array(ns),
    depth: new Uint16Array(ns),
    flags: new Uint16Array(ns),
  };
  for (let i = 0; i < ns; i++, off += TILESLICE_SIZE) {
    const r = readTileSlice(view, off);
    slices.begin[i] = r.begin;
    slices.end[i] = r.end;
    slices.row[i] = r.row;
    slices.state[i] = r.state;
    slices.ref[i] = r.ref;
    slices.depth[i] = r.depth;
    slices.flags[i] = r.flags;
  }

  const ni = header.instants;
  const instants: TileInstants = {
    count: ni,
    time: new Float64Array(ni),
    row: new Uint32Array(ni),
    type: new Uint32Array(ni),
    ref: new Uint32Array(ni),
    flags: new Uint32Array(ni),
  };
  for (let i = 0; i < ni; i++, off += TILEINSTANT_SIZE) {
    const r = readTileInstant(view, off);
    instants.time[i] = r.time;
    instants.row[i] = r.row;
    instants.type[i] = r.type;
    instants.ref[i] = r.ref;
    instants.flags[i] = r.flags;
  }

  const na = header.arrows;
  const arrows: TileArrows = {
    count: na,
    send: new Float64Array(na),
    recv: new Float64Array(na),
    fromRow: new Uint32Array(na),
    toRow: new Uint32Array(na),
    ref: new Uint32Array(na),
    flags: new Uint32Array(na),
  };
  for (let i = 0; i < na; i++, off += TILEARROW_SIZE) {
    const r = readTileArrow(view, off);
    arrows.send[i] = r.send;
    arrows.recv[i] = r.recv;
    arrows.fromRow[i] = r.from_row;
    arrows.toRow[i] = r.to_row;
    arrows.ref[i] = r.ref;
    arrows.flags[i] = r.flags;
  }

  const np = header.points;
  const points: TilePoints = {
    count: np,
    time: new Float64Array(np),
    min: new Float64Array(np),
    max: new Float64Array(np),
    last: new Float64Array(np),
    track: new Uint32Array(np),
    samples: new Uint32Array(np),
  };
  for (let i = 0; i < np; i++, off += TILECOUNTERPOINT_SIZE) {
    const r = readTileCounterPoint(view, off);
    points.time[i] = r.time;
    points.min[i] = r.min;
    points.max[i] = r.max;
    points.last[i] = r.last;
    points.track[i] = r.track;
    points.samples[i] = r.count;
  }

  return { header, slices, instants, arrows, points, bytes: buffer.byteLength };
}

/** An empty tile (before the first answer). */
export function emptyTile(from = 0, to = 1, width = 1): Tile {
  const buf = new ArrayBuffer(TILEHEADER_SIZE);
  const v = new DataView(buf);
  v.setUint32(0, TILE_MAGIC, true);
  v.setUint32(4, API_VERSION, true);
  v.setFloat64(8, from, true);
  v.setFloat64(16, to, true);
  v.setUint32(24, width, true);
  return decodeTile(buf);
}
