import { describe, expect, it } from 'vitest';
import { formatTime } from './format';
import { parseAmount, parseTime } from './parse_time';

describe('parseTime', () => {
  it('reads numbers with units', () => {
    expect(parseTime('12.5ms')).toBe(12_500_000);
    expect(parseTime('1.2s')).toBe(1_200_000_000);
    expect(parseTime(' 350 us ')).toBe(350_000);
    expect(parseTime('350µs')).toBe(350_000);
    expect(parseTime('2 MS')).toBe(2_000_000);
    expect(parseTime('1min')).toBe(60e9);
    expect(parseTime('.5s')).toBe(500_000_000);
    expect(parseTime('3e3us')).toBe(3_000_000);
  });
  it('reads a plain number as ns, rounded to whole ns', () => {
    expect(parseTime('1500')).toBe(1500);
    expect(parseTime('12.345678ms')).toBe(12_345_678);
    expect(parseTime('0.4')).toBe(0);
  });
  it('refuses what is not a time', () => {
    for (const bad of ['', ' ', 'abc', '-5ms', '12 parsecs', '1..2ms', 'ms', '5 m s']) {
      expect(parseTime(bad), bad).toBeNull();
    }
  });
  it('reads back what formatTime writes', () => {
    for (const ns of [0, 850, 12_500_000, 1_234_567_000, 999_960]) {
      const back = parseTime(formatTime(ns));
      expect(back).not.toBeNull();
      expect(Math.abs(back! - ns)).toBeLessThanOrEqual(Math.max(1, ns * 1e-5));
    }
  });
});

describe('parseAmount', () => {
  it('reads plain numbers and k/M/G suffixes', () => {
    expect(parseAmount('1024')).toBe(1024);
    expect(parseAmount('2.5e3')).toBe(2500);
    expect(parseAmount('4k')).toBe(4000);
    expect(parseAmount('1 MB')).toBe(1e6);
    expect(parseAmount('0.5')).toBe(0.5);
    expect(parseAmount('x')).toBeNull();
    expect(parseAmount('-1')).toBeNull();
  });
});
