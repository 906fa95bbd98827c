// Number formatting for the panel views. Durations, counts and bytes come from
// base/format (shared with the timeline); the rest is what charts and tables need.
import {
  formatBytes, formatCount, formatDuration, formatTicks, formatTime, formatTimeSpan, resolutionFor,
} from '../../base/format';

export { formatBytes, formatCount, formatDuration, formatTicks, formatTime, formatTimeSpan, resolutionFor };

/** Up to `digits` significant digits without trailing zeros: 1.50 -> '1.5'. */
export function trimNumber(v: number, digits = 3): string {
  if (v === 0 || !Number.isFinite(v)) return String(v === 0 ? 0 : v);
  // Integers with more digits than `digits` are shown whole (1234, not 1.23e+3).
  if (Math.abs(v) >= 10 ** digits) return String(Math.round(v));
  return String(Number(v.toPrecision(digits)));
}

/**
 * Labels of ticks along a duration axis. Evenly spaced (linear) ticks share
 * unit and the precision of their step ('12.5 ms', '13.0 ms'); others (logarithmic) are
 * formatted one by one.
 */
export function formatDurationTicks(ticks: readonly number[], linear: boolean): string[] {
  if (!linear || ticks.length < 2) return ticks.map((t) => formatDuration(t, 3));
  // base/format's convention: the unit of the largest tick, decimals of the step.
  return formatTicks(ticks, Math.abs(ticks[1]! - ticks[0]!));
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
