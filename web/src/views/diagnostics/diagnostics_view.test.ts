// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostics, Finding, WaitInstance, WaitsResult } from '../../protocol/api.gen';
import { fakeContext, flush } from '../common/testing';
import { costText, countWaitKinds, groupCount, groupFindings, repairText, waitText } from './diagnostics_groups';
import { DIAGNOSTICS_VIEW } from './diagnostics_view';

function finding(kind: string, severity: string, text: string, row = 1, slice = -1, cost = 0): Finding {
  return { kind, severity, text, row, begin: 1000, end: 5000, slice, cost };
}

const diagnostics: Diagnostics = {
  repair: { violations_before: 12, violations_after: 0, events_moved: 30, max_shift: 2500 },
  wait_total: 3_500_000,
  findings: [
    finding('late-sender', 'info', 'rank 2 waited 1 µs for rank 0', 3, 18, 1000),
    finding('problem', 'error', 'truncated stream 3', -1),
    finding('deadlock', 'error', 'ranks 0 and 1 wait for each other', 0, 5, 9_000_000),
    finding('late-sender', 'warning', 'rank 1 waited 2 ms for rank 0', 2, 17, 2_000_000),
    finding('imbalance', 'info', 'imbalance: MPI_Comm_size takes 30 ns on rank 3, 50% above the mean', -1, -1, 10),
    finding('custom', 'info', 'something new', -1),
  ],
};

describe('diagnostics groups', () => {
  it('groups by kind, worst and costliest first, and the findings by cost', () => {
    const g = groupFindings(diagnostics.findings);
    expect(g.map((x) => x.kind)).toEqual(['deadlock', 'problem', 'late-sender', 'imbalance', 'custom']);
    expect(g[2]!.findings.map((f) => f.slice)).toEqual([17, 18]);
    expect(g[2]!.severity).toBe('warning');
    expect(g[2]!.cost).toBe(2_001_000);
    expect(g[2]!.title).toBe('Late senders');
    expect(g[4]!.title).toBe('custom');
  });
  it('says what a group cost', () => {
    const [deadlock, problem, late] = groupFindings(diagnostics.findings);
    expect(costText(deadlock!, undefined, false)).toBe('9 ms lost');
    expect(costText(problem!, undefined, false)).toBe('');
    expect(costText(late!, undefined, true)).toBe('2.001 ms lost by the 2 listed');
    expect(costText(late!, 7_500_000, true)).toBe('7.5 ms lost in all, 2.001 ms by the 2 listed');
  });
  it('says when a list is cut: of its total, or that more may follow', () => {
    const late = Array.from({ length: 200 }, (_, i) => finding('late-sender', 'warning', `w${i}`));
    const [g] = groupFindings(late);
    expect(groupCount(g!, 200, { byKind: { 'late-sender': 649 } }, 200)).toEqual({ heading: 'Late senders (200 of 649)', cut: true, total: 649 });
    expect(groupCount(g!, 200, { byKind: { 'late-sender': 200 } }, 200).heading).toBe('Late senders (200)');
    // Only the sum of all wait kinds known: say how many waits are listed.
    expect(groupCount(g!, 200, { byKind: {}, waits: 20000 }, 200).heading).toBe(
      'Late senders (200; the longest 200 of 20,000 waits of all kinds are listed)');
    expect(groupCount(g!, 200, { byKind: {}, waits: 200 }, 200)).toEqual({ heading: 'Late senders (200)', cut: false, total: 200 });
    // Nothing known: a list as long as the limit may go on.
    expect(groupCount(g!, 200, { byKind: {} }, 200).heading).toBe('Late senders (200 listed, maybe more)');
    const [d] = groupFindings([finding('deadlock', 'error', 'd')]);
    expect(groupCount(d!, 200, { byKind: {} }, 200)).toEqual({ heading: 'Deadlocks (1)', cut: false, total: 1 });
    // A kind cut out entirely still has a group.
    const empty = groupFindings(late, ['late-receiver']);
    expect(empty.map((x) => x.kind)).toEqual(['late-sender', 'late-receiver']);
    expect(groupCount(empty[1]!, 200, { byKind: { 'late-receiver': 50 } }, 200).heading).toBe('Late receivers (0 of 50)');
  });
  it('summarises repair and waiting', () => {
    expect(repairText(diagnostics.repair)).toBe(
      'Clock repair: 12 clock condition violations before, 0 after; 30 events moved, by at most 2.5 µs.',
    );
    expect(repairText({ violations_before: 0, violations_after: 0, events_moved: 0, max_shift: 0 })).toBe(
      'Clock repair: no clock condition violations.',
    );
    expect(waitText(3_500_000)).toBe('Total wait time: 3.5 ms');
  });
});

let host: HTMLElement;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => host.remove());

