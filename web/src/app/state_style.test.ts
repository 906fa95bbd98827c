import { describe, expect, it } from 'vitest';
import { colorFromName } from '../base/color';
import type { StateInfo } from '../protocol/api.gen';
import { StateStyles, type KeyValueStore } from './state_style';

const states: StateInfo[] = [
  { index: 0, name: 'compute', category: '', color: '#112233' },
  { index: 1, name: 'MPI_Wait', category: 'mpi', color: '' },
];

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('StateStyles', () => {
  it('uses recorded colours, else a colour from the name', () => {
    const s = new StateStyles(states, 'run.plx');
    expect(s.color(0)).toBe('#112233');
    expect(s.color(1)).toBe(colorFromName('MPI_Wait'));
    expect(s.visible(1)).toBe(true);
  });

  it('notifies and persists changes per trace name', () => {
    const store = memoryStore();
    const s = new StateStyles(states, 'run.plx', store);
    let calls = 0;
    const off = s.onChange(() => calls++);
    s.setVisible(1, false);
    s.setColor(0, '#ff0000');
    s.setColor(0, '#ff0000'); // unchanged: no event
    expect(calls).toBe(2);
    off();
    s.setVisible(1, true);
    expect(calls).toBe(2);
    s.setVisible(1, false);
    const again = new StateStyles(states, 'run.plx', store);
    expect(again.color(0)).toBe('#ff0000');
    expect(again.visible(1)).toBe(false);
    expect(new StateStyles(states, 'other.plx', store).visible(1)).toBe(true);
    again.reset();
    expect(new StateStyles(states, 'run.plx', store).color(0)).toBe('#112233');
  });

  it('ignores broken storage', () => {
    const store = memoryStore();
    store.data.set('parallax.states.run.plx', '{not json');
    expect(new StateStyles(states, 'run.plx', store).color(0)).toBe('#112233');
  });
});
