// The waits overlay's data: the wait states (late sender, late receiver,
// collective) of the time window and rows on screen, asked of /waits-window
// with from, to and rows, and every row's wait in that window compared over the
// ranks (the imbalance strip). Unlike the critical path, the data follows the
// window: each frame tells sync() what is on screen; a window or rows that
// differ from the last asked are asked for once they stay put for
// WAITS_DEBOUNCE_MS, one request at a time, the newest ask winning
// (LatestRequest). Until the answer comes the previous one is drawn (its
// spans are in trace time, so they pan and zoom with the bars).
// The pure parts (what to ask, where each wait and each row's strip goes)
// are exported for the tests; waits_overlay_paint.ts draws them.
import type { RowWaiting, WaitsWindow, WaitsWindowParams, WaitSpan } from '../../protocol/api.gen';
import { LatestRequest } from '../common/latest_request';
import type { ApiClient } from '../context';
import type { TimelineGeometry } from './geometry';

/** Waits asked for per window: the longest, the count says how many more there are. */
export const WAITS_SPANS = 2000;
export const WAITS_DEBOUNCE_MS = 150;

export type WaitKind = 'late-sender' | 'late-receiver' | 'collective';

/** Each kind's colour (docs/views.md "Waits overlay" has the key). */
export const WAIT_COLORS: Record<WaitKind, string> = {
  'late-sender': '#e53935',
  'late-receiver': '#8e24aa',
  collective: '#fb8c00',
};
export const WAIT_LABELS: Record<WaitKind, string> = {
  'late-sender': 'late sender',
  'late-receiver': 'late receiver',
  collective: 'collective',
};

export function waitColor(kind: string): string {
  return WAIT_COLORS[kind as WaitKind] ?? '#616161';
}

/** What to ask /waits-window for the window and the thread rows on screen: rows left out when all are. */
export function waitsParams(g: TimelineGeometry, threadCount: number): WaitsWindowParams {
  const { top, bottom } = g.visibleContent();
  const rows: number[] = [];
  for (const it of g.layout.itemsIn(top, bottom)) if (it.kind === 'thread' && it.row >= 0) rows.push(it.row);
  rows.sort((a, b) => a - b);
  const params: WaitsWindowParams = { limit: WAITS_SPANS, from: Math.floor(g.window.from), to: Math.ceil(g.window.to) };
  if (rows.length < threadCount) params.rows = rows;
  return params;
}

/** A key equal for equal asks. */
export function paramsKey(p: WaitsWindowParams): string {
  return `${p.from}:${p.to}:${p.rows ? p.rows.join(',') : '*'}`;
}

export interface WaitBox {
  x: number;
  y: number;
  w: number;
  h: number;
  kind: string;
}

/**
 * Where each wait is drawn: over the waiting call's lane (its slice's depth),
 * from its begin to its end clipped to the plot, at least 2 px wide; on the
 * header of a folded row. Waits off screen are left out.
 */
export function waitBoxes(spans: readonly WaitSpan[], g: TimelineGeometry): WaitBox[] {
  const out: WaitBox[] = [];
  const left = g.plotLeft;
  const right = g.width;
  for (const s of spans) {
    let y = g.laneTop(s.row, s.slice?.depth ?? 0);
    let h = g.laneHeight - 1;
    if (Number.isNaN(y)) {
      const item = g.layout.itemOfRow(s.row);
      if (!item) continue;
      y = g.toScreenY(item.y) + 2;
      h = item.height - 4;
    }
    if (y + h < 0 || y > g.height) continue;
    let x0 = g.timeToX(s.begin);
    let x1 = g.timeToX(s.end);
    if (x1 < left || x0 > right) continue;
    x0 = Math.max(x0, left - 1);
    x1 = Math.min(x1, right + 1);
    if (x1 - x0 < 2) {
      const mid = (x0 + x1) / 2;
      x0 = mid - 1;
      x1 = mid + 1;
    }
    out.push({ x: x0, y, w: x1 - x0, h, kind: s.kind });
  }
  return out;
}

export interface RowStrip {
  row: number;
  /** share of the window the row spent waiting, 0..1 */
  share: number;
  /** the mean share over the ranks compared */
  mean: number;
  /** (wait - mean) / mean, clamped to -1..1: below (blue) or above (red) the ranks' mean */
  relative: number;
  wait: number;
  runWait: number;
}

