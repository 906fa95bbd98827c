import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CELL, heatColor, HEAT_STOPS, normalize } from './colors';
import { debounce, errorMessage, RequestSeq } from './dom';
import { formatAverage, formatDurationTicks, formatPercent, formatShort, trimNumber } from './format';
import { linearScale, logScale, logTicks, niceStep, niceTicks } from './ticks';

afterEach(() => vi.useRealTimers());

describe('ticks', () => {
  it('picks 1-2-5 steps', () => {
    expect(niceStep(100, 10)).toBe(10);
    expect(niceStep(100, 5)).toBe(20);
    expect(niceStep(1, 3)).toBeCloseTo(0.5);
    expect(niceStep(7, 1)).toBe(10);
  });
  it('gives round values inside the range', () => {
    expect(niceTicks(0, 100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0.1, 0.95, 4)).toEqual([0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(3, 3)).toEqual([3]);
    expect(niceTicks(1_000_000, 3_500_000, 5)).toEqual([1_000_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000, 3_500_000]);
  });
  it('gives powers of ten for log axes', () => {
    expect(logTicks(1, 1e6, 6)).toEqual([1, 10, 100, 1000, 1e4, 1e5, 1e6]);
    expect(logTicks(15, 90)).toEqual([20, 50]);
    expect(logTicks(0, 10)).toEqual([]);
  });
  it('maps and inverts linear and log scales', () => {
    const s = linearScale(0, 10, 100, 200);
    expect(s(5)).toBe(150);
    expect(s.invert(150)).toBe(5);
    const l = logScale(1, 1000, 0, 300);
    expect(l(10)).toBeCloseTo(100);
    expect(l.invert(200)).toBeCloseTo(100);
    expect(l(0)).toBe(0);
  });
});

describe('format', () => {
  it('trims numbers', () => {
    expect(trimNumber(1.5)).toBe('1.5');
    expect(trimNumber(1.23456)).toBe('1.23');
    expect(trimNumber(12345)).toBe('12345');
  });
  it('labels duration ticks with their step precision', () => {
    expect(formatDurationTicks([1_000_000, 1_500_000, 2_000_000], true)).toEqual(['1.0 ms', '1.5 ms', '2.0 ms']);
    expect(formatDurationTicks([0, 500, 1000], true)[0]).toBe('0');
    expect(formatDurationTicks([1000, 1_000_000], false)).toEqual(['1 µs', '1 ms']);
  });
  it('formats shares, short numbers and averages', () => {
    expect(formatPercent(0.1234)).toBe('12.3%');
    expect(formatPercent(0.0001)).toBe('<0.1%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatShort(25_000)).toBe('25k');
    expect(formatShort(2_000_000)).toBe('2M');
    expect(formatShort(150)).toBe('150');
    expect(formatAverage(2.5)).toBe('2.5');
    expect(formatAverage(1 / 3)).toBe('0.33');
  });
});

describe('colours', () => {
  it('runs from the cold to the hot stop', () => {
    expect(heatColor(0)).toBe(HEAT_STOPS[0]);
    expect(heatColor(1)).toBe(HEAT_STOPS[HEAT_STOPS.length - 1]);
    expect(heatColor(0.5)).toBe('#ffffbf');
    expect(heatColor(-1)).toBe(HEAT_STOPS[0]);
    expect(heatColor(NaN)).toBe(HEAT_STOPS[0]);
    expect(EMPTY_CELL).toMatch(/^#[0-9a-f]{6}$/);
  });
  it('normalises linearly or logarithmically', () => {
    expect(normalize(5, 10, false)).toBe(0.5);
    expect(normalize(10, 10, true)).toBe(1);
    expect(normalize(0, 10, true)).toBe(0);
    expect(normalize(9, 99, true)).toBeCloseTo(0.5);
    expect(normalize(1, 0, false)).toBe(0);
  });
});

describe('dom helpers', () => {
  it('debounces', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const d = debounce(fn, 100);
    d(1);
    d(2);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledWith(2);
    d(3);
    d.cancel();
    vi.advanceTimersByTime(200);
    expect(fn).toHaveBeenCalledTimes(1);
  });
  it('keeps only the newest request current', () => {
    const s = new RequestSeq();
    const a = s.next();
    const b = s.next();
    expect(s.isCurrent(a)).toBe(false);
    expect(s.isCurrent(b)).toBe(true);
    s.invalidate();
    expect(s.isCurrent(b)).toBe(false);
  });
  it('extracts error messages', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage({ error: 'bad state' })).toBe('bad state');
    expect(errorMessage('x')).toBe('x');
  });
});
