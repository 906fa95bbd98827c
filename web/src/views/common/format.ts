// Number formatting for the panel views. Durations, counts and bytes come from
// base/format (shared with the timeline); the rest is what charts and tables need.
import { formatBytes, formatCount, formatDuration, formatTick } from '../../base/format';

export { formatBytes, formatCount, formatDuration, formatTick };

const DURATION_UNITS: readonly (readonly [number, string])[] = [
  [1e9, 's'],
  [1e6, 'ms'],
  [1e3, 'µs'],
  [1, 'ns'],
];

/** Up to `digits` significant digits without trailing zeros: 1.50 -> '1.5'. */
export function trimNumber(v: number, digits = 3): string {
  if (v === 0 || !Number.isFinite(v)) return String(v === 0 ? 0 : v);
  // Integers with more digits than `digits` are shown whole (1234, not 1.23e+3).
  if (Math.abs(v) >= 10 ** digits) return String(Math.round(v));
  return String(Number(v.toPrecision(digits)));
}

/**
 * Labels of ticks along a duration axis. Evenly spaced (linear) ticks share
 * the precision of their step ('12.5 ms', '13 ms'); others (logarithmic) are
 * formatted one by one.
 */
export function formatDurationTicks(ticks: readonly number[], linear: boolean): string[] {
  if (!linear || ticks.length < 2) return ticks.map((t) => formatDuration(t, 3));
  // The unit of the largest tick, so the axis reads '0.5 ms, 1 ms, 1.5 ms'
  // rather than '500 µs, 1000 µs'; decimals as the step needs.
  let largest = 0;
  for (const t of ticks) largest = Math.max(largest, Math.abs(t));
  const [scale, unit] = DURATION_UNITS.find(([sc]) => largest >= sc) ?? DURATION_UNITS[DURATION_UNITS.length - 1]!;
  const step = Math.abs(ticks[1]! - ticks[0]!) / scale;
  const decimals = step > 0 ? Math.max(0, Math.min(9, Math.ceil(-Math.log10(step) - 1e-9))) : 0;
  return ticks.map((t) => {
    if (t === 0) return '0';
    let text = (t / scale).toFixed(decimals);
    if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
    return `${text} ${unit}`;
  });
}

/** A 0..1 share as a percentage: 0.1234 -> '12.3%'. */
export function formatPercent(share: number): string {
  const p = share * 100;
  if (p !== 0 && Math.abs(p) < 0.1) return `${p < 0 ? '-' : ''}<0.1%`;
  return `${p.toFixed(1)}%`;
}

/** A short number for axis labels: 1500 -> '1500', 25000 -> '25k', 2000000 -> '2M'. */
export function formatShort(v: number): string {
  const abs = Math.abs(v);
  if (abs >= 1e9) return `${trimNumber(v / 1e9)}G`;
  if (abs >= 1e6) return `${trimNumber(v / 1e6)}M`;
  if (abs >= 1e4) return `${trimNumber(v / 1e3)}k`;
  return trimNumber(v, 4);
}

/** A fractional count (mountain averages): '3', '2.5', '0.25'. */
export function formatAverage(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(2)));
}
