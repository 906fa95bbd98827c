// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fakeContext, fixtureSummary, flush, viewHost } from '../common/testing';
import { commandLine, formatDrift, formatOffset, formatRank, recordsText, threadSpan } from './processes_table';
import { PROCESSES_VIEW } from './processes_view';

describe('process texts', () => {
  it('formats command lines, clocks and ranks', () => {
    expect(commandLine({ executable: '/bin/app', arguments: '-n 4' })).toBe('/bin/app -n 4');
    expect(commandLine({ executable: '', arguments: '' })).toBe('');
    expect(formatOffset(1500)).toBe('+1.5 µs');
    expect(formatOffset(-20)).toBe('-20 ns');
    expect(formatOffset(0)).toBe('0');
    expect(formatDrift(2.5)).toBe('+2.5 ppm');
    expect(formatDrift(-0.125)).toBe('-0.125 ppm');
    expect(formatRank(-1)).toBe('—');
    expect(formatRank(3)).toBe('3');
    expect(recordsText(1)).toBe('1 record');
    expect(recordsText(1234)).toBe('1,234 records');
    expect(threadSpan({ begin: 0, end: 1_500_000 })).toBe('0.0000 ms – 1.5000 ms');
  });
});

const host = viewHost();

describe('processes view', () => {
  it('lists processes with their threads; a thread jumps to its row over its span', async () => {
    const summary = fixtureSummary();
    const f = fakeContext({ processes: () => summary.processes }, summary);
    PROCESSES_VIEW.create(f.ctx).mount(host());
    expect(host().querySelector('[data-testid=view-loading]')).not.toBeNull();
    await flush();
    const procs = host().querySelectorAll('[data-testid=process]');
    expect(procs).toHaveLength(2);
    expect(procs[1]!.textContent).toContain('node2');
    expect(procs[1]!.textContent).toContain('/bin/app -n 4');
    expect(procs[1]!.textContent).toContain('+1.5 µs');
    expect(procs[1]!.textContent).toContain('+2.5 ppm');
    const threads = host().querySelectorAll<HTMLElement>('[data-testid=thread]');
    expect(threads).toHaveLength(4);
    expect(threads[3]!.textContent).toContain('worker <io> (tid 201)');
    threads[3]!.click();
    expect(f.timeline.jumps).toEqual([{ row: 3, begin: 5000, end: 700_000 }]);
    expect(host().querySelector('[data-testid=view-loading]')).toBeNull();
  });

  it('shows errors in red', async () => {
    const f = fakeContext({ processes: () => Promise.reject(new Error('trace t0 is still loading')) });
    PROCESSES_VIEW.create(f.ctx).mount(host());
    await flush();
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toBe('trace t0 is still loading');
  });
});
