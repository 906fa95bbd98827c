import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fixtureSummary } from '../views/common/testing';
import { RepairWatch } from './repair_watch';

describe('RepairWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls the summary while the repair runs, then hands over the repaired one', async () => {
    const answers = [
      { ...fixtureSummary(), repairing: true, repair_progress: 0.5 },
      { ...fixtureSummary(), repairing: false, repair_progress: 1, duration: 7 },
    ];
    const api = fakeApi({ summary: () => answers.shift()! });
    const progress: number[] = [];
    const repaired: number[] = [];
    const w = new RepairWatch({ api, onProgress: (f) => progress.push(f), onRepaired: (s) => repaired.push(s.duration), pollMs: 100 });
    w.start({ ...fixtureSummary(), repairing: true, repair_progress: 0.25 });
    expect(progress).toEqual([0.25]);
    await vi.advanceTimersByTimeAsync(100);
    expect(progress).toEqual([0.25, 0.5]);
    expect(repaired).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(repaired).toEqual([7]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(api.calls.length).toBe(2); // no more polls
  });

  it('does nothing for a summary on the repaired times, and stops when told', async () => {
    const api = fakeApi({ summary: () => ({ ...fixtureSummary(), repairing: true, repair_progress: 0.1 }) });
    const w = new RepairWatch({ api, onProgress: () => {}, onRepaired: () => {}, pollMs: 100 });
    w.start(fixtureSummary());
    await vi.advanceTimersByTimeAsync(500);
    expect(api.calls.length).toBe(0);
    w.start({ ...fixtureSummary(), repairing: true, repair_progress: 0 });
    await vi.advanceTimersByTimeAsync(250);
    expect(api.calls.length).toBe(2);
    w.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(api.calls.length).toBe(2);
  });

  it('tries again after a failed request', async () => {
    let fail = true;
    const api = fakeApi({
      summary: () => {
        if (fail) {
          fail = false;
          throw new Error('down');
        }
        return fixtureSummary();
      },
    });
    const repaired: boolean[] = [];
    const w = new RepairWatch({ api, onProgress: () => {}, onRepaired: () => repaired.push(true), pollMs: 100 });
    w.start({ ...fixtureSummary(), repairing: true, repair_progress: 0 });
    await vi.advanceTimersByTimeAsync(200);
    expect(repaired).toEqual([true]);
  });
});
