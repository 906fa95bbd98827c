// Reading times people type ("12.5ms", "1.2 s", "350us", "1500"): the replay
// bar's jump and breakpoint fields and the trigger threshold. No DOM.

const SCALES: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3,
  'μs': 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  min: 60e9,
};

/**
 * Nanoseconds (rounded to whole ns) for a time like "12.5ms", "1.2 s", "3e3 us"
 * or a plain number of ns; null when it is not one (empty, negative, unknown unit).
 */
export function parseTime(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d*)?|\.\d+)(?:e([+-]?\d+))?\s*([a-zµμ]*)\s*$/i.exec(text);
  if (!m) return null;
  const unit = (m[3] ?? '').toLowerCase();
  const scale = unit === '' ? 1 : SCALES[unit];
  if (scale === undefined) return null;
  const value = Number(`${m[1]}${m[2] !== undefined ? `e${m[2]}` : ''}`) * scale;
  if (!Number.isFinite(value)) return null;
  return Math.round(value);
}

/** A plain non-negative number ("1024", "2.5e3", "4k", "1M"); null when it is not one. */
export function parseAmount(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d*)?|\.\d+)(?:e([+-]?\d+))?\s*([kmg]?)i?b?\s*$/i.exec(text);
  if (!m) return null;
  const suffix = (m[3] ?? '').toLowerCase();
  const scale = suffix === 'k' ? 1e3 : suffix === 'm' ? 1e6 : suffix === 'g' ? 1e9 : 1;
  const value = Number(`${m[1]}${m[2] !== undefined ? `e${m[2]}` : ''}`) * scale;
  return Number.isFinite(value) ? value : null;
}
