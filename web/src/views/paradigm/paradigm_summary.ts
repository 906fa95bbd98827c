// What the Paradigms tab computes from the server's answers, apart from the
// DOM: time per paradigm from /stats rows, and the program's overall state
// from /live (a live trace), /diagnostics and the whole trace's /stats.
import type { Finding, StateInfo, StatsResult } from '../../protocol/api.gen';
import { classifyState, PARADIGMS, type ParadigmId } from './paradigms';

export type ParadigmTimes = Record<ParadigmId, number>;

export function emptyTimes(): ParadigmTimes {
  return Object.fromEntries(PARADIGMS.map((p) => [p.id, 0])) as ParadigmTimes;
}

/**
 * Exclusive (self) ns per paradigm of a /stats answer, so nested states count
 * once; thread time outside any state is computing (the program's own code).
 */
export function paradigmTimes(r: Pick<StatsResult, 'rows' | 'thread_time'>, states: readonly StateInfo[]): ParadigmTimes {
  const out = emptyTimes();
  const byIndex = new Map(states.map((s) => [s.index, s]));
  let inStates = 0;
  for (const row of r.rows) {
    const s = byIndex.get(row.state) ?? { name: row.name, category: '' };
    out[classifyState(s)] += row.self;
    inStates += row.self;
  }
  out.computing += Math.max(0, r.thread_time - inStates);
  return out;
}

export function timesTotal(t: ParadigmTimes): number {
  return PARADIGMS.reduce((sum, p) => sum + t[p.id], 0);
}

export type ProgramStateId = 'running' | 'deadlocked' | 'aborted' | 'finished' | 'unknown';

export interface ProgramState {
  state: ProgramStateId;
  /** one line saying why */
  why: string;
}

export interface ProgramEvidence {
  /** a live trace's LiveStatus.program; null for a trace file */
  live: string | null;
  /** /diagnostics's findings (only their kind and text matter here) */
  diagnostics: { findings: readonly Pick<Finding, 'kind' | 'text'>[] } | null;
  /** the whole trace's /stats (all processes) */
  whole: Pick<StatsResult, 'rows'> | null;
  processes: number;
}

function count(whole: Pick<StatsResult, 'rows'>, names: readonly string[]): number {
  return whole.rows.filter((r) => names.includes(r.name)).reduce((n, r) => n + r.count, 0);
}

/**
 * Running (a live trace still recording), deadlocked (a deadlock finding),
 * aborted (the live program crashed, MPI_Abort was called, or fewer
 * MPI_Finalize than MPI_Init calls were recorded) or finished.
 */
export function programState(e: ProgramEvidence): ProgramState {
  if (e.live === 'waiting') return { state: 'running', why: 'live: waiting for the program to connect' };
  if (e.live === 'running') return { state: 'running', why: 'live: the program is still recording' };
  if (e.live === 'deadlocked') return { state: 'deadlocked', why: 'live: the program is deadlocked' };
  if (e.live === 'crashed') return { state: 'aborted', why: 'live: a process ended without finishing its trace (crashed or killed)' };
  const deadlock = e.diagnostics?.findings.find((f) => f.kind === 'deadlock');
  if (deadlock) return { state: 'deadlocked', why: deadlock.text };
  if (!e.whole) return { state: 'unknown', why: 'the statistics are not there yet' };
  const aborts = count(e.whole, ['MPI_Abort']);
  if (aborts > 0) return { state: 'aborted', why: `MPI_Abort was called ${aborts === 1 ? 'once' : `${aborts} times`}` };
  const inits = count(e.whole, ['MPI_Init', 'MPI_Init_thread']);
  const finalizes = count(e.whole, ['MPI_Finalize']);
  if (finalizes < inits) return { state: 'aborted', why: `${inits - finalizes} of ${inits} MPI processes never called MPI_Finalize` };
  const blocked = e.diagnostics?.findings.find((f) => f.kind === 'blocked');
  if (blocked) return { state: 'aborted', why: `the trace ends inside a call: ${blocked.text}` };
  if (e.live === 'finished') return { state: 'finished', why: 'live: every process finished' };
  if (!e.diagnostics) return { state: 'unknown', why: 'the diagnostics are not there yet' };
  return { state: 'finished', why: e.processes === 1 ? 'the process ended normally' : `all ${e.processes} processes ended normally` };
}
