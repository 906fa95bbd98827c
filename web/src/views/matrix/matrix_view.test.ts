// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MatrixParams, MatrixResult } from '../../protocol/api.gen';
import { EMPTY_CELL, HEAT_STOPS } from '../common/colors';
import { fakeContext, flush, RecordingPainter, stubCanvas } from '../common/testing';
import { PANEL_WINDOW_DEBOUNCE_MS } from '../common/panel_window';
import { TimelineArea } from '../timeline/area';
import { cellList, MATRIX_VIEW } from './matrix_view';

const messages: MatrixResult = {
  kind: 'messages',
  labels: ['rank 0', 'rank 1'],
  count: [
    [0, 10],
    [1, 0],
  ],
  bytes: [
    [0, 100],
    [4096, 0],
  ],
  latency: [
    [0, 500],
    [1000, 0],
  ],
  total_count: 11,
  total_bytes: 4196,
  selection: null,
};
const rma: MatrixResult = { kind: 'rma', labels: ['rank 0', 'rank 1'], count: [[0, 0], [0, 0]], bytes: [[0, 0], [0, 0]], latency: [[0, 0], [0, 0]], total_count: 0, total_bytes: 0, selection: null };

let host: HTMLElement;
beforeEach(() => {
  stubCanvas();
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => host.remove());

function setup(handler: (p: MatrixParams) => MatrixResult | Promise<MatrixResult> = (p) => (p.kind === 'rma' ? rma : messages), withArea = false) {
  const f = fakeContext({ matrix: handler });
  // The real timeline has an area selection (timeline/area.ts); the stand-in gets one when asked.
  const area = new TimelineArea();
  if (withArea) Object.assign(f.timeline, { area: () => area.area(), onAreaChange: area.onAreaChange.bind(area) });
  const view = MATRIX_VIEW.create(f.ctx);
  view.mount(host);
  return { ...f, view, area };
}

/** A /matrix answer that says what it was asked for: the selection, and a count of 1 + from in the 0 → 1 cell. */
function answer(p: MatrixParams): MatrixResult {
  if (p.kind === 'rma') return rma;
  const windowed = p.from !== undefined || p.to !== undefined || p.rows !== undefined;
  if (!windowed) return messages;
  const n = 1 + (p.from ?? 0);
  return {
    ...messages,
    count: [
      [0, n],
      [0, 0],
    ],
    total_count: n,
    total_bytes: 8 * n,
    selection: { from: p.from ?? 0, to: p.to ?? 1_000_000, rows: p.rows?.length ?? 4 },
  };
}

const rested = () => new Promise<void>((r) => setTimeout(r, PANEL_WINDOW_DEBOUNCE_MS + 50));
const scopeOf = () => ({ scope: host.dataset['scope'], from: host.dataset['from'], to: host.dataset['to'], rows: host.dataset['rows'], pending: host.dataset['pending'] });
const windowText = () => host.querySelector('[data-testid=matrix-window]')!.textContent;
const chart = () => host.querySelector<HTMLElement>('[data-testid=matrix-chart]')!;

/** Colours of the n*n cells, row by row (the first n*n fillRects). */
function cellColors(view: { paint?: (p: RecordingPainter) => void }, n = 2): string[] {
  const p = new RecordingPainter(500, 300);
  view.paint!(p);
  return p.ops.filter((o) => o.op === 'fillRect').slice(0, n * n).map((o) => o.color!);
}

describe('matrix view', () => {
  it('colours cells by count: the busiest hot, the empty grey', async () => {
    const { view, api } = setup();
    await flush();
    expect(api.calls[0]).toEqual({ endpoint: 'matrix', params: { kind: 'messages' } });
    const hot = HEAT_STOPS[HEAT_STOPS.length - 1];
    const colors = cellColors(view);
    expect(colors[0]).toBe(EMPTY_CELL);
    expect(colors[1]).toBe(hot);
    expect(colors[3]).toBe(EMPTY_CELL);
    expect(colors[2]).not.toBe(hot);
  });

  it('switches the metric to bytes', async () => {
    const { view } = setup();
    await flush();
    host.querySelector<HTMLButtonElement>('[data-testid=metric-bytes]')!.click();
    const colors = cellColors(view);
    expect(colors[2]).toBe(HEAT_STOPS[HEAT_STOPS.length - 1]); // 4096 bytes is the most
    expect(host.querySelector('[data-testid=metric-bytes]')!.getAttribute('aria-pressed')).toBe('true');
    const p = new RecordingPainter(500, 300);
    view.paint!(p);
    expect(p.texts()).toContain('rank 1');
    expect(p.texts()).toContain('4 KiB');
  });

  it('says "no messages" when there are none', async () => {
    setup(() => ({ ...rma, kind: 'messages' }));
    await flush();
    const empty = host.querySelector<HTMLElement>('[data-testid=matrix-empty]')!;
    expect(empty.hidden).toBe(false);
    expect(empty.textContent).toBe('no messages');
  });

  it('fetches RMA on the kind toggle and back from the cache', async () => {
    const { api } = setup();
    await flush();
    host.querySelector<HTMLButtonElement>('[data-testid=kind-rma]')!.click();
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([{ kind: 'messages' }, { kind: 'rma' }]);
    expect(host.querySelector<HTMLElement>('[data-testid=matrix-empty]')!.textContent).toContain('RMA');
    expect(host.querySelector<HTMLButtonElement>('[data-testid=metric-latency]')!.disabled).toBe(true);
    host.querySelector<HTMLButtonElement>('[data-testid=kind-messages]')!.click();
    await flush();
    expect(api.calls).toHaveLength(2);
    expect(host.querySelector<HTMLElement>('[data-testid=matrix-empty]')!.hidden).toBe(true);
  });

  it('shows the cell values on hover', async () => {
    setup();
    await flush();
    const canvas = host.querySelector<HTMLCanvasElement>('[data-testid=matrix-chart]')!;
    // jsdom lays nothing out: the canvas is at (0, 0); width is the 600 px fallback.
    // Two labels 'rank 0' (~6.5 px/char) make a 49 px label column, cells of 40 px from y=22.
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: 49 + 45, clientY: 22 + 5 }));
    const tip = host.querySelector<HTMLElement>('[data-testid=matrix-tooltip]')!;
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toBe('rank 0 → rank 1: 10 messages, 100 B, mean latency 500 ns');
    canvas.dispatchEvent(new MouseEvent('mouseleave'));
    expect(tip.hidden).toBe(true);
  });

  it('shows errors in red', async () => {
    setup(() => {
      throw new Error('kind: must be messages or rma');
    });
    await flush();
    expect(host.querySelector('[data-testid=view-error]')!.textContent).toBe('kind: must be messages or rma');
  });

  it('covers the whole trace unzoomed, asked without a window', async () => {
    const { api } = setup(answer, true);
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([{ kind: 'messages' }]);
    expect(scopeOf()).toEqual({ scope: 'trace', from: '', to: '', rows: '', pending: undefined });
    expect(windowText()).toBe('Whole trace: 11 messages, 4,196 bytes');
    expect(chart().dataset['totalCount']).toBe('11');
    expect(chart().dataset['cells']).toBe('0:1:10 1:0:1');
  });

  it('follows the zoomed window, debounced, in whole ns', async () => {
    const { api, timeline } = setup(answer, true);
    await flush();
    timeline.moveTo(1000.4, 9000);
    timeline.moveTo(2000.6, 8000.2);
    await flush();
    expect(api.calls.length).toBe(1);
    await rested();
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([{ kind: 'messages' }, { kind: 'messages', from: 2000, to: 8001 }]);
    expect(scopeOf()).toEqual({ scope: 'window', from: '2000', to: '8001', rows: '', pending: undefined });
    expect(windowText()).toBe('Zoomed window: 2.000 µs – 8.001 µs: 2,001 messages, 16,008 bytes');
    expect(chart().dataset['totalCount']).toBe('2001');
    expect(chart().dataset['cells']).toBe('0:1:2001');
    // Back to the whole trace: asked as at first.
    timeline.moveTo(0, 1_000_000);
    await rested();
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ kind: 'messages' });
    expect(scopeOf().scope).toBe('trace');
  });

  it('covers an area selection at once, with its rows; the window moving under it asks nothing', async () => {
    const { api, timeline, area } = setup(answer, true);
    await flush();
    timeline.moveTo(0, 500_000);
    area.set({ from: 100_000.5, to: 250_000.2, rows: [1, 2] });
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ kind: 'messages', from: 100_000, to: 250_001, rows: [1, 2] });
    expect(scopeOf()).toEqual({ scope: 'selection', from: '100000', to: '250001', rows: '1,2', pending: undefined });
    expect(windowText()).toMatch(/^Selection: 2 rows, 100\.00 µs – 250\.00 µs: 100,001 messages/);
    expect(chart().dataset['totalCount']).toBe('100001');
    const asked = api.calls.length;
    timeline.moveTo(10, 600_000);
    await rested();
    expect(api.calls.length).toBe(asked);
    // Cleared: the zoomed window again.
    area.set(null);
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ kind: 'messages', from: 10, to: 600_000 });
    expect(scopeOf().scope).toBe('window');
  });

  it('asks RMA without a window and says it covers the whole trace; messages follow the area again', async () => {
    const { api, area } = setup(answer, true);
    await flush();
    area.set({ from: 10, to: 20, rows: [0] });
    await flush();
    host.querySelector<HTMLButtonElement>('[data-testid=kind-rma]')!.click();
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ kind: 'rma' });
    expect(scopeOf()).toEqual({ scope: 'trace', from: '', to: '', rows: '', pending: undefined });
    expect(windowText()).toBe('Whole trace (RMA is counted over the whole trace): 0 accesses, 0 bytes');
    // The area moving while RMA is shown asks nothing.
    const asked = api.calls.length;
    area.set({ from: 30, to: 40, rows: [1] });
    await flush();
    expect(api.calls.length).toBe(asked);
    // Back to messages: the new area, asked at once (the cached matrix is of the old one).
    host.querySelector<HTMLButtonElement>('[data-testid=kind-messages]')!.click();
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ kind: 'messages', from: 30, to: 40, rows: [1] });
    expect(scopeOf()).toEqual({ scope: 'selection', from: '30', to: '40', rows: '1', pending: undefined });
    // And RMA again comes from the cache.
    host.querySelector<HTMLButtonElement>('[data-testid=kind-rma]')!.click();
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ kind: 'messages', from: 30, to: 40, rows: [1] });
    expect(scopeOf().scope).toBe('trace');
  });

  it('draws only the newest answer, pending until it comes', async () => {
    const waiting: Array<{ p: MatrixParams; resolve: (r: MatrixResult) => void }> = [];
    const { view, area } = setup((p) => new Promise<MatrixResult>((resolve) => waiting.push({ p, resolve })), true);
    area.set({ from: 10, to: 20, rows: [0] });
    await flush();
    expect(scopeOf().pending).toBe('true');
    expect(waiting.length).toBe(2);
    waiting[1]!.resolve(answer(waiting[1]!.p));
    await flush();
    waiting[0]!.resolve(answer(waiting[0]!.p));
    await flush();
    expect(scopeOf()).toEqual({ scope: 'selection', from: '10', to: '20', rows: '0', pending: undefined });
    expect(chart().dataset['totalCount']).toBe('11');
    const p = new RecordingPainter(500, 300);
    view.paint!(p);
    expect(p.texts()).toContain('11'); // the legend's max: the selection's 0 → 1 count
  });

  it('says there are no messages in the selection, and takes its attributes off the panel when unmounted', async () => {
    const { view, area } = setup((p) => (p.rows ? { ...rma, kind: 'messages', selection: { from: 0, to: 5, rows: 1 } } : messages), true);
    area.set({ from: 0, to: 5, rows: [3] });
    await flush();
    expect(host.querySelector('[data-testid=matrix-empty]')!.textContent).toBe('no messages in the selection');
    expect(chart().dataset['totalCount']).toBe('0');
    view.unmount();
    expect(scopeOf()).toEqual({ scope: undefined, from: undefined, to: undefined, rows: undefined, pending: undefined });
  });

  it('lists the non-empty cells only up to a limit', () => {
    expect(cellList(messages)).toBe('0:1:10 1:0:1');
    expect(cellList(messages, 1)).toBeNull();
  });
});
