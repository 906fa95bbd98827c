import { describe, expect, it } from 'vitest';
import type { StateInfo } from '../../protocol/api.gen';
import { fakeStates, fixtureSummary } from '../common/testing';
import { buildColoring, colorIndex, kindState, matchesState, TRAFFIC, trafficClass } from './kinds';
import { DEFAULT_NONE, type NodeKind } from './setup_model';

const st = (index: number, name: string, category = ''): StateInfo => ({ index, name, category, color: '#000000' });

const states: StateInfo[] = [
  { index: 0, name: 'compute', category: 'user', color: '#1f77b4' },
  { index: 1, name: 'MPI_Send', category: 'MPI', color: '#ff7f0e' },
  { index: 2, name: 'MPI_Waitall', category: 'MPI', color: '#2ca02c' },
  { index: 4, name: 'MPI_Irecv', category: 'MPI', color: '#9467bd' },
];

const node: NodeKind = { name: 'node', shape: 'circle', size: 10, states: [], other: null, none: DEFAULT_NONE };
const sw: NodeKind = {
  name: 'switch',
  shape: 'diamond',
  size: 14,
  states: [
    { name: 'congested', color: '#d62728', match: ['MPI_Wait*'] },
    { name: 'forwarding', color: '#2ca02c', match: ['category:MPI'] },
  ],
  other: { name: 'idle', color: '#bdbdbd' },
  none: { name: 'off', color: '#eeeeee' },
};

describe('state patterns', () => {
  it('matches names, globs and categories', () => {
    expect(matchesState('MPI_Send', st(0, 'MPI_Send'))).toBe(true);
    expect(matchesState('MPI_Send', st(0, 'MPI_Sendrecv'))).toBe(false);
    expect(matchesState('MPI_Wait*', st(0, 'MPI_Waitall'))).toBe(true);
    expect(matchesState('MPI_Wait*', st(0, 'MPI_Wait'))).toBe(true);
    expect(matchesState('MPI_Wait*', st(0, 'PMPI_Wait'))).toBe(false);
    expect(matchesState('*all', st(0, 'MPI_Allreduce'))).toBe(false);
    expect(matchesState('*all', st(0, 'MPI_Waitall'))).toBe(true);
    expect(matchesState('M*_*v', st(0, 'MPI_Recv'))).toBe(true);
    expect(matchesState('ab*ba', st(0, 'aba'))).toBe(false);
    expect(matchesState('*', st(0, 'anything'))).toBe(true);
    expect(matchesState('category:MPI', st(0, 'x', 'MPI'))).toBe(true);
    expect(matchesState('category:MPI', st(0, 'MPI_Send', 'comm'))).toBe(false);
  });
});

describe('kinds', () => {
  it('shows the trace state and its legend colour for a kind without states', () => {
    const style = fakeStates(fixtureSummary());
    style.colors.set(1, '#123456');
    expect(kindState(node, states[1], style)).toEqual({ name: 'MPI_Send', color: '#123456' });
    expect(kindState(node, states[1], null)).toEqual({ name: 'MPI_Send', color: '#ff7f0e' });
    expect(kindState(node, undefined, style)).toEqual(DEFAULT_NONE);
    style.hidden.add(1);
    expect(kindState(node, states[1], style)).toEqual(DEFAULT_NONE);
  });

  it('maps trace states to a kind\'s own, first match first', () => {
    expect(kindState(sw, states[2], null)).toEqual({ name: 'congested', color: '#d62728' });
    expect(kindState(sw, states[1], null)).toEqual({ name: 'forwarding', color: '#2ca02c' });
    expect(kindState(sw, states[0], null)).toEqual({ name: 'idle', color: '#bdbdbd' });
    expect(kindState(sw, undefined, null)).toEqual({ name: 'off', color: '#eeeeee' });
    expect(kindState({ ...sw, other: null }, states[0], null)).toEqual({ name: 'compute', color: '#1f77b4' });
  });

  it('classifies states for traffic lights', () => {
    expect(trafficClass(st(0, 'compute', 'user'))).toBe(TRAFFIC.executing);
    expect(trafficClass(st(0, 'MPI_Isend', 'MPI'))).toBe(TRAFFIC.interacting);
    expect(trafficClass(st(0, 'MPI_Irecv', 'MPI'))).toBe(TRAFFIC.interacting);
    expect(trafficClass(st(0, 'MPI_Recv', 'MPI'))).toBe(TRAFFIC.blocked);
    expect(trafficClass(st(0, 'MPI_Waitall', 'comm'))).toBe(TRAFFIC.blocked);
    expect(trafficClass(st(0, 'MPI_Barrier', ''))).toBe(TRAFFIC.blocked);
    expect(trafficClass(st(0, 'pthread_mutex_lock', 'sync'))).toBe(TRAFFIC.blocked);
    expect(trafficClass(st(0, 'MPI_Comm_rank', 'MPI'))).toBe(TRAFFIC.interacting);
  });

  it('compiles kinds into one palette and a table per kind', () => {
    const c = buildColoring([node, sw], states, null, false);
    const color = (k: number, s: number): string => c.palette[colorIndex(c, k, s)]!;
    expect(color(0, 0)).toBe('#1f77b4');
    expect(color(0, 2)).toBe('#2ca02c');
    expect(color(0, -1)).toBe(DEFAULT_NONE.color);
    expect(color(0, 3)).toBe(DEFAULT_NONE.color); // no such state in the trace
    expect(color(0, 99)).toBe(DEFAULT_NONE.color); // beyond the table
    expect(color(1, 2)).toBe('#d62728');
    expect(color(1, 4)).toBe('#2ca02c');
    expect(color(1, 0)).toBe('#bdbdbd');
    expect(color(1, -1)).toBe('#eeeeee');
    // equal colours share an entry: MPI_Waitall of a node and forwarding of a switch
    expect(colorIndex(c, 0, 2)).toBe(colorIndex(c, 1, 1));
    expect(new Set(c.palette).size).toBe(c.palette.length);
    expect(c.names[1]![2 + 1]).toBe('congested');
    expect(c.legend.map((l) => l.name)).toEqual(['inactive', 'compute', 'MPI_Send', 'MPI_Waitall', 'MPI_Irecv', 'off', 'idle', 'forwarding', 'congested']);
  });

  it('traffic-light mode overrides every kind', () => {
    const c = buildColoring([node, sw], states, null, true);
    const color = (k: number, s: number): string => c.palette[colorIndex(c, k, s)]!;
    for (const k of [0, 1]) {
      expect(color(k, 0)).toBe(TRAFFIC.executing.color);
      expect(color(k, 1)).toBe(TRAFFIC.blocked.color);
      expect(color(k, 4)).toBe(TRAFFIC.interacting.color);
      expect(color(k, -1)).toBe(TRAFFIC.inactive.color);
    }
    expect(c.legend.map((l) => l.name)).toEqual(['inactive', 'executing', 'blocked', 'interacting']);
  });
});
