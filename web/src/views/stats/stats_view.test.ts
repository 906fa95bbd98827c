// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatsParams, StatsResult } from '../../protocol/api.gen';
import { TimelineArea } from '../timeline/area';
import { fakeContext, flush, viewHost } from '../common/testing';
import { STATS_VIEW, WINDOW_DEBOUNCE_MS } from './stats_view';

function stats(p: StatsParams): StatsResult {
  const rows = [
    { state: 0, name: 'compute', callsite: null, count: 10, total: 5_000_000, self: 4_000_000, mean: 500_000, min: 1000, max: 900_000, stddev: 1000, share: 0.4 },
    { state: 1, name: 'MPI_Send', callsite: null, count: 30, total: 2_000_000, self: 2_000_000, mean: 66_666, min: 10, max: 100_000, stddev: 50, share: 0.2 },
    { state: 2, name: 'MPI_Wait', callsite: null, count: 5, total: 3_000_000, self: 3_000_000, mean: 600_000, min: 100, max: 2_000_000, stddev: 5000, share: 0.3 },
  ];
  if (p.callsites) rows[1]!.callsite = { file: 'x.c', line: 3, function: 'send_all' } as never;
  const selection = p.from !== undefined || p.to !== undefined || p.rows ? { from: p.from ?? 0, to: p.to ?? 1_000_000, rows: p.rows?.length ?? 4 } : null;
  return { scope: p.thread !== undefined ? `thread ${p.thread}` : 'all', thread_time: 10_000_000, rows, dropped: null, selection };
}

const host = viewHost();
afterEach(() => vi.restoreAllMocks());

function setup(handlers = {}, withArea = false) {
  const f = fakeContext({ stats, ...handlers });
  // The real timeline has an area selection (timeline/area.ts); the stand-in gets one when asked.
  const area = new TimelineArea();
  if (withArea) Object.assign(f.timeline, { area: () => area.area(), onAreaChange: area.onAreaChange.bind(area) });
  const view = STATS_VIEW.create(f.ctx);
  view.mount(host());
  return { ...f, view, area };
}

const rested = () => new Promise<void>((r) => setTimeout(r, WINDOW_DEBOUNCE_MS + 50));
const scopeOf = () => {
  const h = host();
  return { scope: h.dataset['scope'], from: h.dataset['from'], to: h.dataset['to'], rows: h.dataset['rows'], pending: h.dataset['pending'] };
};
const windowText = () => host().querySelector('[data-testid=stats-window]')!.textContent;

const names = () => [...host().querySelectorAll('[data-testid=stats-row] td.name')].map((td) => td.childNodes[1]!.textContent);

