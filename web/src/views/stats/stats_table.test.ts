import { describe, expect, it } from 'vitest';
import type { StatsRow } from '../../protocol/api.gen';
import { callsiteText, csvField, nextSort, parseScope, scopeValue, sortRows, statsCsv } from './stats_table';

function row(name: string, total: number, count: number, extra: Partial<StatsRow> = {}): StatsRow {
  return { state: 0, name, callsite: null, count, total, self: total / 2, mean: total / count, min: 1, max: total, stddev: 0.5, share: 0.25, ...extra };
}

const rows = [row('b', 100, 3), row('a', 300, 1), row('C', 200, 2), row('a2', 300, 5)];

describe('sortRows', () => {
  it('sorts numbers both ways, ties by total', () => {
    expect(sortRows(rows, 'count', 'desc').map((r) => r.name)).toEqual(['a2', 'b', 'C', 'a']);
    expect(sortRows(rows, 'count', 'asc').map((r) => r.name)).toEqual(['a', 'C', 'b', 'a2']);
    expect(sortRows(rows, 'total', 'desc').map((r) => r.name)).toEqual(['a', 'a2', 'C', 'b']);
  });
  it('sorts names case-insensitively', () => {
    expect(sortRows(rows, 'name', 'asc').map((r) => r.name)).toEqual(['a', 'a2', 'b', 'C']);
    expect(sortRows(rows, 'name', 'desc').map((r) => r.name)).toEqual(['C', 'b', 'a2', 'a']);
  });
  it('does not change its input', () => {
    const copy = rows.slice();
    sortRows(rows, 'name', 'asc');
    expect(rows).toEqual(copy);
  });
  it('flips the direction on the same column, else starts at the default', () => {
    expect(nextSort({ field: 'total', dir: 'desc' }, 'total')).toEqual({ field: 'total', dir: 'asc' });
    expect(nextSort({ field: 'total', dir: 'asc' }, 'name')).toEqual({ field: 'name', dir: 'asc' });
    expect(nextSort({ field: 'name', dir: 'asc' }, 'mean')).toEqual({ field: 'mean', dir: 'desc' });
  });
});

describe('CSV', () => {
  it('quotes fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField(1.5)).toBe('1.5');
    expect(csvField(NaN)).toBe('');
  });
  it('writes a header and one line per row', () => {
    const csv = statsCsv([
      row('MPI_Send', 1000, 4, { share: 0.5, callsite: { file: 'a.c', line: 12, function: 'f' } }),
      row('x, "y"', 10, 1),
    ]);
    expect(csv).toBe(
      'name,callsite,count,total_ns,self_ns,mean_ns,min_ns,max_ns,stddev_ns,share\r\n' +
        'MPI_Send,f (a.c:12),4,1000,500,250,1,1000,0.5,0.5\r\n' +
        '"x, ""y""",,1,10,5,10,1,10,0.5,0.25\r\n',
    );
  });
  it('formats call sites', () => {
    expect(callsiteText(null)).toBe('');
    expect(callsiteText({ file: 'a.c', line: 0, function: '' })).toBe('a.c');
  });
});

describe('scope', () => {
  it('round-trips selector values', () => {
    for (const s of [{ kind: 'all' } as const, { kind: 'process', index: 3 } as const, { kind: 'thread', index: 12 } as const]) {
      expect(parseScope(scopeValue(s))).toEqual(s);
    }
    expect(parseScope('garbage')).toEqual({ kind: 'all' });
  });
});
