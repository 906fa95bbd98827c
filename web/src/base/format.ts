// Time and number formatting for labels, the status bar and the details panel:
// the one time formatter of the viewer (views/common/format.ts re-exports it).
// All times are nanoseconds (trace time or durations).

const UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e9, 's'],
  [1e6, 'ms'],
  [1e3, 'µs'],
  [1, 'ns'],
];

/** Up to `digits` significant digits, trailing zeros dropped: 12.5, 1.234, 100. */
function significant(v: number, digits: number): string {
  if (v === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(v))) + 1;
  const decimals = Math.max(0, Math.min(9, digits - magnitude));
  let s = v.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

/** A duration for people: '0 ns', '850 ns', '12.5 ms', '1.234 s'. */
export function formatDuration(ns: number, digits = 4): string {
  if (!Number.isFinite(ns)) return String(ns);
  const a = Math.abs(ns);
  if (a === 0) return '0 ns';
  for (const [scale, unit] of UNITS) {
    if (a >= scale * 0.9995 || scale === 1) {
      // Rounding may reach the next unit: 999.96 µs → 1 ms.
      const v = ns / scale;
      const text = significant(v, digits);
      if (Math.abs(Number(text)) >= 1000 && scale < 1e9) {
        return formatDuration(ns, digits - 1);
      }
      return `${text} ${unit}`;
    }
  }
  return `${ns} ns`;
}

// Times (points on the trace's clock) follow one convention everywhere (ruler,
// axes, details, status line, replay bar): the unit is that of the largest
// value shown together (s from 1 s up, then ms, µs, ns), and the number of
// decimals is set by a resolution in ns, so the last digit printed is the
// resolution's. Times shown together share unit and decimals: the ruler at
// 1.5 s with a 1 µs step reads '1.500800 s', '1.500801 s', never '1500800 µs';
// a slice's begin and end read '1.500800000 s' and '1.500820650 s'. A lone
// time (the replay cursor, a breakpoint) drops trailing zeros: '12.5 ms'.

/** The power of ten at most `ns` (at least 1 ns): the step the last digit shows. */
export function resolutionFor(ns: number): number {
  if (!(ns >= 10) || !Number.isFinite(ns)) return 1;
  return Math.pow(10, Math.floor(Math.log10(ns) + 1e-9));
}

/** Times in one unit (of the largest |value|) with the decimals `resolution` needs. */
export function formatTimes(values: readonly number[], resolution: number): string[] {
  let largest = 0;
  for (const v of values) if (Number.isFinite(v)) largest = Math.max(largest, Math.abs(v));
  const [scale, unit] = UNITS.find(([sc]) => largest >= sc) ?? UNITS[UNITS.length - 1]!;
  const step = Math.max(resolution, 1) / scale;
  const decimals = Math.max(0, Math.min(9, Math.ceil(-Math.log10(step) - 1e-9)));
  return values.map((v) => (Number.isFinite(v) ? `${(v / scale).toFixed(decimals)} ${unit}` : String(v)));
}

/**
 * One time at `resolution` ns (default 1 ns, the clock's own), trailing zeros
 * dropped: '1.50082065 s', '12.5 ms', '0 ns'.
 */
export function formatTime(ns: number, resolution = 1): string {
  const text = formatTimes([ns], resolution)[0]!;
  if (!text.includes('.')) return text;
  const [num, unit] = text.split(' ');
  return `${num!.replace(/0+$/, '').replace(/\.$/, '')} ${unit}`;
}

/**
 * The resolution to show an item from `begin` to `end` with: a ten-thousandth
 * of its duration rounded down to a power of ten, at least 1 ns (so 1 ns for
 * items shorter than 100 µs and for points in time). Rounding moves begin and
 * end by at most half of it, far less than the duration: they differ whenever
 * they differ, and a 3 s phase is not printed to the ns.
 */
export function detailResolution(begin: number, end: number): number {
  return resolutionFor(Math.abs(end - begin) / 1e4);
}

/**
 * Begin and end of an item in the same unit and at a precision where they
 * differ when they differ: a 20.65 µs slice at 1.5008 s reads '1.500800000 s'
 * and '1.500820650 s'.
 */
export function formatTimeSpan(begin: number, end: number): [string, string] {
  const [a, b] = formatTimes([begin, end], detailResolution(begin, end));
  return [a!, b!];
}

/** Tick labels of a linear axis with step `step`: '12.5 ms', '13.0 ms'; the origin '0'. */
export function formatTicks(values: readonly number[], step: number): string[] {
  const labels = formatTimes(values, step);
  return labels.map((l, i) => (values[i] === 0 ? '0' : l));
}

/** 1234567 → '1,234,567'. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Bytes for people: '512 B', '1.5 KiB', '3.2 MiB'. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${significant(v, 3)} ${units[i]}`;
}
