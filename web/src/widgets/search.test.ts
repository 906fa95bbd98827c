// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { SearchResult, SliceRef, TraceSummary } from '../protocol/api.gen';
import type { ApiClient } from '../views/context';
import { MATCH_CONTEXT, matchWindow, SearchBox } from './search';

describe('matchWindow', () => {
  const w = { from: 0, to: 1_000_000 };
  it('keeps the zoom and centres a match that fits', () => {
    expect(matchWindow(w, { begin: 2_000_000, end: 2_001_500 })).toEqual({ from: 1_500_750, to: 2_500_750 });
  });
  it('zooms out to show a longer match with context, never in', () => {
    const m = { begin: 5_000_000, end: 5_800_000 };
    const got = matchWindow(w, m);
    expect(got.to - got.from).toBe(800_000 * MATCH_CONTEXT);
    expect(got.from).toBeLessThan(m.begin);
    expect(got.to).toBeGreaterThan(m.end);
  });
});

describe('SearchBox', () => {
  const slices: SliceRef[] = [
    { id: 7, row: 0, state: 0, begin: 100, end: 200, depth: 0 },
    { id: 9, row: 0, state: 0, begin: 300, end: 400, depth: 0 },
  ];
  const summary = { states: [{ index: 0, name: 'MPI_Recv', category: '', color: '#ff0000' }], threads: [], processes: [] } as unknown as TraceSummary;
  const api: ApiClient = {
    get: (() => Promise.resolve({ states: [0], event_types: [], slices, total: 2 } as unknown as SearchResult)) as ApiClient['get'],
  };

  it('folds the list away once a match is chosen and steps with the arrows', async () => {
    const chosen: number[] = [];
    const box = new SearchBox(api, summary, (s) => chosen.push(s.id));
    document.body.append(box.el);
    box.input.value = 'Recv';
    await box.run();
    const list = box.el.querySelector('[data-testid=search-results]') as HTMLElement;
    expect(list.hidden).toBe(false);
    (list.querySelector('button') as HTMLButtonElement).click();
    expect(chosen).toEqual([7]);
    expect(list.hidden).toBe(true);
    box.input.dispatchEvent(new Event('focus'));
    expect(list.hidden).toBe(true);
    (box.el.querySelector('[data-testid=search-next]') as HTMLButtonElement).click();
    await new Promise((r) => setTimeout(r, 0));
    expect(chosen).toEqual([7, 9]);
    expect(box.el.querySelector('[data-testid=search-count]')!.textContent).toBe('2 of 2');
    box.el.remove();
  });
});
