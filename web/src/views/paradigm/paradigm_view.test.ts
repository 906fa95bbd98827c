// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { StatsParams, StatsResult } from '../../protocol/api.gen';
import { fakeContext, flush, viewHost } from '../common/testing';
import { TimelineArea } from '../timeline/area';
import { PARADIGM_VIEW } from './paradigm_view';

// fixtureSummary's states: compute (computing), MPI_Send and MPI_Wait (point-to-point).
function stats(p: StatsParams): StatsResult {
  const k = p.process === undefined ? 2 : p.process + 1; // process 0: ×1, process 1: ×2, all: ×2 … distinct per scope
  const rows = [
    { state: 0, name: 'compute', callsite: null, count: 1, total: 500 * k, self: 400 * k, mean: 0, min: 0, max: 0, stddev: 0, share: 0 },
    { state: 1, name: 'MPI_Send', callsite: null, count: 1, total: 100 * k, self: 100 * k, mean: 0, min: 0, max: 0, stddev: 0, share: 0 },
    { state: 2, name: 'MPI_Wait', callsite: null, count: 1, total: 300 * k, self: 300 * k, mean: 0, min: 0, max: 0, stddev: 0, share: 0 },
  ];
  return { scope: 'all', thread_time: 1000 * k, rows, dropped: null, selection: null };
}

const diagnostics = () => ({ repair: { violations_before: 0, violations_after: 0, events_moved: 0, max_shift: 0 }, wait_total: 0, findings: [] });
const host = viewHost();

function setup(handlers = {}) {
  const f = fakeContext({ stats, diagnostics, ...handlers });
  const area = new TimelineArea();
  Object.assign(f.timeline, { area: () => area.area(), onAreaChange: area.onAreaChange.bind(area) });
  const view = PARADIGM_VIEW.create(f.ctx);
  view.mount(host());
  return { ...f, view, area };
}

const totals = () => Object.fromEntries([...host().querySelectorAll<HTMLElement>('[data-testid=paradigm-total]')].map((tr) => [tr.dataset['paradigm'], Number(tr.dataset['ns'])]));
const segments = (process: number) =>
  Object.fromEntries(
    [...host().querySelectorAll<HTMLElement>(`[data-testid=paradigm-process][data-process="${process}"] [data-testid=paradigm-segment]`)].map((s) => [s.dataset['paradigm'], Number(s.dataset['ns'])]),
  );

describe('paradigm view', () => {
  it('shows time per paradigm in all and per process, from /stats', async () => {
    setup();
    await flush();
    expect(totals()).toMatchObject({ computing: 800 + 400, p2p: 800, collective: 0, sync: 0 });
    expect(segments(0)).toEqual({ computing: 400 + 200, p2p: 400 });
    expect(segments(1)).toEqual({ computing: 1200, p2p: 800 });
    const seg = host().querySelector<HTMLElement>('[data-testid=paradigm-process][data-process="0"] [data-testid=paradigm-segment][data-paradigm=p2p]')!;
    expect(seg.style.width).toBe('40%');
    expect(host().querySelector('[data-testid=paradigm-program]')!.textContent).toContain('Program: finished');
  });

  it('follows an area selection: its window and the processes with rows in it', async () => {
    const { api, area } = setup();
    await flush();
    api.calls.length = 0;
    area.set({ from: 100, to: 200, rows: [2, 3] });
    await flush();
    const asked = api.calls.filter((c) => c.endpoint === 'stats').map((c) => c.params);
    expect(asked).toEqual([
      { from: 100, to: 200, rows: [2, 3] },
      { from: 100, to: 200, rows: [2, 3], process: 1 },
    ]);
    expect(host().querySelectorAll('[data-testid=paradigm-process]').length).toBe(1);
    expect(host().dataset['scope']).toBe('selection');
  });

  it('tells a deadlock and a live program', async () => {
    const finding = { kind: 'deadlock', severity: 'error', text: 'deadlock: ranks 0, 1 wait for each other', row: 0, begin: 0, end: 0, slice: -1, cost: 0 };
    setup({ diagnostics: () => ({ ...diagnostics(), findings: [finding] }) });
    await flush();
    const program = host().querySelector<HTMLElement>('[data-testid=paradigm-program]')!;
    expect(program.dataset['state']).toBe('deadlocked');

    const f = fakeContext({ stats, diagnostics, live: () => ({ program: 'running' }) as never });
    f.updates.isLive = true;
    const view = PARADIGM_VIEW.create(f.ctx);
    const h = document.createElement('div');
    view.mount(h);
    await flush();
    expect(h.querySelector<HTMLElement>('[data-testid=paradigm-program]')!.dataset['state']).toBe('running');
    view.unmount();
  });
});
