// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { HistogramParams, HistogramResult, StatsResult } from '../../protocol/api.gen';
import { PANEL_WINDOW_DEBOUNCE_MS } from '../common/panel_window';
import { fakeContext, flush, RecordingPainter, viewHost } from '../common/testing';
import { TimelineArea } from '../timeline/area';
import { HISTOGRAM_VIEW } from './histogram_view';

const stats: StatsResult = {
  scope: 'all',
  thread_time: 1000,
  dropped: null,
  selection: null,
  rows: [
    { state: 0, name: 'compute', callsite: null, count: 5, total: 300, self: 300, mean: 60, min: 1, max: 100, stddev: 3, share: 0.3 },
    { state: 2, name: 'MPI_Wait', callsite: null, count: 5, total: 600, self: 600, mean: 120, min: 1, max: 300, stddev: 3, share: 0.6 },
  ],
};

function histogram(p: HistogramParams): HistogramResult {
  const bins = p.bins ?? 20;
  const edges = Array.from({ length: bins + 1 }, (_, i) => i * 1000);
  const counts = Array.from({ length: bins }, (_, i) => bins - i);
  const sel = p.method === 'percentile' ? 1 : 2;
  return {
    state: p.state,
    edges,
    counts,
    total: counts.reduce((a, b) => a + b, 0),
    min: 0,
    max: bins * 1000,
    selection: Array.from({ length: sel }, (_, i) => ({
      slice: { id: 40 + i, row: i + 1, state: p.state, begin: 5000 + i, end: 5000 + i + bins * 1000 - 10 * i, depth: 0 },
      duration: bins * 1000 - 10 * i,
      median: 1000,
      limit: 3000,
      score: 9,
      method: p.method ?? 'robust',
    })),
    selected: sel,
    area: p.from !== undefined || p.rows ? { from: p.from ?? 0, to: p.to ?? 1_000_000, rows: p.rows?.length ?? 4 } : null,
  };
}

const host = viewHost();

function setup(handlers = {}, withArea = false) {
  const f = fakeContext({ stats: () => stats, histogram, ...handlers });
  // The real timeline has an area selection (timeline/area.ts); the stand-in gets one when asked.
  const area = new TimelineArea();
  if (withArea) Object.assign(f.timeline, { area: () => area.area(), onAreaChange: area.onAreaChange.bind(area) });
  const view = HISTOGRAM_VIEW.create(f.ctx);
  view.mount(host());
  return { ...f, view, area };
}

const rested = () => new Promise<void>((r) => setTimeout(r, PANEL_WINDOW_DEBOUNCE_MS + 50));
const scopeOf = () => {
  const h = host();
  return { scope: h.dataset['scope'], from: h.dataset['from'], to: h.dataset['to'], rows: h.dataset['rows'], pending: h.dataset['pending'] };
};
const windowText = () => host().querySelector('[data-testid=histogram-window]')!.textContent;
const chartCounts = () => host().querySelector<HTMLCanvasElement>('[data-testid=histogram-chart]')!.dataset['counts'];

const histCalls = (api: { calls: { endpoint: string; params: unknown }[] }) =>
  api.calls.filter((c) => c.endpoint === 'histogram').map((c) => c.params as HistogramParams);

