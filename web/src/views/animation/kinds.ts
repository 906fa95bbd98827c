// State meaning and colour per node kind: a kind maps the trace's
// states to its own (first matching entry wins), or shows the trace's states
// in their legend colours; traffic-light mode maps every state to executing /
// interacting / blocked / inactive. Compiled into one palette and a
// table per kind so the hot path only indexes arrays.
import type { StateInfo } from '../../protocol/api.gen';
import type { StateStyle } from '../context';
import type { NamedColor, NodeKind } from './setup_model';

/** Does a trace state match a pattern: a name, a glob with '*', or 'category:NAME'. */
export function matchesState(pattern: string, state: StateInfo): boolean {
  if (pattern.startsWith('category:')) return state.category === pattern.slice('category:'.length);
  if (!pattern.includes('*')) return pattern === state.name;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const name = state.name;
  if (!name.startsWith(first) || name.length < first.length + last.length) return false;
  let at = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const k = name.indexOf(parts[i]!, at);
    if (k < 0) return false;
    at = k + parts[i]!.length;
  }
  return name.length - last.length >= at && name.endsWith(last);
}

export const TRAFFIC: Record<'executing' | 'interacting' | 'blocked' | 'inactive', NamedColor> = {
  executing: { name: 'executing', color: '#2ca02c' },
  interacting: { name: 'interacting', color: '#f2b701' },
  blocked: { name: 'blocked', color: '#d62728' },
  inactive: { name: 'inactive', color: '#c7c7c7' },
};

const BLOCKING = /wait|recv|barrier|probe|join|lock|sleep|reduce|gather|scatter|bcast|alltoall|fence|sync|sendrecv|^MPI_Send$|^MPI_Ssend$/i;
const NONBLOCKING = /^MPI_I|test/i;
const COMMUNICATION = /^(MPI_|PMPI_|pthread_|omp_|shmem_)/;

/** Traffic-light class of a trace state: blocked (waiting), interacting (communicating), else executing. */
export function trafficClass(state: StateInfo): NamedColor {
  const communicating = COMMUNICATION.test(state.name) || /^(mpi|comm|sync|openmp|pthread)$/i.test(state.category);
  if (communicating && BLOCKING.test(state.name) && !NONBLOCKING.test(state.name)) return TRAFFIC.blocked;
  if (communicating) return TRAFFIC.interacting;
  return TRAFFIC.executing;
}

/** A kind's state for a trace state (-1: none): its own entry or the trace's. */
export function kindState(kind: NodeKind, state: StateInfo | undefined, style: StateStyle | null): NamedColor {
  if (!state || (style && !style.visible(state.index))) return kind.none;
  for (const s of kind.states) {
    for (const m of s.match) if (matchesState(m, state)) return { name: s.name, color: s.color };
  }
  if (kind.states.length > 0 && kind.other) return kind.other;
  return { name: state.name, color: style ? style.color(state.index) : state.color };
}

/**
 * Colours of all kinds at once: `table[kind][state + 1]` is an index into
 * `palette` (state -1: none). Equal colours share one palette entry, so the
 * hot path fills once per colour.
 */
export interface Coloring {
  palette: string[];
  /** per kind: index by trace state + 1 */
  table: Int32Array[];
  /** per kind: the kind's state name by trace state + 1 (tooltips) */
  names: string[][];
  /** the legend: every (name, colour) a node can show, in kind order */
  legend: NamedColor[];
}

/** Compiles the kinds against the trace's states (traffic: the traffic-light mapping for all kinds). */
export function buildColoring(kinds: readonly NodeKind[], states: readonly StateInfo[], style: StateStyle | null, traffic: boolean): Coloring {
  const palette: string[] = [];
  const paletteIndex = new Map<string, number>();
  const legend: NamedColor[] = [];
  const legendSeen = new Set<string>();
  const byIndex = new Map(states.map((s) => [s.index, s]));
  const width = states.reduce((m, s) => Math.max(m, s.index + 1), 0) + 1;
  const table: Int32Array[] = [];
  const names: string[][] = [];
  const add = (nc: NamedColor): number => {
    const key = `${nc.name}\u0000${nc.color}`;
    if (!legendSeen.has(key)) {
      legendSeen.add(key);
      legend.push(nc);
    }
    let i = paletteIndex.get(nc.color);
    if (i === undefined) {
      i = palette.length;
      palette.push(nc.color);
      paletteIndex.set(nc.color, i);
    }
    return i;
  };
  for (const kind of kinds) {
    const t = new Int32Array(width);
    const n: string[] = new Array<string>(width);
    for (let s = -1; s < width - 1; s++) {
      const info = byIndex.get(s);
      let nc: NamedColor;
      if (traffic) nc = !info || (style && !style.visible(info.index)) ? TRAFFIC.inactive : trafficClass(info);
      else nc = kindState(kind, info, style);
      // States the trace does not have are never shown: keep them off the legend.
      t[s + 1] = s >= 0 && !info ? add(traffic ? TRAFFIC.inactive : kind.none) : add(nc);
      n[s + 1] = nc.name;
    }
    table.push(t);
    names.push(n);
  }
  return { palette, table, names, legend };
}

/** Palette index of a node of kind `kind` in trace state `state` (-1 none). */
export function colorIndex(c: Coloring, kind: number, state: number): number {
  const t = c.table[kind]!;
  const i = state + 1;
  return i >= 0 && i < t.length ? t[i]! : t[0]!;
}
