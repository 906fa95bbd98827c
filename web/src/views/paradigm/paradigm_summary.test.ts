import { describe, expect, it } from 'vitest';
import type { StateInfo, StatsRow } from '../../protocol/api.gen';
import { paradigmTimes, programState, timesTotal } from './paradigm_summary';

const states: StateInfo[] = [
  { index: 0, name: 'solve', category: 'user', color: '' },
  { index: 1, name: 'MPI_Send', category: 'comm', color: '' },
  { index: 2, name: 'MPI_Allreduce', category: 'comm', color: '' },
  { index: 3, name: 'omp barrier', category: 'sync', color: '' },
  { index: 4, name: 'parallax:flush', category: 'internal', color: '' },
];

function row(state: number, self: number, count = 1, total = self): StatsRow {
  return { state, name: states[state]!.name, callsite: null, count, total, self, mean: 0, min: 0, max: 0, stddev: 0, share: 0 };
}

function finding(kind: string, text: string): { kind: string; text: string } {
  return { kind, text };
}

function named(name: string, count: number): StatsRow {
  return { ...row(0, 1, count), name };
}

describe('paradigmTimes', () => {
  it('sums exclusive time per paradigm; time outside any state is computing', () => {
    // solve's total includes the nested MPI_Send: only self counts.
    const t = paradigmTimes({ thread_time: 1000, rows: [row(0, 300, 1, 500), row(1, 200), row(2, 150), row(3, 100), row(4, 50)] }, states);
    expect(t).toEqual({ computing: 300 + 200, p2p: 200, collective: 150, 'one-sided': 0, sync: 100, io: 0, recorder: 50, other: 0 });
    expect(timesTotal(t)).toBe(1000);
  });

  it('classifies a state the summary does not know by its row name', () => {
    const t = paradigmTimes({ thread_time: 10, rows: [{ ...row(0, 10), state: 99, name: 'MPI_Bcast' }] }, states);
    expect(t.collective).toBe(10);
    expect(t.computing).toBe(0);
  });
});

describe('programState', () => {
  const clean = { live: null, diagnostics: { findings: [finding('late-sender', 'x')] }, whole: { rows: [named('MPI_Init', 4), named('MPI_Finalize', 4)] }, processes: 4 };

  it('a trace file that ended normally is finished', () => {
    expect(programState(clean)).toEqual({ state: 'finished', why: 'all 4 processes ended normally' });
  });

  it('a live trace says so itself', () => {
    expect(programState({ ...clean, live: 'running' }).state).toBe('running');
    expect(programState({ ...clean, live: 'waiting' }).state).toBe('running');
    expect(programState({ ...clean, live: 'deadlocked' }).state).toBe('deadlocked');
    expect(programState({ ...clean, live: 'crashed' }).state).toBe('aborted');
    expect(programState({ ...clean, live: 'finished' }).state).toBe('finished');
  });

  it('a deadlock finding is deadlocked, with its text', () => {
    const s = programState({ ...clean, diagnostics: { findings: [finding('deadlock', 'deadlock: ranks 0, 1 wait for each other (MPI_Recv, MPI_Recv)')] } });
    expect(s).toEqual({ state: 'deadlocked', why: 'deadlock: ranks 0, 1 wait for each other (MPI_Recv, MPI_Recv)' });
  });

  it('MPI_Abort, a missing MPI_Finalize or a call never returned is aborted', () => {
    expect(programState({ ...clean, whole: { rows: [...clean.whole.rows, named('MPI_Abort', 1)] } })).toEqual({ state: 'aborted', why: 'MPI_Abort was called once' });
    expect(programState({ ...clean, whole: { rows: [named('MPI_Init_thread', 4), named('MPI_Finalize', 3)] } })).toEqual({
      state: 'aborted',
      why: '1 of 4 MPI processes never called MPI_Finalize',
    });
    expect(programState({ ...clean, diagnostics: { findings: [finding('blocked', 'rank 2 never returned from MPI_Recv')] } }).state).toBe('aborted');
  });

  it('unknown until the answers are there', () => {
    expect(programState({ ...clean, whole: null }).state).toBe('unknown');
    expect(programState({ ...clean, diagnostics: null }).state).toBe('unknown');
  });
});
