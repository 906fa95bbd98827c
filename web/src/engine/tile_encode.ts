// Builds binary tiles the way the server does (for tests).
import { API_VERSION, TILEARROW_SIZE, TILECOUNTERPOINT_SIZE, TILEHEADER_SIZE, TILEINSTANT_SIZE, TILESLICE_SIZE } from '../protocol/api.gen';
import type { TileArrow, TileCounterPoint, TileInstant, TileSlice } from '../protocol/api.gen';
import { TILE_MAGIC } from './tile';

export interface TileContent {
  from: number;
  to: number;
  width: number;
  slices?: TileSlice[];
  instants?: TileInstant[];
  arrows?: TileArrow[];
  points?: TileCounterPoint[];
}

export function encodeTile(t: TileContent): ArrayBuffer {
  const slices = t.slices ?? [];
  const instants = t.instants ?? [];
  const arrows = t.arrows ?? [];
  const points = t.points ?? [];
  const size =
    TILEHEADER_SIZE +
    slices.length * TILESLICE_SIZE +
    instants.length * TILEINSTANT_SIZE +
    arrows.length * TILEARROW_SIZE +
    points.length * TILECOUNTERPOINT_SIZE;
  const buf = new ArrayBuffer(size);
  const v = new DataView(buf);
  v.setUint32(0, TILE_MAGIC, true);
  v.setUint32(4, API_VERSION, true);
  v.setFloat64(8, t.from, true);
  v.setFloat64(16, t.to, true);
  v.setUint32(24, t.width, true);
  v.setUint32(28, slices.length, true);
  v.setUint32(32, instants.length, true);
  v.setUint32(36, arrows.length, true);
  v.setUint32(40, points.length, true);
  v.setUint32(44, 0, true);
  let o = TILEHEADER_SIZE;
  for (const s of slices) {
    v.setFloat64(o, s.begin, true);
    v.setFloat64(o + 8, s.end, true);
    v.setUint32(o + 16, s.row, true);
    v.setUint32(o + 20, s.state, true);
    v.setUint32(o + 24, s.ref, true);
    v.setUint16(o + 28, s.depth, true);
    v.setUint16(o + 30, s.flags, true);
    o += TILESLICE_SIZE;
  }
  for (const s of instants) {
    v.setFloat64(o, s.time, true);
    v.setUint32(o + 8, s.row, true);
    v.setUint32(o + 12, s.type, true);
    v.setUint32(o + 16, s.ref, true);
    v.setUint32(o + 20, s.flags, true);
    o += TILEINSTANT_SIZE;
  }
  for (const a of arrows) {
    v.setFloat64(o, a.send, true);
    v.setFloat64(o + 8, a.recv, true);
    v.setUint32(o + 16, a.from_row, true);
    v.setUint32(o + 20, a.to_row, true);
    v.setUint32(o + 24, a.ref, true);
    v.setUint32(o + 28, a.flags, true);
    o += TILEARROW_SIZE;
  }
  for (const p of points) {
    v.setFloat64(o, p.time, true);
    v.setFloat64(o + 8, p.min, true);
    v.setFloat64(o + 16, p.max, true);
    v.setFloat64(o + 24, p.last, true);
    v.setUint32(o + 32, p.track, true);
    v.setUint32(o + 36, p.count, true);
    o += TILECOUNTERPOINT_SIZE;
  }
  return buf;
}
