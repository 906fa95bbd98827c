// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { HistogramParams, HistogramResult, StatsResult } from '../../protocol/api.gen';
import { fakeContext, flush, RecordingPainter, viewHost } from '../common/testing';
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
  };
}

const host = viewHost();

function setup(handlers = {}) {
  const f = fakeContext({ stats: () => stats, histogram, ...handlers });
  const view = HISTOGRAM_VIEW.create(f.ctx);
  view.mount(host());
  return { ...f, view };
}

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
