import { describe, expect, it } from 'vitest';
import { MAX_NAMED_VIEWS, NamedViews } from './named_views';
import type { KeyValueStore } from './state_style';
import type { ViewState } from './view_url';
import { DEFAULT_ROW_VIEW } from '../views/timeline/row_view';

function mapStore(): KeyValueStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

const view = (from: number): ViewState => ({
  trace: 't1',
  window: { from, to: from + 100 },
  selection: { kind: 'slice', id: 3 },
  tab: 'stats',
  hidden: ['MPI_Send'],
  folded: [],
  compact: null,
  labels: null,
  rows: DEFAULT_ROW_VIEW,
  paradigm: false,
  series: '',
});

describe('NamedViews', () => {
  it('saves views per trace name, without the trace id, and gives them back', () => {
    const store = mapStore();
    const views = new NamedViews('run.plx', store);
    let changes = 0;
    views.onChange(() => changes++);
    views.save('start', view(0));
    views.save('later', view(500));
    expect(views.list().map((v) => v.name)).toEqual(['start', 'later']);
    expect(views.get('later')).toEqual({ ...view(500), trace: null });
    expect(views.get('nothing')).toBeNull();
    expect([...store.map.keys()]).toEqual(['parallax.views.run.plx']);
    expect(new NamedViews('other.plx', store).list()).toEqual([]);
    expect(new NamedViews('run.plx', store).list()).toHaveLength(2);
    expect(changes).toBe(2);
  });

  it('replaces a view of the same name, deletes, and keeps at most MAX_NAMED_VIEWS', () => {
    const views = new NamedViews('run.plx', mapStore());
    views.save('a', view(0));
    views.save('b', view(1));
    views.save('a', view(2));
    expect(views.list().map((v) => v.name)).toEqual(['b', 'a']);
    expect(views.get('a')?.window).toEqual({ from: 2, to: 102 });
    views.remove('b');
    expect(views.list().map((v) => v.name)).toEqual(['a']);
    for (let i = 0; i < MAX_NAMED_VIEWS + 5; i++) views.save(`v${i}`, view(i));
    expect(views.list()).toHaveLength(MAX_NAMED_VIEWS);
    expect(views.list()[0]!.name).toBe('v5');
  });

  it('survives broken or missing storage', () => {
    const store = mapStore();
    store.map.set('parallax.views.run.plx', '{not json');
    expect(new NamedViews('run.plx', store).list()).toEqual([]);
    store.map.set('parallax.views.run.plx', JSON.stringify([{ name: 'ok', query: 'from=1&to=2' }, { name: 3 }]));
    expect(new NamedViews('run.plx', store).list().map((v) => v.name)).toEqual(['ok']);
    const none = new NamedViews('run.plx', null);
    none.save('x', view(0));
    expect(none.list()).toEqual([]);
  });
});
