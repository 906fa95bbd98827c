// The controls in the top bar (zoom buttons, the compact mode and its row
// height, the rows' sort, filter and empty-row hiding, overlay toggles, PNG and SVG export) and which view an export takes: the timeline, or the panel view
// last pressed on when it is a drawing.
import type { Painter } from '../render/painter';
import type { View } from '../views/context';
import { COMPACT_ROW_HEIGHTS, parseRowHeight } from '../views/timeline/compact';
import { BAND_STATS, parseBandStat } from '../views/timeline/compact_stats';
import { communicatorNames } from '../views/timeline/row_comm';
import { parseRowSort } from '../views/timeline/row_view';
import type { TimelineView } from '../views/timeline/timeline';
import { h } from '../widgets/dom';
import { exportView } from '../widgets/export';

export type ExportFormat = 'png' | 'svg';

export interface ViewExportOptions {
  /** the timeline's host and the panel's body: a press on either makes it the one exported */
  timelineHost: HTMLElement;
  panelBody: HTMLElement;
  timeline: () => TimelineView | null;
  /** the open panel view and its id (part of the file name) */
  panelView: () => View | null;
  panelId: () => string;
  /** the trace's name, the file name's start (without its extension) */
  traceName: () => string | null;
  onError: (e: unknown) => void;
}

/** Which view PNG and SVG export take, marked with the active-view class. */
export class ViewExport {
  private active: 'timeline' | 'panel' = 'timeline';

  constructor(private readonly options: ViewExportOptions) {
    options.timelineHost.addEventListener('pointerdown', () => this.setActive('timeline'));
    options.panelBody.addEventListener('pointerdown', () => this.setActive('panel'));
  }

  /** Another panel view opened: a table cannot be exported, so the timeline is again. */
  panelChanged(): void {
    if (this.active === 'panel' && !this.options.panelView()?.paint) this.setActive('timeline');
  }

  /** Exports the active view as a download. */
  export(format: ExportFormat): void {
    const o = this.options;
    const base = o.traceName()?.replace(/\.[^.]*$/, '') ?? 'parallax';
    let name: string;
    let size: { width: number; height: number };
    let paint: (p: Painter) => void;
    const view = o.panelView();
    const timeline = o.timeline();
    if (this.active === 'panel' && view?.paint) {
      name = `${base}-${o.panelId()}`;
      size = view.exportSize?.() ?? { width: o.panelBody.clientWidth, height: o.panelBody.clientHeight };
      paint = (p) => view.paint!(p);
    } else if (timeline) {
      name = `${base}-timeline`;
      size = timeline.exportSize();
      paint = (p) => timeline.paint(p);
    } else {
      return;
    }
    const done = exportView(name, size, paint, format) as unknown;
    if (done instanceof Promise) done.catch((e: unknown) => o.onError(e));
  }

  private setActive(which: 'timeline' | 'panel'): void {
    if (which === 'panel' && !this.options.panelView()?.paint) return;
    this.active = which;
    this.options.timelineHost.classList.toggle('active-view', which === 'timeline');
    this.options.panelBody.classList.toggle('active-view', which === 'panel');
  }
}

/**
 * The compact mode's toggle (key C), row height (fit puts every row on
 * screen, 1–8 px per row scroll) and what its bands show. Picking a height turns the mode on; both
 * follow the mode however it changes (the key, a band opened, the URL).
 */
function compactControls(timeline: TimelineView): HTMLElement {
  const box = h('input', { type: 'checkbox', 'data-testid': 'compact-toggle' });
  const heights = h(
    'select',
    { 'data-testid': 'compact-rows', title: 'Row height in compact mode: fit shows every row' },
    ...COMPACT_ROW_HEIGHTS.map((v) => h('option', { value: String(v) }, v === 'fit' ? 'fit' : `${v} px`)),
  );
  box.addEventListener('change', () => timeline.setCompactMode(box.checked ? parseRowHeight(heights.value) : null));
  heights.addEventListener('change', () => timeline.setCompactMode(parseRowHeight(heights.value)));
  // What a band of several rows shows: its dominant state, or the min, median or max share of its rows in it.
  const stat = h(
    'select',
    {
      'data-testid': 'compact-stat',
      title: 'Bands of several rows: the state most rows are in, or the min, median or max share of their time in it',
    },
    ...BAND_STATS.map((v) => h('option', { value: v }, v)),
  );
  stat.addEventListener('change', () => {
    timeline.compact.setStat(parseBandStat(stat.value) ?? 'dominant');
    if (!timeline.compact.on) timeline.setCompactMode(parseRowHeight(heights.value));
  });
  const follow = (): void => {
    box.checked = timeline.compact.on;
    heights.value = String(timeline.compact.rowHeight);
    stat.value = timeline.compact.stat;
  };
  timeline.compact.onChange(follow);
  follow();
  const label = h('label', { class: 'toggle', title: 'Every thread row a thin strip, all ranks on one screen (C)' }, box, 'compact');
  return h('span', { class: 'group' }, label, heights, stat);
}

/** How many states the sort menu offers to sort by (the trace's first ones). */
const SORT_STATES = 40;

/**
 * Which rows the timeline shows: the sort (as recorded, by name, by time in
 * MPI or in a state, by imbalance), a filter on host, process and thread
 * names, an MPI communicator (its list asked of /query when first opened), hiding the
 * rows with nothing in the window, and unpinning the rows pinned (a click on
 * a thread's label pins it). All follow the row view however it changes.
 */