describe('diagnostics view', () => {
  it('shows the summary and findings grouped by kind', async () => {
    const f = fakeContext({ diagnostics: () => diagnostics });
    DIAGNOSTICS_VIEW.create(f.ctx).mount(host);
    expect(host.querySelector('[data-testid=view-loading]')).not.toBeNull();
    await flush();
    expect(host.querySelector('[data-testid=repair-summary]')!.textContent).toContain('12 clock condition violations');
    expect(host.querySelector('[data-testid=wait-total]')!.textContent).toBe('Total wait time: 3.5 ms');
    const groups = [...host.querySelectorAll('[data-testid=finding-group]')].map((g) => g.getAttribute('data-kind'));
    expect(groups).toEqual(['deadlock', 'problem', 'late-sender', 'imbalance', 'custom']);
    const late = [...host.querySelectorAll('[data-testid=finding][data-kind=late-sender]')];
    expect(late.map((e) => e.getAttribute('data-cost'))).toEqual(['2000000', '1000']);
    expect(late[0]!.textContent).toContain('2 ms lost');
    expect(host.querySelector('[data-kind=imbalance] [data-testid=finding]')!.getAttribute('data-severity')).toBe('info');
    expect(host.querySelector('[data-kind=deadlock] [data-testid=finding-group-cost]')!.textContent).toBe('9 ms lost');
    expect(host.querySelectorAll('[data-testid=finding][data-kind=late-sender]')).toHaveLength(2);
    expect(host.querySelector('[data-testid=finding][data-kind=deadlock]')!.getAttribute('data-severity')).toBe('error');
  });

  it('jumps to a finding with a place, not to one without', async () => {
    const f = fakeContext({ diagnostics: () => diagnostics });
    DIAGNOSTICS_VIEW.create(f.ctx).mount(host);
    await flush();
    host.querySelector<HTMLElement>('[data-testid=finding][data-kind=late-sender]')!.click();
    expect(f.timeline.jumps).toEqual([{ row: 2, begin: 1000, end: 5000, slice: 17 }]);
    host.querySelector<HTMLElement>('[data-testid=finding][data-kind=problem]')!.click();
    expect(f.timeline.jumps).toHaveLength(1);
    const deadlock = host.querySelector<HTMLElement>('[data-testid=finding][data-kind=deadlock]')!;
    deadlock.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(f.timeline.jumps[1]).toEqual({ row: 0, begin: 1000, end: 5000, slice: 5 });
  });

  it('heads cut lists with the totals of /waits and /anomalies', async () => {
    const waitFinding = (i: number): Finding => finding('late-sender', 'warning', `w${i}`);
    const instance = (kind: string): WaitInstance => ({
      kind, slice: { id: 1, row: 0, state: 0, begin: 0, end: 1, depth: 0 }, begin: 0, end: 1, cause_row: 1,
    });
    const waits = (limit: number): WaitsResult => ({
      total: { late_sender: 1, late_receiver: 1, collective: 0, total: 2, count: 699 },
      processes: [],
      callsites: [],
      longest: [...Array.from({ length: 649 }, () => instance('late-sender')), ...Array.from({ length: 50 }, () => instance('late-receiver'))].slice(0, limit),
    });
    const f = fakeContext({
      diagnostics: () => ({ ...diagnostics, findings: Array.from({ length: 200 }, (_, i) => waitFinding(i)) }),
      waits: (p) => waits(p.limit ?? 100),
      anomalies: () => ({ method: 'robust', anomalies: [], total: 0 }),
    });
    DIAGNOSTICS_VIEW.create(f.ctx).mount(host);
    await flush();
    await flush();
    const titles = [...host.querySelectorAll('[data-testid=finding-group-title]')].map((h) => h.textContent?.trim());
    expect(titles).toEqual(['⚠ Late senders (200 of 649)', 'ℹ Late receivers (0 of 50)']);
    const group = host.querySelector('[data-testid=finding-group][data-kind=late-sender]')!;
    expect(group.getAttribute('data-cut')).toBe('true');
    expect(group.getAttribute('data-total')).toBe('649');
    expect(f.api.calls.filter((r) => r.endpoint === 'waits').map((r) => r.params)).toEqual([{ limit: 0 }, { limit: 699 }]);
    expect(countWaitKinds(waits(699).longest)).toEqual({ 'late-sender': 649, 'late-receiver': 50 });
  });

  it('says when there is nothing to report', async () => {
    const f = fakeContext({ diagnostics: () => ({ ...diagnostics, findings: [] }) });
    DIAGNOSTICS_VIEW.create(f.ctx).mount(host);
    await flush();
    expect(host.querySelector('[data-testid=no-findings]')).not.toBeNull();
  });

  it('shows errors in red', async () => {
    const f = fakeContext({ diagnostics: () => Promise.reject(new Error('limit: must be positive')) });
    DIAGNOSTICS_VIEW.create(f.ctx).mount(host);
    await flush();
    expect(host.querySelector('[data-testid=view-error]')!.textContent).toBe('limit: must be positive');
  });
});
