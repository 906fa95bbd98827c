// Keeps the page URL in step with the view (app/view_url.ts says what of it)
// and puts a view back: on load from the URL, and when a named view is
// opened. Writes with history.replaceState, at most every WRITE_MS, so the
// back button is not filled with every pan; nothing is written until the
// URL's own view has been applied (a first frame must not overwrite it).
import type { Details, StateInfo } from '../protocol/api.gen';
import type { TimeWindow } from '../base/time_scale';
import type { CompactRowHeight } from '../views/timeline/compact';
import { LABEL_WIDTH } from '../views/timeline/geometry';
import type { RowView } from '../views/timeline/row_view';
import type { TimelineSelection } from '../views/timeline/selection';
import { queryOf, readView, writeView, type ViewState } from './view_url';
import { paradigmColoring, setParadigmColoring } from './state_style';
import { getDerivedSeriesParam, setDerivedSeriesParam } from '../views/counters/derived';

/** Milliseconds between URL writes at most. */
export const WRITE_MS = 250;

/** What the view is made of: the timeline, the panel tabs and the state styles. */
export interface ViewParts {
  timeline: {
    window(): TimeWindow;
    setWindow(w: TimeWindow): void;
    collapsedGroups(): string[];
    setCollapsed(keys: readonly string[]): void;
    /** the compact mode's row height (null: off) */
    compactMode(): CompactRowHeight | null;
    setCompactMode(rowHeight: CompactRowHeight | null): void;
    labelWidth(): number;
    setLabelWidth(width: number): void;
    /** which rows are shown, in what order (row_order.ts) */
    readonly rows: { readonly view: RowView; set(change: Partial<RowView>): void };
    clearSelection(): void;
    readonly selection: Pick<TimelineSelection, 'selected' | 'message' | 'selectSlice' | 'selectMessage'>;
  };
  panels: { readonly id: string; openById(id: string): boolean };
  styles: { readonly states: readonly StateInfo[]; visible(state: number): boolean; setVisible(state: number, visible: boolean): void };
  /** A slice's details: where it is, to select it. */
  sliceDetails(id: number): Promise<Details>;
}

/** Where the URL is read and written (window.location and window.history in the page). */
export interface UrlPlace {
  search(): string;
  replace(query: string): void;
}

export function pageUrl(): UrlPlace {
  return {
    search: () => window.location.search,
    replace: (query) => window.history.replaceState(window.history.state, '', `${window.location.pathname}${query}${window.location.hash}`),
  };
}

export class ViewSync {
  private enabled = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly parts: ViewParts,
    /** the id of the trace shown */
    private readonly trace: string,
    private readonly url: UrlPlace = pageUrl(),
  ) {}

  /** The view now. */
  current(): ViewState {
    const { timeline, panels, styles } = this.parts;
    const msg = timeline.selection.message;
    const slice = timeline.selection.selected;
    return {
      trace: this.trace,
      window: timeline.window(),
      selection: slice ? { kind: 'slice', id: slice.id } : msg ? { kind: 'message', id: msg.id } : null,
      tab: panels.id,
      hidden: styles.states.filter((_, i) => !styles.visible(i)).map((s) => s.name),
      folded: timeline.collapsedGroups(),
      compact: timeline.compactMode(),
      labels: timeline.labelWidth() === LABEL_WIDTH ? null : timeline.labelWidth(),
      rows: timeline.rows.view,
      paradigm: paradigmColoring(),
      series: getDerivedSeriesParam(),
    };
  }

  /** Applies the view of the page URL (all but the trace, already chosen), then keeps the URL in step. */
  async start(): Promise<void> {
    try {
      await this.apply(readView(new URLSearchParams(this.url.search())));
    } finally {
      this.enabled = true;
      this.write();
    }
  }

  /** Something of the view changed: the URL follows within WRITE_MS. */
  changed(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.write();
    }, WRITE_MS);
  }

  /** Writes the view into the URL now (if it differs). */
  write(): void {
    if (!this.enabled) return;
    const query = queryOf(writeView(this.current(), new URLSearchParams(this.url.search())));
    if (query !== this.url.search()) this.url.replace(query);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.enabled = false;
  }

  /** Puts view `v` back: folded groups, compact mode, hidden states, tab, selection, then the window. */
  async apply(v: ViewState): Promise<void> {
    const { timeline, panels, styles } = this.parts;
    timeline.setCollapsed(v.folded);
    timeline.setCompactMode(v.compact);
    timeline.setLabelWidth(v.labels ?? LABEL_WIDTH);
    timeline.rows.set(v.rows);
    // === true: named views saved before the field have none.
    setParadigmColoring(v.paradigm === true);
    // ?? '': named views saved before the field have none.
    setDerivedSeriesParam(v.series ?? '');
    if (v.hidden) {
      const hidden = new Set(v.hidden);
      styles.states.forEach((s, i) => styles.setVisible(i, !hidden.has(s.name)));
    }
    if (v.tab && v.tab !== panels.id) panels.openById(v.tab);
    if (v.window) timeline.setWindow(v.window);
    const sel = v.selection;
    if (!sel) {
      timeline.clearSelection();
    } else if (sel.kind === 'message') {
      timeline.selection.selectMessage(sel.id, null);
    } else {
      try {
        const d = await this.parts.sliceDetails(sel.id);
        timeline.selection.selectSlice(sel.id, { row: d.row, begin: d.begin, end: d.end, depth: d.depth });
      } catch {
        // The slice is not there (another trace, a live trace's window moved on): nothing selected.
        timeline.clearSelection();
      }
    }
  }
}
