import { describe, expect, it } from 'vitest';
import { panelWindow, windowAttributes, windowKey, windowLine, windowParams } from './panel_window';

describe('panel window', () => {
  it('is the whole trace when the window shows all of it', () => {
    const w = panelWindow(null, { from: 0, to: 5000 }, 5000);
    expect(w).toEqual({ kind: 'trace' });
    expect(windowParams(w)).toEqual({});
    expect(windowLine(w)).toBe('Whole trace');
    expect(windowAttributes(w)).toEqual({ 'data-scope': 'trace', 'data-from': '', 'data-to': '', 'data-rows': '' });
  });

  it('is the zoomed window in whole ns, widened outwards and kept within the trace', () => {
    const w = panelWindow(null, { from: 1200.7, to: 3400.2 }, 5000);
    expect(w).toEqual({ kind: 'window', from: 1200, to: 3401 });
    expect(windowParams(w)).toEqual({ from: 1200, to: 3401 });
    expect(windowLine(w)).toBe('Zoomed window: 1.200 µs – 3.401 µs');
    expect(panelWindow(null, { from: -3, to: 4000 }, 3000)).toEqual({ kind: 'trace' });
    expect(panelWindow(null, { from: 10, to: 4000 }, 3000)).toEqual({ kind: 'window', from: 10, to: 3000 });
  });

  it('is the area selection when there is one, zoomed or not', () => {
    const w = panelWindow({ from: 1_200_000.2, to: 3_400_000, rows: [0, 3, 4, 5] }, { from: 0, to: 5e6 }, 5e6);
    expect(w).toEqual({ kind: 'selection', from: 1_200_000, to: 3_400_000, rows: [0, 3, 4, 5] });
    if (w.kind !== 'selection') return;
    expect(windowParams(w)).toEqual({ from: 1_200_000, to: 3_400_000, rows: [0, 3, 4, 5] });
    expect(windowLine(w)).toBe('Selection: 4 rows, 1.2000 ms – 3.4000 ms');
    expect(windowLine({ ...w, rows: [2] })).toBe('Selection: 1 row, 1.2000 ms – 3.4000 ms');
    expect(windowAttributes(w)).toEqual({ 'data-scope': 'selection', 'data-from': '1200000', 'data-to': '3400000', 'data-rows': '0,3,4,5' });
  });

  it('keys equal windows equally', () => {
    expect(windowKey({ kind: 'window', from: 1, to: 2 })).toBe(windowKey(panelWindow(null, { from: 1.5, to: 1.5 }, 10)));
    expect(windowKey({ kind: 'window', from: 1, to: 2 })).not.toBe(windowKey({ kind: 'selection', from: 1, to: 2, rows: [] }));
    expect(windowKey({ kind: 'selection', from: 1, to: 2, rows: [1] })).not.toBe(windowKey({ kind: 'selection', from: 1, to: 2, rows: [2] }));
  });
});