/** Each asked row's imbalance strip: its wait as a share of the window, against the ranks' mean. */
export function rowStrips(win: WaitsWindow): Map<number, RowStrip> {
  const span = Math.max(1, win.to - win.from);
  const mean = win.imbalance.mean;
  const out = new Map<number, RowStrip>();
  for (const r of win.rows_waiting as RowWaiting[]) {
    const relative = mean > 0 ? Math.max(-1, Math.min(1, (r.wait - mean) / mean)) : r.wait > 0 ? 1 : 0;
    const share = Math.min(1, r.wait / span);
    out.set(r.row, { row: r.row, share, mean: Math.min(1, mean / span), relative, wait: r.wait, runWait: r.run_wait });
  }
  return out;
}

/** The overlay's one-line status: "waits: 120 of 649 shown". */
export function waitsStatus(win: WaitsWindow): string {
  const s = `waits: ${win.waits.length} of ${win.matched} shown`;
  return win.complete ? s : `${s} (of the run's longest)`;
}

/** What the painter gets: the answer for the window last asked, and its strips. */
export interface WaitsPaint {
  window: WaitsWindow;
  strips: Map<number, RowStrip>;
  status: string;
}

/** The test hooks on the timeline canvas: data-waits-shown, -matched, -window (from,to,rows or *). */
export function markWaits(canvas: HTMLElement | null, win: WaitsWindow | null, params: WaitsWindowParams | null): void {
  if (!canvas) return;
  const d = canvas.dataset;
  if (!win || !params) {
    delete d['waitsShown'];
    delete d['waitsMatched'];
    delete d['waitsWindow'];
    return;
  }
  d['waitsShown'] = String(win.waits.length);
  d['waitsMatched'] = String(win.matched);
  d['waitsWindow'] = `${params.from},${params.to},${params.rows ? params.rows.join(' ') : '*'}`;
}

/** The waits of the window on screen, asked for as it moves. */
export class WaitsOverlay {
  private on = false;
  private data: WaitsPaint | null = null;
  private api: ApiClient | null = null;
  private canvas: HTMLElement | null = null;
  private wanted: { key: string; params: WaitsWindowParams } | null = null;
  private asked = '';
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly requests: LatestRequest<WaitsWindowParams, WaitsWindow>;

  constructor(
    private readonly requestDraw: () => void,
    private readonly debounceMs = WAITS_DEBOUNCE_MS,
  ) {
    this.requests = new LatestRequest<WaitsWindowParams, WaitsWindow>(
      (p) => (this.api ? this.api.get('waits_window', p) : Promise.reject(new Error('no server'))),
      (r, p) => this.answered(r, p),
      () => {
        // Reported by the client; the last answer stays drawn.
      },
    );
  }

  get enabled(): boolean {
    return this.on;
  }

  setOn(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    if (!on) {
      this.drop();
      markWaits(this.canvas, null, null);
    }
    this.requestDraw();
  }

  /** A new snapshot: the answer no longer holds; the next frame asks again. */
  drop(): void {
    this.requests.cancel();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.data = null;
    this.asked = '';
  }

  /** Called each frame with what is on screen: asks for it when it changed; returns what to draw (null when off). */
  sync(api: ApiClient, g: TimelineGeometry, threadCount: number, canvas: HTMLElement | null): WaitsPaint | null {
    if (!this.on) return null;
    this.api = api;
    if (canvas) this.canvas = canvas;
    const params = waitsParams(g, threadCount);
    const key = paramsKey(params);
    if (key !== this.asked && key !== this.wanted?.key) {
      this.wanted = { key, params };
      if (this.timer !== null) clearTimeout(this.timer);
      // The first ask goes at once; later ones wait for the window to stay put.
      const delay = this.data || this.asked ? this.debounceMs : 0;
      this.timer = setTimeout(() => this.send(), delay);
    }
    return this.data;
  }

  private send(): void {
    this.timer = null;
    const w = this.wanted;
    if (!w || !this.on) return;
    this.wanted = null;
    this.asked = w.key;
    this.requests.request(w.params);
  }

  private answered(r: WaitsWindow, params: WaitsWindowParams): void {
    if (!this.on) return;
    this.data = { window: r, strips: rowStrips(r), status: waitsStatus(r) };
    markWaits(this.canvas, r, params);
    this.requestDraw();
  }
}
