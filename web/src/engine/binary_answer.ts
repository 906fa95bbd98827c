// The checks every binary answer of the API gets before its records are
// read (tile.ts, rowmap.ts): long enough for its header, its magic, the API
// version, long enough for what the header announces. Errors name the
// answer ("tile: ...", "rowmap: ...").
import { API_VERSION } from '../protocol/api.gen';

/** The header of `buffer` read by `read`, once its size, magic and version are right. */
export function checkedHeader<H extends { magic: number; version: number }>(
  what: string,
  buffer: ArrayBuffer,
  size: number,
  magic: number,
  read: (view: DataView, offset: number) => H,
): { view: DataView; header: H } {
  if (buffer.byteLength < size) {
    throw new Error(`${what}: ${buffer.byteLength} bytes, shorter than its header`);
  }
  const view = new DataView(buffer);
  const header = read(view, 0);
  if (header.magic !== magic) {
    throw new Error(`${what}: bad magic 0x${header.magic.toString(16)}`);
  }
  if (header.version !== API_VERSION) {
    throw new Error(`${what}: version ${header.version}, this viewer reads ${API_VERSION}`);
  }
  return { view, header };
}

/** Throws when `buffer` is shorter than the `need` bytes its header announces. */
export function checkLength(what: string, buffer: ArrayBuffer, need: number): void {
  if (buffer.byteLength < need) {
    throw new Error(`${what}: ${buffer.byteLength} bytes, its header announces ${need}`);
  }
}