function rowControls(timeline: TimelineView, states: readonly string[]): HTMLElement {
  const sort = h(
    'select',
    { 'data-testid': 'rows-sort', title: 'Order of the timeline rows', style: 'max-width: 10em' },
    h('option', { value: 'host' }, 'by host'),
    h('option', { value: 'name' }, 'by name'),
    h('option', { value: 'mpi' }, 'by time in MPI'),
    h('option', { value: 'imbalance', title: 'Most loaded (time outside MPI) first, each row against the mean' }, 'by imbalance'),
    ...states.slice(0, SORT_STATES).map((s) => h('option', { value: `state:${s}` }, `by time in ${s}`)),
  );
  const filter = h('input', {
    type: 'search', 'data-testid': 'rows-filter', placeholder: 'filter rows', style: 'width: 8em',
    title: 'Show only rows whose host, process or thread name holds one of these comma-separated words',
  });
  const comm = h(
    'select',
    {
      'data-testid': 'rows-comm', style: 'max-width: 9em',
      title: 'Show only the rows that took part in the collectives or messages of this MPI communicator',
    },
    h('option', { value: '' }, 'all comms'),
  );
  const addComm = (name: string): void => {
    if (![...comm.options].some((o) => o.value === name)) comm.append(h('option', { value: name }, name));
  };
  let listed = false;
  const listComms = (): void => {
    if (listed) return;
    listed = true;
    timeline.rows.communicators().then(
      (comms) => communicatorNames(comms).forEach(addComm),
      (e: unknown) => {
        listed = false;
        console.warn('communicators', e);
      },
    );
  };
  for (const ev of ['focus', 'pointerdown', 'pointerenter']) comm.addEventListener(ev, listComms);
  comm.addEventListener('change', () => timeline.rows.set({ comm: comm.value }));
  const empty = h('input', { type: 'checkbox', 'data-testid': 'rows-empty' });
  const unpin = h('button', { type: 'button', 'data-testid': 'rows-unpin', style: 'white-space: nowrap' }, 'unpin');
  sort.addEventListener('change', () => timeline.rows.set({ sort: parseRowSort(sort.value) }));
  filter.addEventListener('input', () => timeline.rows.set({ filter: filter.value }));
  empty.addEventListener('change', () => timeline.rows.set({ hideEmpty: empty.checked }));
  unpin.addEventListener('click', () => timeline.rows.set({ pinned: [] }));
  const follow = (): void => {
    const v = timeline.rows.view;
    if (![...sort.options].some((o) => o.value === v.sort)) sort.append(h('option', { value: v.sort }, `by time in ${v.sort.slice(6)}`));
    sort.value = v.sort;
    // Test hook: the rows' notes as laid out, "row:note,…" (their load against the mean when sorted by imbalance).
    sort.dataset.rowNotes = [...timeline.rows.notes()].map(([r, n]) => `${r}:${n}`).join(',');
    if (filter.value !== v.filter) filter.value = v.filter;
    if (v.comm) {
      addComm(v.comm);
      listComms(); // the filter asked for them already
    }
    comm.value = v.comm;
    empty.checked = v.hideEmpty;
    unpin.disabled = v.pinned.length === 0;
    unpin.textContent = v.pinned.length ? `unpin ${v.pinned.length}` : 'unpin';
    unpin.title = v.pinned.length ? 'Unpin the pinned rows' : 'A click on a thread label pins the row on top';
  };
  timeline.onViewChange(follow);
  follow();
  const label = h('label', { class: 'toggle', title: 'Hide the rows with no record in the time window' }, empty, 'hide empty');
  return h('span', { class: 'group' }, sort, filter, comm, label, unpin);
}

/** The top bar's groups of controls: zoom, compact mode, rows, overlays, export. */
export function timelineControls(timeline: TimelineView, exportAs: (format: ExportFormat) => void): HTMLElement[] {
  const button = (label: string, title: string, testid: string, fn: () => void): HTMLButtonElement => {
    const b = h('button', { type: 'button', title, 'data-testid': testid }, label);
    b.addEventListener('click', fn);
    return b;
  };
  type Overlay = 'critical-path' | 'anomalies' | 'waits';
  const overlay = (label: string, which: Overlay, title = `Show the ${label} on the timeline`): HTMLElement => {
    const box = h('input', { type: 'checkbox', 'data-testid': `overlay-${which}` });
    box.addEventListener('change', () => timeline.setOverlay(which, box.checked));
    return h('label', { class: 'toggle', title }, box, label);
  };
  const waitsTitle =
    'Show the wait states on the timeline (late sender, late receiver, collective) and, in the labels, ' +
    "each row's share of the window spent waiting against the ranks' mean";
  return [
    h(
      'span',
      { class: 'group' },
      button('+', 'Zoom in (W)', 'zoom-in', () => timeline.zoomBy(0.5)),
      button('−', 'Zoom out (S)', 'zoom-out', () => timeline.zoomBy(2)),
      button('Fit', 'Show the whole trace (F)', 'zoom-fit', () => timeline.fit()),
    ),
    compactControls(timeline),
    rowControls(timeline, timeline.stateNames()),
    h('span', { class: 'group' }, overlay('critical path', 'critical-path'), overlay('anomalies', 'anomalies'), overlay('waits', 'waits', waitsTitle)),
    h(
      'span',
      { class: 'group' },
      button('PNG', 'Export the active view as PNG', 'export-png', () => exportAs('png')),
      button('SVG', 'Export the active view as SVG', 'export-svg', () => exportAs('svg')),
    ),
  ];
}