describe('histogram view', () => {
  it('starts with the state with the most total time and 20 bins', async () => {
    const { api } = setup();
    expect(host().textContent).toContain('Loading');
    await flush();
    const calls = histCalls(api);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ state: 2, bins: 20, log: false, method: 'robust' });
    expect(host().querySelector<HTMLSelectElement>('[data-testid=state]')!.value).toBe('2');
    expect(host().querySelector('[data-testid=selected-count]')!.textContent).toContain('2 selected');
    expect(host().querySelector('[data-testid=view-loading]')).toBeNull();
  });

  it('highlights the selection in the timeline and clears it on unmount', async () => {
    const { timeline, view } = setup();
    await flush();
    expect(timeline.highlights).toHaveLength(1);
    expect(timeline.highlights[0]!.map((s) => s.id)).toEqual([40, 41]);
    view.unmount();
    expect(timeline.highlights[timeline.highlights.length - 1]).toEqual([]);
  });

  it('refetches with the new bin count when the slider changes', async () => {
    const { api } = setup();
    await flush();
    const slider = host().querySelector<HTMLInputElement>('input[type=range][data-testid=bins]')!;
    expect(slider.min).toBe('1');
    expect(slider.max).toBe('200');
    slider.value = '50';
    slider.dispatchEvent(new Event('input'));
    slider.dispatchEvent(new Event('change'));
    await flush();
    const calls = histCalls(api);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.bins).toBe(50);
    expect(host().querySelector('[data-testid=bins-value]')!.textContent).toBe('50');
  });

  it('refetches on input after a pause', async () => {
    const { api } = setup();
    await flush();
    const slider = host().querySelector<HTMLInputElement>('[data-testid=bins]')!;
    slider.value = '7';
    slider.dispatchEvent(new Event('input'));
    await new Promise((r) => setTimeout(r, 200));
    await flush();
    expect(histCalls(api).map((c) => c.bins)).toEqual([20, 7]);
  });

  it('selects by percentile and log bins', async () => {
    const { api, timeline } = setup();
    await flush();
    host().querySelector<HTMLButtonElement>('[data-testid="select-p99.9"]')!.click();
    await flush();
    host().querySelector<HTMLInputElement>('[data-testid=log-bins]')!.click();
    await flush();
    const calls = histCalls(api);
    expect(calls[1]).toMatchObject({ method: 'percentile', percentile: 99.9 });
    expect(calls[2]).toMatchObject({ method: 'percentile', percentile: 99.9, log: true });
    expect(host().querySelector('[data-testid="select-p99.9"]')!.getAttribute('aria-pressed')).toBe('true');
    expect(host().querySelector('[data-testid=select-robust]')!.getAttribute('aria-pressed')).toBe('false');
    expect(timeline.highlights[timeline.highlights.length - 1]!.map((s) => s.id)).toEqual([40]);
    for (const id of ['robust', 'p90', 'p95', 'p99', 'p99.9']) {
      expect(host().querySelector(`[data-testid="select-${id}"]`)).not.toBeNull();
    }
  });

  it('jumps to a selected slice when it is clicked', async () => {
    const { timeline } = setup();
    await flush();
    const items = host().querySelectorAll<HTMLElement>('[data-testid=selected-slice]');
    expect(items).toHaveLength(2);
    items[1]!.click();
    expect(timeline.jumps).toEqual([{ row: 2, begin: 5001, end: 5001 + 20_000 - 10, slice: 41 }]);
  });

  it('changes state from the picker', async () => {
    const { api } = setup();
    await flush();
    const sel = host().querySelector<HTMLSelectElement>('[data-testid=state]')!;
    sel.value = '1';
    sel.dispatchEvent(new Event('change'));
    await flush();
    expect(histCalls(api)[1]!.state).toBe(1);
  });

  it('shows errors in red inside the view', async () => {
    setup({ histogram: () => Promise.reject(new Error('state 2: no such state')) });
    await flush();
    const err = host().querySelector<HTMLElement>('[data-testid=view-error]')!;
    expect(err.textContent).toBe('state 2: no such state');
    expect(err.style.color).not.toBe('');
  });

  it('covers the whole trace when not zoomed, and says so', async () => {
    const { api } = setup({}, true);
    await flush();
    const calls = histCalls(api);
    expect(calls).toHaveLength(1);
    expect(calls[0]).not.toHaveProperty('from');
    expect(calls[0]).not.toHaveProperty('rows');
    expect(scopeOf()).toEqual({ scope: 'trace', from: '', to: '', rows: '', pending: undefined });
    expect(windowText()).toBe('Whole trace');
    expect(chartCounts()).toBe(Array.from({ length: 20 }, (_, i) => 20 - i).join(','));
  });

  it('covers an area selection at once, pending until its answer, and keeps it over bin changes', async () => {
    const waiting: Array<{ p: HistogramParams; resolve: (r: HistogramResult) => void }> = [];
    const { api, timeline, area } = setup(
      { histogram: (p: HistogramParams) => new Promise<HistogramResult>((resolve) => waiting.push({ p, resolve })) },
      true,
    );
    await flush();
    waiting[0]!.resolve(histogram(waiting[0]!.p));
    await flush();
    area.set({ from: 100_000.5, to: 250_000.2, rows: [1, 2] });
    await flush();
    expect(histCalls(api).at(-1)).toMatchObject({ state: 2, from: 100_000, to: 250_001, rows: [1, 2] });
    expect(scopeOf()).toEqual({ scope: 'trace', from: '', to: '', rows: '', pending: 'true' });
    waiting[1]!.resolve(histogram({ ...waiting[1]!.p, bins: 3 }));
    await flush();
    expect(scopeOf()).toEqual({ scope: 'selection', from: '100000', to: '250001', rows: '1,2', pending: undefined });
    expect(windowText()).toBe('Selection: 2 rows, 100.00 µs – 250.00 µs');
    expect(chartCounts()).toBe('3,2,1');
    // The window moving under a selection asks nothing.
    const asked = api.calls.length;
    timeline.moveTo(10, 600_000);
    await rested();
    expect(api.calls.length).toBe(asked);
    // Other bins: the same area.
    const slider = host().querySelector<HTMLInputElement>('[data-testid=bins]')!;
    slider.value = '5';
    slider.dispatchEvent(new Event('change'));
    await flush();
    expect(histCalls(api).at(-1)).toMatchObject({ bins: 5, from: 100_000, to: 250_001, rows: [1, 2] });
    // Cleared: the zoomed window.
    area.set(null);
    await flush();
    expect(histCalls(api).at(-1)).toMatchObject({ bins: 5, from: 10, to: 600_000 });
    expect(histCalls(api).at(-1)).not.toHaveProperty('rows');
  });

  it('follows the zoomed window once it rests, and takes its marks off when unmounted', async () => {
    const { api, timeline, view } = setup({}, true);
    await flush();
    timeline.moveTo(1000.4, 9000);
    timeline.moveTo(2000.6, 8000.2);
    await flush();
    expect(histCalls(api)).toHaveLength(1);
    await rested();
    await flush();
    expect(histCalls(api).at(-1)).toMatchObject({ from: 2000, to: 8001 });
    expect(scopeOf()).toEqual({ scope: 'window', from: '2000', to: '8001', rows: '', pending: undefined });
    expect(windowText()).toBe('Zoomed window: 2.000 µs – 8.001 µs');
    view.unmount();
    expect(scopeOf()).toEqual({ scope: undefined, from: undefined, to: undefined, rows: undefined, pending: undefined });
  });

  it('paints bars with selected bins highlighted and duration labels', async () => {
    const { view } = setup();
    await flush();
    const p = new RecordingPainter(600, 260);
    view.paint!(p);
    const bars = p.ops.filter((o) => o.op === 'fillRect' && o.args[1] !== 7);
    const colors = new Set(bars.map((b) => b.color));
    expect(colors.has('#2ca02c')).toBe(true); // MPI_Wait's colour
    expect(colors.size).toBe(2); // and the highlight
    expect(p.texts()).toContain('10 µs');
    expect(p.texts().some((t) => t.startsWith('MPI_Wait'))).toBe(true);
    expect(view.exportSize!()).toEqual({ width: 600, height: 260 });
  });
});
