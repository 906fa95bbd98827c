import { describe, expect, it } from 'vitest';
import { fixtureSummary } from '../common/testing';
import { meshLayout } from './layouts';
import { defaultUnit, moduleRows, moduleStates, resolveModules, traceModules } from './modules';
import type { Setup } from './setup_model';

const summary = fixtureSummary(); // processes 0 (rows 0, 1) and 1 (rows 2, 3), ranks 0 and 1

function setupOf(refs: Setup['nodes'][number]['module'][]): Setup {
  const s = meshLayout(refs.map((m) => ({ label: '', module: m! })));
  s.nodes.forEach((n, i) => (n.module = refs[i] ?? null));
  return s;
}

describe('modules', () => {
  it('makes one module per process or per row', () => {
    expect(traceModules(summary, 'process')).toEqual([
      { label: 'rank 0', module: { by: 'process', ids: [0] } },
      { label: 'rank 1', module: { by: 'process', ids: [1] } },
    ]);
    const rows = traceModules(summary, 'row');
    expect(rows.map((r) => r.label)).toEqual(['rank 0 / main', 'rank 0 / worker', 'rank 1 / main', 'rank 1 / worker <io>']);
    expect(rows[3]!.module).toEqual({ by: 'row', ids: [3] });
  });

  it('shows the threads of a one-process (threaded) run, else its processes', () => {
    expect(defaultUnit(summary)).toBe('process');
    const threaded = { ...summary, processes: [{ ...summary.processes[0]!, threads: [0, 1, 2, 3] }] };
    expect(defaultUnit(threaded)).toBe('row');
  });

  it('finds the rows of processes, ranks and rows; unknown ids none', () => {
    expect(moduleRows(summary, { by: 'process', ids: [1] })).toEqual([2, 3]);
    expect(moduleRows(summary, { by: 'rank', ids: [0, 1] })).toEqual([0, 1, 2, 3]);
    expect(moduleRows(summary, { by: 'row', ids: [3, 9] })).toEqual([3]);
    expect(moduleRows(summary, { by: 'rank', ids: [7] })).toEqual([]);
  });

  it('names modules and maps rows to their first node', () => {
    const m = resolveModules(summary, setupOf([{ by: 'rank', ids: [1] }, { by: 'row', ids: [1] }, { by: 'rank', ids: [5] }, null, { by: 'process', ids: [0, 1] }]));
    expect(m.names).toEqual(['rank 1', 'rank 0 / worker', 'rank 5: not in this trace', 'no module', '2 processes (4 rows)']);
    expect([...m.rowNode]).toEqual([4, 1, 0, 0]);
    expect([...m.start]).toEqual([0, 2, 3, 3, 3, 7]);
  });

  it('gives a node the state most of its rows are in', () => {
    const m = resolveModules(summary, setupOf([{ by: 'row', ids: [2] }, { by: 'process', ids: [0] }, { by: 'rank', ids: [0, 1] }, null]));
    const out = new Int32Array(4);
    moduleStates(m, [0, 1, 2, 2], out);
    // row 2 alone; process 0 tied 0/1: the earlier row; all four: state 2 twice
    expect([...out]).toEqual([2, 0, 2, -1]);
    moduleStates(m, [-1, 1, -1, 0], out);
    expect([...out]).toEqual([-1, 1, 1, -1]); // rows without a state do not count; the tie goes to row 1
    moduleStates(m, [-1, -1, -1, -1], out);
    expect([...out]).toEqual([-1, -1, -1, -1]);
    moduleStates(m, [], out); // a short answer: no state
    expect([...out]).toEqual([-1, -1, -1, -1]);
  });
});
