import { describe, expect, it } from 'vitest';
import { emptyView, queryOf, readView, writeView, type ViewState } from './view_url';

const VIEW: ViewState = {
  trace: 't1',
  window: { from: 1500.4, to: 98000.2 },
  selection: { kind: 'slice', id: 42 },
  tab: 'stats',
  hidden: ['MPI_Send', 'a, b & c'],
  folded: ['host:node1', 'process:3'],
  compact: 4,
  labels: 320,
  rows: { sort: 'state:MPI_Wait', filter: 'rank 1, node2', pinned: [7, 3], hideEmpty: true, comm: 'comm 2' },
  paradigm: true,
  series: 'st:MPI_*|avg5|sum;ctr:heap|x2|rate',
};

describe('view URL', () => {
  it('writes a view and reads it back (times to whole ns, outward), keeping the token', () => {
    const params = writeView(VIEW, new URLSearchParams('token=abc&trace=old&sel=m1'));
    expect(params.get('token')).toBe('abc');
    expect(params.get('trace')).toBe('t1');
    expect(params.get('from')).toBe('1500');
    expect(params.get('to')).toBe('98001');
    expect(params.getAll('hide')).toEqual(['MPI_Send', 'a, b & c']);
    expect(params.get('compact')).toBe('4');
    expect(params.get('labels')).toBe('320');
    expect(params.get('sort')).toBe('state:MPI_Wait');
    expect(params.get('pin')).toBe('7,3');
    expect(params.get('empty')).toBe('hide');
    expect(params.get('comm')).toBe('comm 2');
    expect(params.get('series')).toBe('st:MPI_*|avg5|sum;ctr:heap|x2|rate');
    expect(readView(writeView({ ...VIEW, rows: { ...VIEW.rows, sort: 'imbalance' } })).rows.sort).toBe('imbalance');
    const back = readView(new URLSearchParams(queryOf(params)));
    expect(back).toEqual({ ...VIEW, window: { from: 1500, to: 98001 } });
  });

  it('keeps a message selection apart from a slice one', () => {
    const params = writeView({ ...VIEW, selection: { kind: 'message', id: 7 } });
    expect(params.get('sel')).toBe('m7');
    expect(readView(params).selection).toEqual({ kind: 'message', id: 7 });
  });

  it('reads a URL without a view as the empty view, leaving the hidden states to what is saved', () => {
    expect(readView(new URLSearchParams('token=abc'))).toEqual(emptyView());
    expect(readView(new URLSearchParams('token=abc&trace=x')).trace).toBe('x');
    // With a window the URL says which states are hidden, none too.
    expect(readView(new URLSearchParams('from=0&to=10')).hidden).toEqual([]);
  });

  it('clamps the label width and leaves out what is default of the rows', () => {
    expect(readView(new URLSearchParams('labels=5')).labels).toBe(80);
    expect(readView(new URLSearchParams('labels=9999')).labels).toBe(600);
    expect(readView(new URLSearchParams('labels=x')).labels).toBeNull();
    const rows = readView(new URLSearchParams('sort=bogus&pin=2,x,5&empty=no')).rows;
    expect(rows).toEqual({ sort: 'host', filter: '', pinned: [2, 5], hideEmpty: false, comm: '' });
    expect(writeView(emptyView('t')).toString()).toBe('trace=t');
  });

  it('keeps the compact mode: fit or a row height, nothing when off', () => {
    expect(writeView({ ...VIEW, compact: 'fit' }).get('compact')).toBe('fit');
    expect(readView(new URLSearchParams('compact=fit')).compact).toBe('fit');
    expect(readView(new URLSearchParams('compact=8')).compact).toBe(8);
    expect(writeView({ ...VIEW, compact: null }).has('compact')).toBe(false);
  });

  it('ignores malformed parts', () => {
    const v = readView(new URLSearchParams('from=abc&to=10&sel=x12&tab=&fold=&hide=&compact=3'));
    expect(v.compact).toBeNull();
    expect(v.window).toBeNull();
    expect(v.selection).toBeNull();
    expect(v.tab).toBe('');
    expect(v.folded).toEqual([]);
    expect(v.hidden).toEqual([]);
    expect(readView(new URLSearchParams('from=20&to=10')).window).toBeNull();
    expect(queryOf(new URLSearchParams())).toBe('');
  });
});
