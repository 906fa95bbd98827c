import { describe, expect, it } from 'vitest';
import { API_VERSION, ROWMAPCELL_SIZE, ROWMAPHEADER_SIZE, writeRowmapCell, writeRowmapHeader } from '../protocol/api.gen';
import { decodeRowmap, NO_STATE, ROWMAP_MAGIC } from './rowmap';

/** A row map of `bands` × `width` cells, cell i = `cell(i)`, built with the generated writers. */
function build(bands: number, width: number, cell: (i: number) => { state: number; rows: number; busy: number }): ArrayBuffer {
  const buf = new ArrayBuffer(ROWMAPHEADER_SIZE + bands * width * ROWMAPCELL_SIZE);
  const v = new DataView(buf);
  writeRowmapHeader(v, 0, { magic: ROWMAP_MAGIC, version: API_VERSION, from: 100, to: 900, width, bands, group: 4, reserved: 0 });
  for (let i = 0; i < bands * width; i++) writeRowmapCell(v, ROWMAPHEADER_SIZE + i * ROWMAPCELL_SIZE, cell(i));
  return buf;
}

describe('decodeRowmap', () => {
  it('decodes the header and the cells band by band', () => {
    const buf = build(2, 3, (i) => (i === 4 ? { state: NO_STATE, rows: 0, busy: 0 } : { state: i + 10, rows: i, busy: i + 1 }));
    // The magic reads as 'PXLR' in bytes.
    expect(String.fromCharCode(...new Uint8Array(buf, 0, 4))).toBe('PXLR');
    const m = decodeRowmap(buf);
    expect(m.header).toMatchObject({ from: 100, to: 900, width: 3, bands: 2, group: 4 });
    expect(m.cells.count).toBe(6);
    expect([...m.cells.state]).toEqual([10, 11, 12, 13, NO_STATE, 15]);
    expect(m.cells.rows[5]).toBe(5);
    expect(m.cells.busy[5]).toBe(6);
    expect(m.bytes).toBe(buf.byteLength);
  });

  it('reads the fields at their documented offsets', () => {
    const buf = build(1, 1, () => ({ state: 7, rows: 3, busy: 4 }));
    const v = new DataView(buf);
    expect(v.getUint32(24, true)).toBe(1); // width
    expect(v.getUint32(28, true)).toBe(1); // bands
    expect(v.getUint32(32, true)).toBe(4); // group
    expect(v.getUint32(40, true)).toBe(7);
    expect(v.getUint16(44, true)).toBe(3);
    expect(v.getUint16(46, true)).toBe(4);
  });

  it('rejects a short buffer, a bad magic, another version and a truncated body', () => {
    expect(() => decodeRowmap(new ArrayBuffer(10))).toThrow(/shorter than its header/);
    const bad = build(1, 1, () => ({ state: 0, rows: 1, busy: 1 }));
    new DataView(bad).setUint32(0, 0x544c5850, true); // a tile's magic
    expect(() => decodeRowmap(bad)).toThrow(/magic/);
    const v2 = build(1, 1, () => ({ state: 0, rows: 1, busy: 1 }));
    new DataView(v2).setUint32(4, API_VERSION + 1, true);
    expect(() => decodeRowmap(v2)).toThrow(/version/);
    const full = build(2, 2, () => ({ state: 0, rows: 1, busy: 1 }));
    expect(() => decodeRowmap(full.slice(0, full.byteLength - 1))).toThrow(/announces/);
  });
});
