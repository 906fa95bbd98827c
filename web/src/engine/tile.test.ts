import { describe, expect, it } from 'vitest';
import { TILEHEADER_SIZE } from '../protocol/api.gen';
import { decodeTile, FLAG_MERGED, TILE_MAGIC } from './tile';
import { encodeTile } from './tile_encode';

describe('decodeTile', () => {
  it('decodes a hand-built tile byte by byte', () => {
    // Header + one slice, built with DataView directly (not with encodeTile).
    const buf = new ArrayBuffer(TILEHEADER_SIZE + 32);
    const v = new DataView(buf);
    v.setUint32(0, TILE_MAGIC, true);
    v.setUint32(4, 1, true);
    v.setFloat64(8, 100, true);
    v.setFloat64(16, 900, true);
    v.setUint32(24, 800, true);
    v.setUint32(28, 1, true);
    v.setFloat64(48, 150.5, true);
    v.setFloat64(56, 300, true);
    v.setUint32(64, 7, true);
    v.setUint32(68, 3, true);
    v.setUint32(72, 4242, true);
    v.setUint16(76, 2, true);
    v.setUint16(78, 1, true);
    // The magic reads as 'PXLT' in bytes.
    expect(String.fromCharCode(...new Uint8Array(buf, 0, 4))).toBe('PXLT');
    const t = decodeTile(buf);
    expect(t.header).toMatchObject({ from: 100, to: 900, width: 800, slices: 1, instants: 0 });
    expect(t.slices.count).toBe(1);
    expect(t.slices.begin[0]).toBe(150.5);
    expect(t.slices.end[0]).toBe(300);
    expect(t.slices.row[0]).toBe(7);
    expect(t.slices.state[0]).toBe(3);
    expect(t.slices.ref[0]).toBe(4242);
    expect(t.slices.depth[0]).toBe(2);
    expect(t.slices.flags[0]! & FLAG_MERGED).toBe(1);
  });

  it('decodes every record kind in order', () => {
    const buf = encodeTile({
      from: 0,
      to: 1000,
      width: 100,
      slices: [
        { begin: 0, end: 10, row: 0, state: 1, ref: 5, depth: 0, flags: 0 },
        { begin: 20, end: 30, row: 1, state: 2, ref: 6, depth: 1, flags: 2 },
      ],
      instants: [{ time: 42, row: 1, type: 3, ref: 9, flags: 0 }],
      arrows: [{ send: 5, recv: 50, from_row: 0, to_row: 1, ref: 77, flags: 1 }],
      points: [{ time: 1, min: -1, max: 2, last: 1.5, track: 4, count: 3 }],
    });
    const t = decodeTile(buf);
    expect(t.slices.count).toBe(2);
    expect(t.slices.flags[1]).toBe(2);
    expect(t.instants.time[0]).toBe(42);
    expect(t.instants.type[0]).toBe(3);
    expect(t.arrows.send[0]).toBe(5);
    expect(t.arrows.recv[0]).toBe(50);
    expect(t.arrows.toRow[0]).toBe(1);
    expect(t.arrows.ref[0]).toBe(77);
    expect(t.points.min[0]).toBe(-1);
    expect(t.points.last[0]).toBe(1.5);
    expect(t.points.track[0]).toBe(4);
    expect(t.points.samples[0]).toBe(3);
    expect(t.bytes).toBe(buf.byteLength);
  });

  it('rejects a bad magic, a short buffer and a truncated body', () => {
    expect(() => decodeTile(new ArrayBuffer(10))).toThrow(/shorter than its header/);
    const bad = encodeTile({ from: 0, to: 1, width: 1 });
    new DataView(bad).setUint32(0, 0x12345678, true);
    expect(() => decodeTile(bad)).toThrow(/magic/);
    const full = encodeTile({ from: 0, to: 1, width: 1, slices: [{ begin: 0, end: 1, row: 0, state: 0, ref: 0, depth: 0, flags: 0 }] });
    expect(() => decodeTile(full.slice(0, full.byteLength - 1))).toThrow(/announces/);
    const v2 = encodeTile({ from: 0, to: 1, width: 1 });
    new DataView(v2).setUint32(4, 2, true);
    expect(() => decodeTile(v2)).toThrow(/version/);
  });
});
