// Modules of the animation view: which timeline rows a node stands for (a
// process, an MPI rank, one row, or a group of them), its name, and its state
// at a moment: the state most of its rows are in (ties: the earlier row).
import type { TraceSummary } from '../../protocol/api.gen';
import type { ModuleSpec } from './layouts';
import type { ModuleRef, Setup } from './setup_model';

export type ModuleUnit = 'process' | 'row';

/**
 * What a node of a built-in layout stands for when the user has not chosen:
 * a process, unless the trace has only one (a threaded program), where one
 * node would show nothing of how its threads interact.
 */
export function defaultUnit(summary: TraceSummary): ModuleUnit {
  return summary.processes.length > 1 ? 'process' : 'row';
}

/** One node per process (or per row) of the trace, for the built-in layouts. */
export function traceModules(summary: TraceSummary, unit: ModuleUnit): ModuleSpec[] {
  if (unit === 'row') {
    return summary.threads.map((t) => ({
      label: threadLabel(summary, t.index),
      module: { by: 'row', ids: [t.index] },
    }));
  }
  return summary.processes.map((p) => ({ label: p.name, module: { by: 'process', ids: [p.index] } }));
}

function threadLabel(summary: TraceSummary, row: number): string {
  const t = summary.threads[row];
  if (!t) return `row ${row}`;
  const p = summary.processes[t.process];
  const siblings = p ? p.threads.length : 1;
  return siblings > 1 || !p ? `${p?.name ?? `process ${t.process}`} / ${t.name}` : p.name;
}

/** The nodes' rows, packed: node i's rows are rows[start[i] .. start[i+1]). */
export interface ResolvedModules {
  start: Int32Array;
  rows: Int32Array;
  /** per node: what it shows ('rank 3', 'rank 3 / worker', '16 rows'), or why nothing */
  names: string[];
  /** per timeline row: the first node showing it, -1 none (messages go between these) */
  rowNode: Int32Array;
}

/** Rows of a module reference in this trace; unknown ids are left out. */
export function moduleRows(summary: TraceSummary, ref: ModuleRef): number[] {
  const out: number[] = [];
  for (const id of ref.ids) {
    if (ref.by === 'row') {
      if (id >= 0 && id < summary.threads.length) out.push(id);
      continue;
    }
    const proc = ref.by === 'process' ? summary.processes[id] : summary.processes.find((p) => p.rank === id);
    if (proc) for (const r of proc.threads) if (r >= 0 && r < summary.threads.length) out.push(r);
  }
  return out;
}

function moduleName(summary: TraceSummary, ref: ModuleRef | null, rows: readonly number[]): string {
  if (!ref || ref.ids.length === 0) return 'no module';
  if (ref.ids.length === 1) {
    const id = ref.ids[0]!;
    if (rows.length === 0) return `${ref.by} ${id}: not in this trace`;
    if (ref.by === 'row') return threadLabel(summary, id);
    const proc = summary.threads[rows[0]!]?.process;
    return summary.processes[proc ?? -1]?.name ?? `${ref.by} ${id}`;
  }
  const plural = ref.by === 'process' ? 'processes' : `${ref.by}s`;
  return `${ref.ids.length} ${plural} (${rows.length} rows)`;
}

/** Resolves every node's module against the trace. */
export function resolveModules(summary: TraceSummary, setup: Setup): ResolvedModules {
  const n = setup.nodes.length;
  const start = new Int32Array(n + 1);
  const all: number[] = [];
  const names: string[] = [];
  const rowNode = new Int32Array(summary.threads.length).fill(-1);
  for (let i = 0; i < n; i++) {
    const ref = setup.nodes[i]!.module;
    const rows = ref ? moduleRows(summary, ref) : [];
    start[i] = all.length;
    for (const r of rows) {
      all.push(r);
      if (rowNode[r] === -1) rowNode[r] = i;
    }
    names.push(moduleName(summary, ref, rows));
  }
  start[n] = all.length;
  return { start, rows: Int32Array.from(all), names, rowNode };
}

/**
 * Each node's state from the rows' states at a moment (AtResult.states):
 * the state most of its rows are in, rows without a state not counted;
 * -1 when none has one. Writes into `out`.
 */
export function moduleStates(mods: ResolvedModules, rowStates: readonly number[], out: Int32Array): void {
  const n = mods.start.length - 1;
  let counts: Map<number, number> | null = null;
  for (let i = 0; i < n; i++) {
    const b = mods.start[i]!;
    const e = mods.start[i + 1]!;
    if (e - b === 1) {
      const s = rowStates[mods.rows[b]!];
      out[i] = s === undefined ? -1 : s;
      continue;
    }
    let best = -1;
    let bestCount = 0;
    counts ??= new Map();
    counts.clear();
    for (let k = b; k < e; k++) {
      const s = rowStates[mods.rows[k]!];
      if (s !== undefined && s >= 0) counts.set(s, (counts.get(s) ?? 0) + 1);
    }
    // Rows in order, so a tie goes to the earlier row's state.
    for (let k = b; k < e; k++) {
      const s = rowStates[mods.rows[k]!];
      if (s === undefined || s < 0) continue;
      const c = counts.get(s)!;
      if (c > bestCount) {
        best = s;
        bestCount = c;
      }
    }
    out[i] = best;
  }
}
