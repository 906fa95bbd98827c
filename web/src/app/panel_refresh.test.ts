import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureSummary } from '../views/common/testing';
import { PanelRefresher } from './panel_refresh';

describe('PanelRefresher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('remounts at once, then at most once per interval with the newest summary', () => {
    const seen: number[] = [];
    const r = new PanelRefresher((s) => seen.push(s.slices), 1000, () => Date.now());
    const at = (slices: number) => ({ ...fixtureSummary(), slices });
    r.update(at(1));
    expect(seen).toEqual([1]);
    r.update(at(2));
    r.update(at(3));
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(999);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1, 3]); // 2 was never shown
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual([1, 3]);
  });

  it('cancel drops the waiting remount', () => {
    const seen: number[] = [];
    const r = new PanelRefresher((s) => seen.push(s.slices), 1000, () => Date.now());
    r.update({ ...fixtureSummary(), slices: 1 });
    r.update({ ...fixtureSummary(), slices: 2 });
    r.cancel();
    vi.advanceTimersByTime(2000);
    expect(seen).toEqual([1]);
  });
});
