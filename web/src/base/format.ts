// Time and number formatting for labels, the status bar and the details panel.
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

/** A trace time (ns since the trace's start) for people: like formatDuration. */
export function formatTime(ns: number, digits = 6): string {
  return formatDuration(ns, digits);
}

/**
 * A tick label at the precision the tick step needs: with step 0.5 ms, 12.5 ms
 * and 13 ms; the unit is chosen from the step so neighbouring labels agree.
 */
export function formatTick(ns: number, step: number): string {
  if (ns === 0) return '0';
  // The unit of ten steps: labels read '12.5 ms', not '12500 µs'.
  const a = Math.max(Math.abs(step) * 10, 1e-9);
  let scale = 1;
  let unit = 'ns';
  for (const [s, u] of UNITS) {
    if (a >= s) {
      scale = s;
      unit = u;
      break;
    }
  }
  const stepInUnit = step / scale;
  const decimals = Math.max(0, Math.min(9, Math.ceil(-Math.log10(stepInUnit) - 1e-9)));
  let text = (ns / scale).toFixed(decimals);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  return `${text} ${unit}`;
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
