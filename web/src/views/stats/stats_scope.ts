// What part of the trace the Statistics tab covers: the timeline's area
// selection when there is one, else its window when zoomed in, else the
// whole trace. Pure: the parameters /stats is asked with, the line that
// says which, and the panel's data-* attributes (what the e2e tests read).
import { formatTimeSpan } from '../../base/format';
import type { StatsParams } from '../../protocol/api.gen';
import type { AreaSelection } from '../timeline/area';

export type StatsWindow =
  | { kind: 'trace' }
  | { kind: 'window'; from: number; to: number }
  | { kind: 'selection'; from: number; to: number; rows: number[] };

/**
 * The part to ask for: `area` if any, else `window` unless it shows the whole
 * trace of `duration` ns. Times become whole ns within the trace, widened
 * outwards (from rounded down, to up: `to` is inclusive).
 */
export function statsWindow(area: AreaSelection | null, window: { from: number; to: number }, duration: number): StatsWindow {
  const clampNs = (t: number, round: (v: number) => number): number => Math.min(Math.max(round(t), 0), Math.max(duration, 0));
  if (area) {
    return { kind: 'selection', from: clampNs(area.from, Math.floor), to: clampNs(area.to, Math.ceil), rows: [...area.rows] };
  }
  if (window.from <= 0 && window.to >= duration) return { kind: 'trace' };
  return { kind: 'window', from: clampNs(window.from, Math.floor), to: clampNs(window.to, Math.ceil) };
}

/** The /stats parameters of `w` (none for the whole trace). */
export function windowParams(w: StatsWindow): Pick<StatsParams, 'from' | 'to' | 'rows'> {
  if (w.kind === 'trace') return {};
  if (w.kind === 'window') return { from: w.from, to: w.to };
  return { from: w.from, to: w.to, rows: [...w.rows] };
}

/** Equal for equal windows (a window move that changes nothing asks nothing). */
export function windowKey(w: StatsWindow): string {
  return w.kind === 'trace' ? 'trace' : `${w.kind}:${w.from}:${w.to}:${w.kind === 'selection' ? w.rows.join(',') : ''}`;
}

/** "Selection: 12 rows, 1.2000 ms – 3.4000 ms", "Zoomed window: …", "Whole trace". */
export function windowLine(w: StatsWindow): string {
  if (w.kind === 'trace') return 'Whole trace';
  const [a, b] = formatTimeSpan(w.from, w.to);
  if (w.kind === 'window') return `Zoomed window: ${a} – ${b}`;
  return `Selection: ${w.rows.length} ${w.rows.length === 1 ? 'row' : 'rows'}, ${a} – ${b}`;
}

export const WINDOW_ATTRIBUTES = ['data-scope', 'data-from', 'data-to', 'data-rows'] as const;

/** data-scope (selection | window | trace), data-from / data-to (ns as asked; '' for the trace), data-rows (thread indices, '' for all). */
export function windowAttributes(w: StatsWindow): Record<(typeof WINDOW_ATTRIBUTES)[number], string> {
  return {
    'data-scope': w.kind,
    'data-from': w.kind === 'trace' ? '' : String(w.from),
    'data-to': w.kind === 'trace' ? '' : String(w.to),
    'data-rows': w.kind === 'selection' ? w.rows.join(',') : '',
  };
}
