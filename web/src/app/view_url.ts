// What of the viewer's view the page URL holds, so that a copied URL (or a
// named view) opens the same view: the trace, the time window, the
// selection, the open panel tab, the hidden states, the folded groups and
// the timeline's compact mode (its row height: fit, 1, 2, 4 or 8 px), the
// label column's width, the rows shown (sort, filters, pins, empty rows),
// paradigm colouring and the Counters view's derived series.
//   ?token=…&trace=ID&from=NS&to=NS&sel=s12|m34&tab=stats&hide=NAME…&fold=KEY…&compact=fit
//   &labels=260&sort=name|mpi|imbalance|state:NAME&filter=WORDS&comm=NAME&pin=3,7&empty=hide
//   &color=paradigm&series=st:MPI_*|avg5|sum
// `hide` and `fold` repeat, once per state name and group key. Pure: reads
// and writes URLSearchParams, leaving other parameters (the token) alone.
import { parseRowHeight, type CompactRowHeight } from '../views/timeline/compact';
import { clampLabelWidth } from '../views/timeline/geometry';
import { DEFAULT_ROW_VIEW, parseRowSort, type RowView } from '../views/timeline/row_view';

export interface ViewSelection {
  kind: 'slice' | 'message';
  id: number;
}

export interface ViewState {
  /** trace id; null: the first served */
  trace: string | null;
  /** the time window, trace ns; null: the whole trace */
  window: { from: number; to: number } | null;
  selection: ViewSelection | null;
  /** the open panel tab's view id; '' for the first */
  tab: string;
  /** names of the hidden states; null: as saved for the trace (the URL says nothing) */
  hidden: string[] | null;
  /** keys of the folded host and process groups */
  folded: string[];
  /** the compact mode's row height; null: the normal timeline */
  compact: CompactRowHeight | null;
  /** the label column's width, CSS px; null: the default */
  labels: number | null;
  /** which timeline rows are shown, in what order */
  rows: RowView;
  /** states painted in their paradigm's colour (?color=paradigm) */
  paradigm: boolean;
  /** the Counters view's derived series (?series=, views/counters/derived.ts); '' none */
  series: string;
}

/** The parameters a view owns (the rest, e.g. token, is kept as is). */
export const VIEW_PARAMS = ['trace', 'from', 'to', 'sel', 'tab', 'hide', 'fold', 'compact', 'labels', 'sort', 'filter', 'comm', 'pin', 'empty', 'color', 'series'] as const;

export function emptyView(trace: string | null = null): ViewState {
  return { trace, window: null, selection: null, tab: '', hidden: null, folded: [], compact: null, labels: null, rows: DEFAULT_ROW_VIEW, paradigm: false, series: '' };
}

function number(text: string | null): number | null {
  if (text === null || text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** The view a URL's parameters describe; what is missing or malformed is left at its default. */
export function readView(params: URLSearchParams): ViewState {
  const v = emptyView(params.get('trace') || null);
  const from = number(params.get('from'));
  const to = number(params.get('to'));
  if (from !== null && to !== null && to > from) v.window = { from, to };
  const sel = /^([sm])(\d+)$/.exec(params.get('sel') ?? '');
  if (sel) v.selection = { kind: sel[1] === 's' ? 'slice' : 'message', id: Number(sel[2]) };
  v.tab = params.get('tab') ?? '';
  // A URL that carries a window says which states are hidden, also when none is.
  if (params.has('hide') || v.window) v.hidden = params.getAll('hide').filter((h) => h !== '');
  v.folded = params.getAll('fold').filter((f) => f !== '');
  v.compact = parseRowHeight(params.get('compact'));
  const labels = number(params.get('labels'));
  if (labels !== null) v.labels = clampLabelWidth(labels);
  v.rows = {
    sort: parseRowSort(params.get('sort')),
    filter: params.get('filter') ?? '',
    pinned: (params.get('pin') ?? '').split(',').filter((p) => /^\d+$/.test(p)).map(Number),
    hideEmpty: params.get('empty') === 'hide',
    comm: params.get('comm') ?? '',
  };
  v.paradigm = params.get('color') === 'paradigm';
  v.series = params.get('series') ?? '';
  return v;
}

/** `base` with the view's parameters replaced by those of `v` (times to the ns). */
export function writeView(v: ViewState, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const p of VIEW_PARAMS) out.delete(p);
  if (v.trace) out.set('trace', v.trace);
  if (v.window) {
    out.set('from', String(Math.floor(v.window.from)));
    out.set('to', String(Math.ceil(v.window.to)));
  }
  if (v.selection) out.set('sel', `${v.selection.kind === 'slice' ? 's' : 'm'}${v.selection.id}`);
  if (v.tab) out.set('tab', v.tab);
  for (const h of v.hidden ?? []) out.append('hide', h);
  for (const f of v.folded) out.append('fold', f);
  if (v.compact !== null) out.set('compact', String(v.compact));
  if (v.labels !== null) out.set('labels', String(v.labels));
  if (v.rows.sort !== 'host') out.set('sort', v.rows.sort);
  if (v.rows.filter) out.set('filter', v.rows.filter);
  if (v.rows.comm) out.set('comm', v.rows.comm);
  if (v.rows.pinned.length) out.set('pin', v.rows.pinned.join(','));
  if (v.rows.hideEmpty) out.set('empty', 'hide');
  if (v.paradigm) out.set('color', 'paradigm');
  if (v.series) out.set('series', v.series);
  return out;
}

/** The query string (with '?', or '' when empty) of `params`. */
export function queryOf(params: URLSearchParams): string {
  const q = params.toString();
  return q ? `?${q}` : '';
}
