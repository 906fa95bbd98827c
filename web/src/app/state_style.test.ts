import { describe, expect, it } from 'vitest';
import type { StateInfo } from '../protocol/api.gen';
import { statePalette } from '../views/paradigm/palette';
import { paradigm } from '../views/paradigm/paradigms';
import { paradigmColoring, setParadigmColoring, StateStyles, type KeyValueStore } from './state_style';

const states: StateInfo[] = [
  { index: 0, name: 'compute', category: '', color: '#112233' },
  { index: 1, name: 'MPI_Wait', category: 'mpi', color: '' },
];

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('StateStyles', () => {
  it('uses recorded colours, else the palette\'s', () => {
    const s = new StateStyles(states, 'run.plx');
    expect(s.color(0)).toBe('#112233');
    expect(s.color(1)).toBe(statePalette(states)[1]);
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

  it('paints states in their paradigm colour while paradigm colouring is on, keeping their own', () => {
    const store = memoryStore();
    const s = new StateStyles(states, 'run.plx', store);
    s.setVisible(1, false);
    let calls = 0;
    const off = s.onChange(() => calls++);
    try {
      setParadigmColoring(true);
      expect(paradigmColoring()).toBe(true);
      expect(calls).toBe(1);
      expect(s.color(0)).toBe(paradigm('computing').color);
      expect(s.color(1)).toBe(paradigm('p2p').color);
      expect(s.ownColor(0)).toBe('#112233');
      expect(s.visible(1)).toBe(false);
      // A StateStyles made now (a live trace's new states) follows the switch too.
      expect(new StateStyles(states, 'run.plx').color(1)).toBe(paradigm('p2p').color);
      setParadigmColoring(true); // unchanged: no event
      expect(calls).toBe(1);
      // The switch is not saved as the states' own colours.
      expect(new StateStyles(states, 'run.plx', store).ownColor(0)).toBe('#112233');
    } finally {
      setParadigmColoring(false);
    }
    expect(calls).toBe(2);
    expect(s.color(0)).toBe('#112233');
    off();
    setParadigmColoring(true);
    setParadigmColoring(false);
    expect(calls).toBe(2);
  });
});
