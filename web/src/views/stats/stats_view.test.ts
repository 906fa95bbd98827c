// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatsParams, StatsResult } from '../../protocol/api.gen';
import { fakeContext, flush, viewHost } from '../common/testing';
import { STATS_VIEW } from './stats_view';

function stats(p: StatsParams): StatsResult {
  const rows = [
    { state: 0, name: 'compute', callsite: null, count: 10, total: 5_000_000, self: 4_000_000, mean: 500_000, min: 1000, max: 900_000, stddev: 1000, share: 0.4 },
    { state: 1, name: 'MPI_Send', callsite: null, count: 30, total: 2_000_000, self: 2_000_000, mean: 66_666, min: 10, max: 100_000, stddev: 50, share: 0.2 },
    { state: 2, name: 'MPI_Wait', callsite: null, count: 5, total: 3_000_000, self: 3_000_000, mean: 600_000, min: 100, max: 2_000_000, stddev: 5000, share: 0.3 },
  ];
  if (p.callsites) rows[1]!.callsite = { file: 'x.c', line: 3, function: 'send_all' } as never;
  return { scope: p.thread !== undefined ? `thread ${p.thread}` : 'all', thread_time: 10_000_000, rows, dropped: null };
}

const host = viewHost();
afterEach(() => vi.restoreAllMocks());

function setup(handlers = {}) {
  const f = fakeContext({ stats, ...handlers });
  const view = STATS_VIEW.create(f.ctx);
  view.mount(host());
  return { ...f, view };
}

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

  it('shows errors in red', async () => {
    setup({ stats: () => Promise.reject(new Error('thread 99: out of range')) });
    await flush();
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toBe('thread 99: out of range');
  });
});
