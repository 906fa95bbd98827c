// Which thread rows the timeline shows and in what order: sorted (by host
// and process as recorded, by name, by a per-row metric such as the time
// in MPI, or by imbalance: load, the time outside MPI, most first, each row's
// deviation from the mean noted before its label), filtered by a name
// pattern and by an MPI communicator (row_comm.ts), without the rows that
// have nothing in the window, pinned rows first. Pure: the timeline hands the result to its
// RowLayout (normal mode) and to the compact mode's bands (/rowmap rows).
import type { ShownRows } from '../../base/layout';
import type { TraceSummary } from '../../protocol/api.gen';
import type { Communicators } from './row_comm';

/**
 * 'host': as recorded (host, process, thread); 'name': by process and thread
 * name; 'mpi' or 'state:NAME': by time in it, most first; 'imbalance': by
 * load (the row's span less its time in MPI), most first.
 */
export type RowSort = 'host' | 'name' | 'mpi' | 'imbalance' | `state:${string}`;

export interface RowView {
  sort: RowSort;
  /** rows whose host, process or thread name holds one of the comma-separated words (any case); '' keeps all */
  filter: string;
  /** rows shown first, in this order (sorting, filtering and hiding leave them alone) */
  pinned: number[];
  /** hide rows with no record in the time window */
  hideEmpty: boolean;
  /** only the rows that took part in this MPI communicator's collectives or messages; '' keeps all */
  comm: string;
}

export const DEFAULT_ROW_VIEW: RowView = { sort: 'host', filter: '', pinned: [], hideEmpty: false, comm: '' };

export function isDefaultRowView(v: RowView): boolean {
  return v.sort === 'host' && v.filter === '' && v.pinned.length === 0 && !v.hideEmpty && v.comm === '';
}

/** `text` as a sort ('host' when it is none). */
export function parseRowSort(text: string | null): RowSort {
  if (text === 'name' || text === 'mpi' || text === 'imbalance') return text;
  if (text?.startsWith('state:') && text.length > 6) return text as RowSort;
  return 'host';
}

/** Whether the sort needs a per-row metric (time in MPI or in a state). */
export function sortNeedsMetric(sort: RowSort): boolean {
  return sort !== 'host' && sort !== 'name';
}

type RowInput = Pick<TraceSummary, 'processes' | 'threads'>;

/** The thread rows in recorded order: hosts by first appearance, their processes, each process's threads. */
export function recordedOrder(s: RowInput): number[] {
  const hosts: string[] = [];
  const byHost = new Map<string, number[]>();
  for (const p of s.processes) {
    if (!byHost.has(p.host)) {
      byHost.set(p.host, []);
      hosts.push(p.host);
    }
    byHost.get(p.host)!.push(p.index);
  }
  const byProcess = new Map<number, number[]>();
  for (const t of s.threads) {
    const list = byProcess.get(t.process) ?? [];
    list.push(t.index);
    byProcess.set(t.process, list);
  }
  return hosts.flatMap((h) => byHost.get(h)!.flatMap((p) => byProcess.get(p) ?? []));
}

/** The words a filter matches: host, process and thread name. */
export function rowText(s: RowInput, row: number): string {
  const t = s.threads[row];
  const p = t ? s.processes[t.process] : undefined;
  return `${p?.host ?? ''} ${p?.name ?? ''} ${t?.name ?? ''}`.toLowerCase();
}

const collator = new Intl.Collator(undefined, { numeric: true });

/**
 * A row's load: its span (first to last record) less its time in MPI
 * (`mpi`, ns; missing counts 0); 0 for a row without records.
 */
export function rowLoad(s: RowInput, row: number, mpi: ReadonlyMap<number, number>): number {
  const t = s.threads[row];
  if (!t || t.records === 0) return 0;
  return Math.max(0, t.end - t.begin - (mpi.get(row) ?? 0));
}

