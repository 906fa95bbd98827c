// What part of the trace a panel covers (the Statistics, Communication and
// Histogram tabs): the timeline's area selection when there is one, else its
// window when zoomed in, else the whole trace. The decision and what follows
// from it are pure: the parameters the endpoint is asked with (/stats,
// /matrix, /histogram), the line that says which, and the panel's data-*
// attributes (what the e2e tests read). `followPanelWindow` calls back when
// the area or (once it rests) the window moves.
import { formatTimeSpan } from '../../base/format';
import type { StatsParams } from '../../protocol/api.gen';
import { debounce } from './dom';
import type { TimelineControl } from '../context';
import { areaSource, type AreaSelection } from '../timeline/area';

export type PanelWindow =
  | { kind: 'trace' }
  | { kind: 'window'; from: number; to: number }
  | { kind: 'selection'; from: number; to: number; rows: number[] };

/** The whole trace: what a panel covers when it cannot cover less (the RMA matrix). */
export const WHOLE_TRACE: PanelWindow = { kind: 'trace' };

/** How long the window must rest before a panel follows it (a drag or wheel zoom moves it every frame). */
export const PANEL_WINDOW_DEBOUNCE_MS = 200;

/**
 * The part to ask for: `area` if any, else `window` unless it shows the whole
 * trace of `duration` ns. Times become whole ns within the trace, widened
 * outwards (from rounded down, to up: `to` is inclusive).
 */
export function panelWindow(area: AreaSelection | null, window: { from: number; to: number }, duration: number): PanelWindow {
  const clampNs = (t: number, round: (v: number) => number): number => Math.min(Math.max(round(t), 0), Math.max(duration, 0));
  if (area) {
    return { kind: 'selection', from: clampNs(area.from, Math.floor), to: clampNs(area.to, Math.ceil), rows: [...area.rows] };
  }
  if (window.from <= 0 && window.to >= duration) return { kind: 'trace' };
  return { kind: 'window', from: clampNs(window.from, Math.floor), to: clampNs(window.to, Math.ceil) };
}

/** What `timeline` shows now (its area selection if it has one) as a PanelWindow. */
export function currentPanelWindow(timeline: TimelineControl, duration: number): PanelWindow {
  return panelWindow(areaSource(timeline)?.area() ?? null, timeline.window(), duration);
}

/**
 * Calls `changed` at once when the timeline's area is selected or cleared,
 * and PANEL_WINDOW_DEBOUNCE_MS after its window stops moving. Returns the
 * unsubscribe function (which also drops a pending call).
 */
export function followPanelWindow(timeline: TimelineControl, changed: () => void): () => void {
  const windowMoved = debounce(changed, PANEL_WINDOW_DEBOUNCE_MS);
  const offs = [timeline.onWindowChange(() => windowMoved())];
  const area = areaSource(timeline);
  if (area) {
    offs.push(
      area.onAreaChange(() => {
        windowMoved.cancel();
        changed();
      }),
    );
  }
  return () => {
    windowMoved.cancel();
    for (const off of offs) off();
  };
}

/**
 * A panel's part of the trace as it follows the timeline: `current()` is
 * what to cover now; `asked(w)` notes what the panel asked for; `follow()`
 * subscribes (returning the unsubscribe) so that `load` runs when the area,
 * or the window once it rests, changes what to ask for.
 */
export class PanelWindowFollower {
  private key = '';

  constructor(
    private readonly timeline: TimelineControl,
    private readonly duration: () => number,
    private readonly load: () => void,
  ) {}

  current(): PanelWindow {
    return currentPanelWindow(this.timeline, this.duration());
  }

  asked(w: PanelWindow): void {
    this.key = windowKey(w);
  }

  follow(): () => void {
    return followPanelWindow(this.timeline, () => {
      if (windowKey(this.current()) !== this.key) this.load();
    });
  }
}

/** The endpoint parameters of `w` (none for the whole trace); /stats, /matrix and /histogram take the same. */
export function windowParams(w: PanelWindow): Pick<StatsParams, 'from' | 'to' | 'rows'> {
  if (w.kind === 'trace') return {};
  if (w.kind === 'window') return { from: w.from, to: w.to };
  return { from: w.from, to: w.to, rows: [...w.rows] };
}

/** Equal for equal windows (a window move that changes nothing asks nothing). */
export function windowKey(w: PanelWindow): string {
  return w.kind === 'trace' ? 'trace' : `${w.kind}:${w.from}:${w.to}:${w.kind === 'selection' ? w.rows.join(',') : ''}`;
}

/** "Selection: 12 rows, 1.2000 ms – 3.4000 ms", "Zoomed window: …", "Whole trace". */
export function windowLine(w: PanelWindow): string {
  if (w.kind === 'trace') return 'Whole trace';
  const [a, b] = formatTimeSpan(w.from, w.to);
  if (w.kind === 'window') return `Zoomed window: ${a} – ${b}`;
  return `Selection: ${w.rows.length} ${w.rows.length === 1 ? 'row' : 'rows'}, ${a} – ${b}`;
}

export const WINDOW_ATTRIBUTES = ['data-scope', 'data-from', 'data-to', 'data-rows'] as const;

/** data-scope (selection | window | trace), data-from / data-to (ns as asked; '' for the trace), data-rows (thread indices, '' for all). */
export function windowAttributes(w: PanelWindow): Record<(typeof WINDOW_ATTRIBUTES)[number], string> {
  return {
    'data-scope': w.kind,
    'data-from': w.kind === 'trace' ? '' : String(w.from),
    'data-to': w.kind === 'trace' ? '' : String(w.to),
    'data-rows': w.kind === 'selection' ? w.rows.join(',') : '',
  };
}

/** Marks the panel `host` with `w` (windowAttributes); null takes the marks (and data-pending) off. */
export function markPanelWindow(host: HTMLElement | null, w: PanelWindow | null): void {
  if (!host) return;
  if (!w) {
    for (const a of [...WINDOW_ATTRIBUTES, 'data-pending']) host.removeAttribute(a);
    return;
  }
  const attrs = windowAttributes(w);
  for (const a of WINDOW_ATTRIBUTES) host.setAttribute(a, attrs[a]);
}