describe('stats view', () => {
  it('shows what a live history window dropped, per state', async () => {
    const dropped = { records: 12345, sends: 10, receives: 9, bytes_sent: 640, states: [{ name: 'compute', count: 7, total: 3_000_000 }, { name: 'MPI_Recv', count: 4, total: 1_000 }] };
    setup({ stats: (p: StatsParams) => ({ ...stats(p), dropped }) });
    await flush();
    const rows = [...host().querySelectorAll('[data-testid=stats-dropped-row]')].map((tr) => tr.textContent);
    expect(rows).toEqual(['compute73 ms', 'MPI_Recv41 µs']);
    const text = host().querySelector('[data-testid=stats-dropped]')!.textContent!;
    expect(text).toContain('12,345 records dropped');
    expect(text).toContain('10 sends (640 bytes), 9 receives');
    expect(host().querySelector('[data-testid=stats-info]')!.textContent).toContain('window only');
  });

  it('shows no dropped section for a file', async () => {
    setup();
    await flush();
    expect(host().querySelector('[data-testid=stats-dropped]')!.children.length).toBe(0);
    expect(host().querySelector('[data-testid=stats-info]')!.textContent).not.toContain('window');
  });

  it('shows the rows by total time with all columns and swatches', async () => {
    setup();
    expect(host().querySelector('[data-testid=view-loading]')).not.toBeNull();
    await flush();
    expect(names()).toEqual(['compute', 'MPI_Wait', 'MPI_Send']);
    const heads = [...host().querySelectorAll('th[data-sort]')].map((th) => th.getAttribute('data-sort'));
    expect(heads).toEqual(['name', 'count', 'total', 'self', 'mean', 'min', 'max', 'stddev', 'share']);
    const first = host().querySelector('[data-testid=stats-row]')!;
    expect(first.textContent).toContain('5 ms');
    expect(first.textContent).toContain('40.0%');
    const swatch = first.querySelector<HTMLElement>('[data-testid=swatch]')!;
    expect(swatch.style.background).toMatch(/rgb\(31, 119, 180\)|#1f77b4/);
  });

  it('sorts by a clicked header and toggles the direction', async () => {
    setup();
    await flush();
    const count = host().querySelector<HTMLElement>('th[data-sort=count]')!;
    count.click();
    expect(names()).toEqual(['MPI_Send', 'compute', 'MPI_Wait']);
    expect(count.getAttribute('aria-sort')).toBe('descending');
    count.click();
    expect(names()).toEqual(['MPI_Wait', 'compute', 'MPI_Send']);
    expect(count.getAttribute('aria-sort')).toBe('ascending');
    host().querySelector<HTMLElement>('th[data-sort=name]')!.click();
    expect(names()).toEqual(['compute', 'MPI_Send', 'MPI_Wait']);
  });

  it('asks for a thread scope and call sites', async () => {
    const { api } = setup();
    await flush();
    host().querySelector<HTMLInputElement>('[data-testid=stats-callsites]')!.click();
    await flush();
    expect(api.calls[1]!.params).toEqual({ callsites: true });
    expect(host().textContent).toContain('send_all (x.c:3)');
    const scope = host().querySelector<HTMLSelectElement>('[data-testid=stats-scope]')!;
    scope.value = 't2';
    scope.dispatchEvent(new Event('change'));
    await flush();
    expect(api.calls[2]!.params).toEqual({ thread: 2 });
    expect(host().querySelector<HTMLInputElement>('[data-testid=stats-callsites]')!.disabled).toBe(true);
    expect(host().querySelector('[data-testid=stats-info]')!.textContent).toContain('thread 2');
    scope.value = 'p1';
    scope.dispatchEvent(new Event('change'));
    await flush();
    expect(api.calls[3]!.params).toEqual({ process: 1 });
  });

  it('downloads the table as CSV in the shown order', async () => {
    setup();
    await flush();
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      blobs.push(b);
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    let name = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    host().querySelector<HTMLElement>('th[data-sort=name]')!.click();
    host().querySelector<HTMLButtonElement>('[data-testid=stats-csv]')!.click();
    expect(name).toBe('run-stats.csv');
    const text = await blobs[0]!.text();
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('name,callsite,count,total_ns,self_ns,mean_ns,min_ns,max_ns,stddev_ns,share');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['compute', 'MPI_Send', 'MPI_Wait']);
  });

  it('says it covers the whole trace and asks without a window when not zoomed', async () => {
    const { api } = setup({}, true);
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([{}]);
    expect(scopeOf()).toEqual({ scope: 'trace', from: '', to: '', rows: '', pending: undefined });
    expect(windowText()).toBe('Whole trace');
  });

  it('follows the zoomed window, debounced, in whole ns', async () => {
    const { api, timeline } = setup({}, true);
    await flush();
    timeline.moveTo(1000.4, 9000);
    timeline.moveTo(2000.6, 8000.2);
    await flush();
    expect(api.calls.length).toBe(1);
    await rested();
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([{}, { from: 2000, to: 8001 }]);
    expect(scopeOf()).toEqual({ scope: 'window', from: '2000', to: '8001', rows: '', pending: undefined });
    expect(windowText()).toBe('Zoomed window: 2.000 µs – 8.001 µs');
    // Call sites are for the whole trace only.
    expect(host().querySelector<HTMLInputElement>('[data-testid=stats-callsites]')!.disabled).toBe(true);
    // Back to the whole trace: asked as at first.
    timeline.moveTo(0, 1_000_000);
    await rested();
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({});
    expect(scopeOf().scope).toBe('trace');
    expect(host().querySelector<HTMLInputElement>('[data-testid=stats-callsites]')!.disabled).toBe(false);
  });

  it('covers an area selection at once, with its rows, combined with the process scope', async () => {
    const { api, timeline, area } = setup({}, true);
    await flush();
    timeline.moveTo(0, 500_000);
    area.set({ from: 100_000.5, to: 250_000.2, rows: [1, 2] });
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ from: 100_000, to: 250_001, rows: [1, 2] });
    expect(scopeOf()).toEqual({ scope: 'selection', from: '100000', to: '250001', rows: '1,2', pending: undefined });
    expect(windowText()).toBe('Selection: 2 rows, 100.00 µs – 250.00 µs');
    // The window moving under a selection asks nothing.
    const asked = api.calls.length;
    timeline.moveTo(10, 600_000);
    await rested();
    expect(api.calls.length).toBe(asked);
    const scope = host().querySelector<HTMLSelectElement>('[data-testid=stats-scope]')!;
    scope.value = 'p1';
    scope.dispatchEvent(new Event('change'));
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ process: 1, from: 100_000, to: 250_001, rows: [1, 2] });
    // Cleared: the zoomed window again.
    area.set(null);
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ process: 1, from: 10, to: 600_000 });
    expect(scopeOf().scope).toBe('window');
  });

  it('shows only the newest answer, pending until it comes', async () => {
    const waiting: Array<{ p: StatsParams; resolve: (r: StatsResult) => void }> = [];
    const { area } = setup({ stats: (p: StatsParams) => new Promise<StatsResult>((resolve) => waiting.push({ p, resolve })) }, true);
    area.set({ from: 10, to: 20, rows: [0] });
    await flush();
    expect(scopeOf().pending).toBe('true');
    expect(waiting.length).toBe(2);
    waiting[1]!.resolve(stats(waiting[1]!.p));
    await flush();
    waiting[0]!.resolve({ ...stats(waiting[0]!.p), rows: [] });
    await flush();
    expect(scopeOf()).toEqual({ scope: 'selection', from: '10', to: '20', rows: '0', pending: undefined });
    expect(names()).toEqual(['compute', 'MPI_Wait', 'MPI_Send']);
  });

  it('takes its attributes off the panel when unmounted', async () => {
    const { view } = setup({}, true);
    await flush();
    expect(scopeOf().scope).toBe('trace');
    view.unmount();
    expect(scopeOf()).toEqual({ scope: undefined, from: undefined, to: undefined, rows: undefined, pending: undefined });
  });

  it('shows errors in red', async () => {
    setup({ stats: () => Promise.reject(new Error('thread 99: out of range')) });
    await flush();
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toBe('thread 99: out of range');
  });
});
