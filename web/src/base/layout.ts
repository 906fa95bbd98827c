// Row layout of the timeline: hosts → processes → threads, with counter tracks
// under their thread. Pure math over the trace summary; the timeline draws it.
import type { TraceSummary } from '../protocol/api.gen';

export const HEADER_HEIGHT = 20;
export const LANE_HEIGHT = 14;
/** Space above the first and below the last lane of a thread row. */
export const ROW_PADDING = 2;
export const COUNTER_HEIGHT = 28;

export type LayoutKind = 'host' | 'process' | 'thread' | 'counter';

export interface LayoutItem {
  kind: LayoutKind;
  /** collapse key of a header: 'host:<name>' or 'process:<index>'; '' for others */
  key: string;
  label: string;
  /** indentation level: host 0, process 1, thread and counter 2 */
  level: number;
  /** top, in content pixels (0 = top of the first item) */
  y: number;
  height: number;
  /** thread row for threads and counters, else -1 */
  row: number;
  /** process index, -1 for hosts */
  process: number;
  /** counter track index for counters, else -1 */
  track: number;
  /** headers: whether collapsed */
  collapsed: boolean;
}

/** The part of TraceSummary the layout needs (tests build it by hand). */
export type LayoutInput = Pick<TraceSummary, 'processes' | 'threads' | 'counters'>;

/**
 * Which thread rows the layout shows and in what order (the timeline's sort,
 * filter, pins and hidden empty rows). Grouped: a host and a process header
 * start wherever the host or the process changes from the row above; flat:
 * no headers, each row labelled with its process.
 */
export interface ShownRows {
  rows: readonly number[];
  flat: boolean;
  /** a note put before a row's thread label, e.g. its load against the mean ('+23 %'); absent: none */
  notes?: ReadonlyMap<number, string>;
}

export function threadRowHeight(maxDepth: number): number {
  return (Math.max(0, maxDepth) + 1) * LANE_HEIGHT + 2 * ROW_PADDING;
}

export class RowLayout {
  readonly items: LayoutItem[] = [];
  readonly height: number;
  /** row → index of its thread item, or of the collapsed header that hides it */
  private readonly rowItem = new Map<number, number>();
  private readonly rowShown = new Set<number>();
  private readonly trackItem = new Map<number, number>();
  /** collapsed header's key → the rows it hides (made when first asked) */
  private hidden: Map<string, number[]> | null = null;

  /** Hosts, processes and threads in summary order, or `shown` (see ShownRows). */
  constructor(input: LayoutInput, collapsed: ReadonlySet<string> = new Set(), shown?: ShownRows) {
    const countersOf = new Map<number, number[]>();
    for (const c of input.counters) {
      const list = countersOf.get(c.thread) ?? [];
      list.push(c.index);
      countersOf.set(c.thread, list);
    }
    if (shown) {
      this.height = this.buildShown(input, collapsed, shown, countersOf);
      return;
    }
    // Hosts in order of first appearance among processes.
    const hostOrder: string[] = [];
    const processesOf = new Map<string, number[]>();
    for (const p of input.processes) {
      if (!processesOf.has(p.host)) {
        processesOf.set(p.host, []);
        hostOrder.push(p.host);
      }
      processesOf.get(p.host)!.push(p.index);
    }
    // Threads of each process in row order (the summary sorts rows by process).
    const threadsOf = new Map<number, number[]>();
    for (const t of input.threads) {
      const list = threadsOf.get(t.process) ?? [];
      list.push(t.index);
      threadsOf.set(t.process, list);
    }
    let y = 0;
    const push = (item: Omit<LayoutItem, 'y'>): number => {
      this.items.push({ ...item, y });
      y += item.height;
      return this.items.length - 1;
    };
    for (const host of hostOrder) {
      const hostKey = `host:${host}`;
      const hostCollapsed = collapsed.has(hostKey);
      const hostIdx = push({
        kind: 'host', key: hostKey, label: host === '' ? '(unknown host)' : host, level: 0,
        height: HEADER_HEIGHT, row: -1, process: -1, track: -1, collapsed: hostCollapsed,
      });
      for (const pi of processesOf.get(host)!) {
        const proc = input.processes[pi]!;
        const rows = threadsOf.get(pi) ?? [];
        if (hostCollapsed) {
          for (const r of rows) this.rowItem.set(r, hostIdx);
          continue;
        }
        const procKey = `process:${pi}`;
        const procCollapsed = collapsed.has(procKey);
        const procIdx = push({
          kind: 'process', key: procKey, label: proc.name, level: 1,
          height: HEADER_HEIGHT, row: -1, process: pi, track: -1, collapsed: procCollapsed,
        });
        for (const r of rows) {
          if (procCollapsed) {
            this.rowItem.set(r, procIdx);
            continue;
          }
          const t = input.threads[r]!;
          const idx = push({
            kind: 'thread', key: '', label: t.name, level: 2, height: threadRowHeight(t.max_depth),
            row: r, process: pi, track: -1, collapsed: false,
          });
          this.rowItem.set(r, idx);
          this.rowShown.add(r);
          for (const track of countersOf.get(r) ?? []) {
            const c = input.counters[track]!;
            const cIdx = push({
              kind: 'counter', key: '', label: c.unit ? `${c.name} (${c.unit})` : c.name, level: 2,
              height: COUNTER_HEIGHT, row: r, process: pi, track, collapsed: false,
            });
            this.trackItem.set(track, cIdx);
          }
        }
      }
    }
    this.height = y;
  }

