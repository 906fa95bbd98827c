// Colours and labels of threads for the CPU strip (a span coloured by its
// timeline row) and the loop view (a chunk coloured by its OpenMP thread
// number): the same index always gets the same colour.
import { hslToHex } from '../../base/color';
import type { TraceSummary } from '../../protocol/api.gen';

/** Tableau 10: distinct at a glance, readable with black text. */
const BASE: readonly string[] = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#17becf'];

/** Colour of an unknown thread (OpenMP thread number -1). */
export const UNKNOWN_THREAD = '#6b6b6b';

/** The colour of thread `i` (>= 0): the ten base colours, then hues a golden angle apart. */
export function threadColor(i: number): string {
  if (!(i >= 0) || !Number.isInteger(i)) return UNKNOWN_THREAD;
  if (i < BASE.length) return BASE[i]!;
  const k = i - BASE.length;
  return hslToHex((k * 137.508 + 20) % 360, 0.55 + (k % 3) * 0.1, 0.42 + (k % 2) * 0.14);
}

/** 'rank 1 / worker' (its process and name), as the timeline's labels read. */
export function threadLabel(summary: TraceSummary, row: number): string {
  const t = summary.threads[row];
  if (!t) return `row ${row}`;
  const p = summary.processes[t.process];
  return p ? `${p.name} / ${t.name}` : t.name;
}

/** threadLabel with its tid: 'rank 1 / worker (tid 201)', for tooltips and tables. */
export function threadLabelTid(summary: TraceSummary, row: number): string {
  const tid = summary.threads[row]?.tid;
  return tid === undefined ? threadLabel(summary, row) : `${threadLabel(summary, row)} (tid ${tid})`;
}

/**
 * Labels of `rows` for a legend: threadLabel, with ' (tid N)' added to those
 * that would read the same (threads a program did not name share its name).
 */
export function threadLabels(summary: TraceSummary, rows: readonly number[]): Map<number, string> {
  const plain = new Map(rows.map((r) => [r, threadLabel(summary, r)]));
  const count = new Map<string, number>();
  for (const l of plain.values()) count.set(l, (count.get(l) ?? 0) + 1);
  const out = new Map<number, string>();
  for (const [r, l] of plain) {
    const tid = summary.threads[r]?.tid;
    out.set(r, count.get(l)! > 1 && tid !== undefined ? `${l} (tid ${tid})` : l);
  }
  return out;
}
