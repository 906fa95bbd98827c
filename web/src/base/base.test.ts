import { describe, expect, it } from 'vitest';
import { colorFromName, darken, hashString, parseHex, textColorOn } from './color';
import { detailResolution, formatBytes, formatCount, formatDuration, formatTicks, formatTime, formatTimeSpan, resolutionFor } from './format';
import { LruCache } from './lru';
import { niceStep, niceTicks } from './ticks';

describe('formatDuration', () => {
  it('picks the unit and keeps 4 significant digits', () => {
    expect(formatDuration(0)).toBe('0 ns');
    expect(formatDuration(850)).toBe('850 ns');
    expect(formatDuration(12_500_000)).toBe('12.5 ms');
    expect(formatDuration(1_234_000_000)).toBe('1.234 s');
    expect(formatDuration(1_234_567_890)).toBe('1.235 s');
    expect(formatDuration(1500)).toBe('1.5 µs');
    expect(formatDuration(-2_000_000)).toBe('-2 ms');
    expect(formatDuration(3_600e9)).toBe('3600 s');
  });
  it('does not print 1000 of a unit when rounding reaches the next', () => {
    expect(formatDuration(999_999.6)).toBe('1 ms');
    expect(formatDuration(999_960, 4)).toBe('1 ms');
  });
});

describe('formatTicks', () => {
  it('uses the step for precision and the largest tick for the unit', () => {
    expect(formatTicks([12_000_000, 12_500_000, 13_000_000], 500_000)).toEqual(['12.0 ms', '12.5 ms', '13.0 ms']);
    expect(formatTicks([1e9, 2e9], 1e9)).toEqual(['1 s', '2 s']);
    expect(formatTicks([0, 5e5, 1e6], 5e5)).toEqual(['0', '0.5 ms', '1.0 ms']);
    expect(formatTicks([200, 250], 50)).toEqual(['200 ns', '250 ns']);
  });
  it('reads seconds on a ruler zoomed in at 1.5 s, not 1500800 µs', () => {
    expect(formatTicks([1_500_800_000, 1_500_801_000], 1000)).toEqual(['1.500800 s', '1.500801 s']);
    expect(formatTicks([999_500_000, 1_000_000_000], 500_000)).toEqual(['0.9995 s', '1.0000 s']);
  });
});

describe('formatTime', () => {
  it('prints a lone time exactly, in the unit of its value, without trailing zeros', () => {
    expect(formatTime(1_500_820_650)).toBe('1.50082065 s');
    expect(formatTime(12_500_000)).toBe('12.5 ms');
    expect(formatTime(850)).toBe('850 ns');
    expect(formatTime(0)).toBe('0 ns');
  });
  it('prints coarser at a coarser resolution', () => {
    expect(formatTime(1_500_820_650, 1000)).toBe('1.500821 s');
    expect(formatTime(1_500_820_650, resolutionFor(20_000))).toBe('1.50082 s');
    expect(formatTime(3e9, 1000)).toBe('3 s');
  });
  it('tells begin from end of a 20.65 µs slice and a 4.5 µs message', () => {
    expect(formatTimeSpan(1_500_800_000, 1_500_820_650)).toEqual(['1.500800000 s', '1.500820650 s']);
    const [send, recv] = formatTimeSpan(1_500_810_000, 1_500_814_500);
    expect(send).toBe('1.500810000 s');
    expect(recv).toBe('1.500814500 s');
    expect(send).not.toBe(recv);
  });
  it('shows long items with fewer digits, still distinct, in one unit', () => {
    expect(formatTimeSpan(1_500_800_000, 4_500_800_000)).toEqual(['1.5008 s', '4.5008 s']);
    expect(formatTimeSpan(900_000, 1_200_000)).toEqual(['0.90000 ms', '1.20000 ms']);
    expect(detailResolution(5, 5)).toBe(1);
  });
});

describe('other formats', () => {
  it('formats counts and bytes', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
  });
});

describe('ticks', () => {
  it('chooses 1, 2, 5 steps', () => {
    expect(niceStep(0.7)).toBe(1);
    expect(niceStep(1.5)).toBe(2);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(7)).toBe(10);
    expect(niceStep(2000)).toBe(2000);
    expect(niceStep(0.03)).toBeCloseTo(0.05);
  });
  it('covers the range with exact multiples', () => {
    const t = niceTicks(0, 10_000_000, 10);
    expect(t.step).toBe(1_000_000);
    expect(t.values).toHaveLength(11);
    expect(t.values[3]).toBe(3_000_000);
    const u = niceTicks(123, 987, 4);
    expect(u.step).toBe(500);
    expect(u.values).toEqual([500]);
    expect(niceTicks(5, 5, 10).values).toEqual([]);
    for (const v of niceTicks(-35, 35, 7).values) expect(Math.abs(v % 10)).toBe(0);
    expect(Object.is(niceTicks(-5, 5, 2).values[1], 0)).toBe(true);
  });
});

describe('colours', () => {
  it('gives the same valid colour for the same name', () => {
    expect(colorFromName('MPI_Send')).toBe(colorFromName('MPI_Send'));
    expect(colorFromName('MPI_Send')).toMatch(/^#[0-9a-f]{6}$/);
    expect(colorFromName('MPI_Send')).not.toBe(colorFromName('MPI_Recv'));
    expect(hashString('')).toBe(0x811c9dc5);
  });
  it('parses, darkens and picks text colour', () => {
    expect(parseHex('#ff8000')).toEqual([255, 128, 0]);
    expect(parseHex('#f80')).toEqual([255, 136, 0]);
    expect(parseHex('red')).toBeNull();
    expect(darken('#ffffff', 0.5)).toBe('#808080');
    expect(textColorOn('#ffffff')).toBe('#000000');
    expect(textColorOn('#000080')).toBe('#ffffff');
  });
});

describe('LruCache', () => {
  it('evicts the least recently used', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now newest
    c.set('c', 3);
    expect(c.has('b')).toBe(false);
    expect(c.keys()).toEqual(['a', 'c']);
    c.set('a', 10);
    c.set('d', 4);
    expect(c.keys()).toEqual(['a', 'd']);
    expect(c.peek('a')).toBe(10);
    expect(c.size).toBe(2);
    expect(() => new LruCache(0)).toThrow();
  });
});