  /** The items of `shown`'s rows; returns the height. */
  private buildShown(input: LayoutInput, collapsed: ReadonlySet<string>, shown: ShownRows, countersOf: Map<number, number[]>): number {
    let y = 0;
    const push = (item: Omit<LayoutItem, 'y'>): number => {
      this.items.push({ ...item, y });
      y += item.height;
      return this.items.length - 1;
    };
    let host: string | null = null;
    let process = -1;
    let hostHeader = -1; // the collapsed host header hiding the rows that follow, or -1
    let header = -1; // the collapsed host or process header hiding them, or -1
    for (const r of shown.rows) {
      const t = input.threads[r];
      const proc = t && input.processes[t.process];
      if (!t || !proc) continue;
      if (!shown.flat) {
        if (proc.host !== host) {
          host = proc.host;
          process = -1;
          const key = `host:${host}`;
          const i = push({
            kind: 'host', key, label: host === '' ? '(unknown host)' : host, level: 0,
            height: HEADER_HEIGHT, row: -1, process: -1, track: -1, collapsed: collapsed.has(key),
          });
          hostHeader = header = collapsed.has(key) ? i : -1;
        }
        if (process !== t.process && hostHeader < 0) {
          process = t.process;
          const key = `process:${process}`;
          const i = push({
            kind: 'process', key, label: proc.name, level: 1,
            height: HEADER_HEIGHT, row: -1, process, track: -1, collapsed: collapsed.has(key),
          });
          header = collapsed.has(key) ? i : -1;
        }
        if (header >= 0) {
          this.rowItem.set(r, header);
          continue;
        }
      }
      const note = shown.notes?.get(r);
      const name = shown.flat ? `${proc.name} · ${t.name}` : t.name;
      const idx = push({
        kind: 'thread', key: '', label: note ? `${note} · ${name}` : name, level: shown.flat ? 0 : 2,
        height: threadRowHeight(t.max_depth), row: r, process: t.process, track: -1, collapsed: false,
      });
      this.rowItem.set(r, idx);
      this.rowShown.add(r);
      for (const track of countersOf.get(r) ?? []) {
        const c = input.counters[track]!;
        const cIdx = push({
          kind: 'counter', key: '', label: c.unit ? `${c.name} (${c.unit})` : c.name, level: shown.flat ? 0 : 2,
          height: COUNTER_HEIGHT, row: r, process: t.process, track, collapsed: false,
        });
        this.trackItem.set(track, cIdx);
      }
    }
    return y;
  }

  /** The thread rows a collapsed header hides, in row order (empty for other items). */
  rowsHiddenBy(item: LayoutItem): number[] {
    if (!this.hidden) {
      this.hidden = new Map();
      for (const [row, i] of this.rowItem) {
        if (this.items[i]!.kind === 'thread') continue;
        const key = this.items[i]!.key;
        const list = this.hidden.get(key) ?? [];
        list.push(row);
        this.hidden.set(key, list);
      }
      for (const list of this.hidden.values()) list.sort((a, b) => a - b);
    }
    return item.collapsed ? (this.hidden.get(item.key) ?? []) : [];
  }

  /** Whether the row has its own (expanded) line. */
  rowVisible(row: number): boolean {
    return this.rowShown.has(row);
  }

  /** The item showing `row`: its thread line, or the collapsed header hiding it. */
  itemOfRow(row: number): LayoutItem | undefined {
    const i = this.rowItem.get(row);
    return i === undefined ? undefined : this.items[i];
  }

  /** Top of the row's line (or of the header that hides it), content pixels; NaN if unknown. */
  rowTop(row: number): number {
    return this.itemOfRow(row)?.y ?? NaN;
  }

  /** Middle of the row's first lane: where arrows start and end. */
  rowAnchorY(row: number): number {
    const item = this.itemOfRow(row);
    if (!item) return NaN;
    if (item.kind !== 'thread') return item.y + item.height / 2;
    return item.y + ROW_PADDING + LANE_HEIGHT / 2;
  }

  /** Top of the lane of `depth` in `row`; NaN when the row is collapsed. */
  laneTop(row: number, depth: number): number {
    if (!this.rowShown.has(row)) return NaN;
    return this.itemOfRow(row)!.y + ROW_PADDING + depth * LANE_HEIGHT;
  }

  counterItem(track: number): LayoutItem | undefined {
    const i = this.trackItem.get(track);
    return i === undefined ? undefined : this.items[i];
  }

  /** Index of the item containing content-y `y`, or -1. */
  indexAt(y: number): number {
    if (y < 0 || y >= this.height) return -1;
    let lo = 0;
    let hi = this.items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.items[mid]!.y <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  itemAt(y: number): LayoutItem | undefined {
    const i = this.indexAt(y);
    return i < 0 ? undefined : this.items[i];
  }

  /** Items intersecting content range [top, bottom). */
  itemsIn(top: number, bottom: number): LayoutItem[] {
    const out: LayoutItem[] = [];
    let i = Math.max(0, this.indexAt(Math.max(0, top)));
    for (; i < this.items.length; i++) {
      const it = this.items[i]!;
      if (it.y >= bottom) break;
      if (it.y + it.height > top) out.push(it);
    }
    return out;
  }

  /** Expanded thread rows intersecting [top, bottom), ascending. */
  rowsIn(top: number, bottom: number): number[] {
    const rows = new Set<number>();
    for (const it of this.itemsIn(top, bottom)) {
      if ((it.kind === 'thread' || it.kind === 'counter') && it.row >= 0) rows.add(it.row);
    }
    return [...rows].sort((a, b) => a - b);
  }

  /** Counter tracks whose line intersects [top, bottom). */
  tracksIn(top: number, bottom: number): number[] {
    return this.itemsIn(top, bottom).filter((it) => it.kind === 'counter').map((it) => it.track);
  }
}