/** `load` against `mean` as a note: '+23 %', '−5 %', '±0 %' ('' when the mean is 0). */
export function deviationNote(load: number, mean: number): string {
  if (mean <= 0) return '';
  const pct = Math.round((100 * (load - mean)) / mean);
  return pct > 0 ? `+${pct} %` : pct < 0 ? `−${-pct} %` : '±0 %';
}

/**
 * The rows `view` shows over `window`, in order. `metric` is the sort's
 * per-row value (missing rows count 0; for 'imbalance', the time in MPI);
 * until it is known the recorded order stands. `comms` are the trace's
 * communicators; until they are known a communicator filter keeps every row.
 * Null when the view is the default one (every row, as recorded).
 */
export function shownRows(
  s: RowInput,
  view: RowView,
  window: { from: number; to: number },
  metric: ReadonlyMap<number, number> | null,
  comms: Communicators | null = null,
): ShownRows | null {
  if (isDefaultRowView(view)) return null;
  const pinned = view.pinned.filter((r) => r >= 0 && r < s.threads.length);
  const pinSet = new Set(pinned);
  const words = view.filter.toLowerCase().split(',').map((w) => w.trim()).filter((w) => w !== '');
  // An unknown name keeps no row (the trace has no such communicator).
  const members = view.comm && comms ? (comms.get(view.comm) ?? new Set<number>()) : null;
  let rows = recordedOrder(s).filter((r) => {
    if (pinSet.has(r)) return false;
    if (members && !members.has(r)) return false;
    if (words.length && !words.some((w) => rowText(s, r).includes(w))) return false;
    const t = s.threads[r]!;
    return !view.hideEmpty || (t.records > 0 && t.begin <= window.to && t.end >= window.from);
  });
  if (view.sort === 'name') {
    const label = (r: number): string => `${s.processes[s.threads[r]!.process]?.name ?? ''} ${s.threads[r]!.name}`;
    rows = rows.map((r) => ({ r, l: label(r) })).sort((a, b) => collator.compare(a.l, b.l)).map((x) => x.r);
  } else if (view.sort === 'imbalance' && metric) {
    const load = new Map([...pinned, ...rows].map((r) => [r, rowLoad(s, r, metric)]));
    rows.sort((a, b) => load.get(b)! - load.get(a)!);
    // The mean over the rows shown, pinned ones too; each row's deviation from it before its label.
    const mean = load.size ? [...load.values()].reduce((a, b) => a + b, 0) / load.size : 0;
    const all = [...pinned, ...rows];
    return { rows: all, flat: true, notes: new Map(all.map((r) => [r, deviationNote(load.get(r)!, mean)])) };
  } else if (sortNeedsMetric(view.sort) && metric) {
    // Array.prototype.sort is stable: equal values keep the recorded order.
    rows.sort((a, b) => (metric.get(b) ?? 0) - (metric.get(a) ?? 0));
  }
  return { rows: [...pinned, ...rows], flat: view.sort !== 'host' };
}

/** The states a metric sort counts: those named in it, or for 'mpi' and 'imbalance' those of category MPI or named MPI_*. */
export function metricStates(sort: RowSort, states: readonly { name: string; category: string }[]): string[] {
  if (!sortNeedsMetric(sort)) return [];
  if (sort !== 'mpi' && sort !== 'imbalance') return [sort.slice('state:'.length)];
  return states.filter((st) => st.category === 'MPI' || st.name.startsWith('MPI_')).map((st) => st.name);
}

/**
 * The SQL (/query, docs/query-tables.md) of the per-row time in `states`, ns
 * per thread row over the whole trace; `state IN` lets the table skip other
 * states' slices. Null when there is no state to count.
 */
export function metricQuery(states: readonly string[]): string | null {
  if (states.length === 0) return null;
  const list = states.map((n) => `'${n.replace(/'/g, "''")}'`).join(', ');
  return `SELECT thread, sum(dur) FROM slices WHERE state IN (${list}) GROUP BY thread`;
}
