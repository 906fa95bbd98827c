// Builds binary tiles the way the server does (for tests).
import {
  API_VERSION,
  TILEARROW_SIZE,
  TILECOUNTERPOINT_SIZE,
  TILEHEADER_SIZE,
  TILEINSTANT_SIZE,
  TILESLICE_SIZE,
  writeTileHeader,
  writeTileArrow,
  writeTileCounterPoint,
  writeTileInstant,
  writeTileSlice,
  type TileArrow,
  type TileCounterPoint,
  type TileInstant,
  type TileSlice,
} from '../protocol/api.gen';
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
  writeTileHeader(v, 0, {
    magic: TILE_MAGIC,
    version: API_VERSION,
    from: t.from,
    to: t.to,
    width: t.width,
    slices: slices.length,
    instants: instants.length,
    arrows: arrows.length,
    points: points.length,
    reserved: 0,
  });
  let o = TILEHEADER_SIZE;
  for (const s of slices) {
    writeTileSlice(v, o, s);
    o += TILESLICE_SIZE;
  }
  for (const s of instants) {
    writeTileInstant(v, o, s);
    o += TILEINSTANT_SIZE;
  }
  for (const a of arrows) {
    writeTileArrow(v, o, a);
    o += TILEARROW_SIZE;
  }
  for (const p of points) {
    writeTileCounterPoint(v, o, p);
    o += TILECOUNTERPOINT_SIZE;
  }
  return buf;
}
