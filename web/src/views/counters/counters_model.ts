// What the counter views show, from the trace summary: metrics (counter names)
// with their range over the whole trace, units (a process, or a thread when a
// process samples a metric on several threads), the track of each unit ×
// metric, and the cold → hot colour scale. Pure.
import type { AtResult, CounterTrack, TraceSummary } from '../../protocol/api.gen';
import { EMPTY_CELL, heatColor } from '../common/colors';

export interface Metric {
  name: string;
  unit: string;
  /** smallest and largest sample of any of its tracks over the whole trace */
  min: number;
  max: number;
  tracks: number[];
}

export interface Unit {
  label: string;
  process: number;
  /** the thread when the process's counters are on several threads, else -1 */
  thread: number;
}

export interface CounterModel {
  metrics: Metric[];
  units: Unit[];
  /** cells[unit][metric]: the track index, -1 when that unit has no such counter */
  cells: number[][];
  /** track → [unit, metric] */
  place: Map<number, [number, number]>;
}

/**
 * Metrics in order of first appearance; units in process (then thread) order.
 * A process whose counters all live on one thread is one unit; otherwise each
 * of its threads with counters is a unit of its own, so no two tracks share a
 * cell and nothing is summed.
 */
export function buildModel(summary: Pick<TraceSummary, 'processes' | 'threads' | 'counters'>): CounterModel {
  const metrics: Metric[] = [];
  const metricOf = new Map<string, number>();
  const sampled = new Set<number>();
  for (const c of summary.counters) {
    let m = metricOf.get(c.name);
    if (m === undefined) {
      m = metrics.length;
      metricOf.set(c.name, m);
      metrics.push({ name: c.name, unit: c.unit, min: c.min, max: c.max, tracks: [] });
    }
    const metric = metrics[m]!;
    if (c.samples > 0) {
      const first = !sampled.has(m);
      sampled.add(m);
      metric.min = first ? c.min : Math.min(metric.min, c.min);
      metric.max = first ? c.max : Math.max(metric.max, c.max);
    }
    metric.tracks.push(c.index);
  }
  // Threads with counters, per process.
  const threadsOf = new Map<number, Set<number>>();
  for (const c of summary.counters) {
    const t = summary.threads[c.thread];
    if (!t) continue;
    let s = threadsOf.get(t.process);
    if (!s) threadsOf.set(t.process, (s = new Set()));
    s.add(c.thread);
  }
  const units: Unit[] = [];
  const unitOf = new Map<string, number>();
  const processes = [...threadsOf.keys()].sort((a, b) => a - b);
  for (const pi of processes) {
    const p = summary.processes[pi];
    const name = p?.name ?? `process ${pi}`;
    const threads = [...threadsOf.get(pi)!].sort((a, b) => a - b);
    if (threads.length === 1) {
      unitOf.set(`${pi}`, units.length);
      units.push({ label: name, process: pi, thread: -1 });
      continue;
    }
    for (const t of threads) {
      unitOf.set(`${pi}:${t}`, units.length);
      units.push({ label: `${name} · ${summary.threads[t]?.name ?? `thread ${t}`}`, process: pi, thread: t });
    }
  }
  const cells = units.map(() => metrics.map(() => -1));
  const place = new Map<number, [number, number]>();
  for (const c of summary.counters) {
    const t = summary.threads[c.thread];
    if (!t) continue;
    const u = unitOf.get(`${t.process}`) ?? unitOf.get(`${t.process}:${c.thread}`);
    const m = metricOf.get(c.name)!;
    if (u === undefined) continue;
    cells[u]![m] = c.index;
    place.set(c.index, [u, m]);
  }
  return { metrics, units, cells, place };
}

/** The counter values of an /at answer by track. */
export function valuesAt(r: Pick<AtResult, 'counters'> | null): Map<number, number> {
  const out = new Map<number, number>();
  if (r) for (const c of r.counters) out.set(c.track, c.value);
  return out;
}

/**
 * Where v lies in the metric's range, 0..1, linearly (clamped). A metric that
 * never changes (min = max) is cold.
 */
export function scaleValue(m: Pick<Metric, 'min' | 'max'>, v: number): number {
  const span = m.max - m.min;
  if (!(span > 0) || !Number.isFinite(v)) return 0;
  return Math.min(1, Math.max(0, (v - m.min) / span));
}

/** The light of a value: the heat scale (dark blue → yellow → dark red) over the metric's range. */
export function lightColor(m: Pick<Metric, 'min' | 'max'>, v: number | undefined): string {
  return v === undefined ? EMPTY_CELL : heatColor(scaleValue(m, v));
}

/** The tracks of one metric (the default choice of the line graphs), at most `max`. */
export function defaultTracks(model: CounterModel, metric: number, max = 8): number[] {
  return (model.metrics[metric]?.tracks ?? []).slice(0, max);
}

/** The counter's display name: 'name (unit)'. */
export function metricLabel(m: Pick<Metric, 'name' | 'unit'>): string {
  return m.unit ? `${m.name} (${m.unit})` : m.name;
}

/** The label of a track: its unit's and its metric's. */
export function trackLabel(model: CounterModel, track: CounterTrack | number): string {
  const index = typeof track === 'number' ? track : track.index;
  const at = model.place.get(index);
  if (!at) return `track ${index}`;
  return `${model.units[at[0]]!.label}: ${model.metrics[at[1]]!.name}`;
}
