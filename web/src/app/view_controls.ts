// The top bar's trace picker and Views menu, and the URL kept in step with
// the view. The picker is mounted as soon as the served traces are listed
// (also when the page asked for one not served); the rest once the trace's
// views are built. Picking another trace reloads the page on it (keeping the
// token); a named view is put back in place (view_sync.ts) and then written
// to the URL.
import type { TraceApi } from '../engine/client';
import type { TraceList } from '../protocol/api.gen';
import type { TimelineView } from '../views/timeline/timeline';
import { TracePicker } from '../widgets/trace_picker';
import { ViewsMenu } from '../widgets/views_menu';
import type { SwappableStyles } from './live_styles';
import { NamedViews } from './named_views';
import type { PanelTabs } from './panels';
import type { KeyValueStore } from './state_style';
import { emptyView, queryOf, writeView } from './view_url';
import { ViewSync } from './view_sync';
import { onDerivedSeriesChange } from '../views/counters/derived';

export interface ViewControlsOptions {
  api: TraceApi;
  timeline: TimelineView;
  panels: PanelTabs;
  styles: SwappableStyles;
  /** the trace shown: its id and name (named views are kept under the name) */
  trace: string;
  traceName: string;
  store: KeyValueStore | null;
  viewsSlot: HTMLElement;
}

/** Mounts the trace picker over `list` in `slot`; `chosen` is the trace shown (null: none). */
export function mountTracePicker(slot: HTMLElement, list: TraceList, chosen: string | null): void {
  slot.replaceChildren(
    new TracePicker(list.traces, chosen, (id) => {
      // Another trace opens in this page with its own, empty view; the token stays.
      window.location.search = queryOf(writeView(emptyView(id), new URLSearchParams(window.location.search)));
    }).el,
  );
}

/** Mounts the Views menu, applies the URL's view and returns the sync to tell of changes. */
export function mountViewControls(o: ViewControlsOptions): ViewSync {
  const { timeline, styles } = o;
  const sync = new ViewSync(
    {
      timeline,
      panels: o.panels,
      styles: {
        get states() {
          return styles.current.states;
        },
        visible: (i) => styles.visible(i),
        setVisible: (i, v) => styles.current.setVisible(i, v),
      },
      sliceDetails: (id) => o.api.get('details', { kind: 'slice', id }),
    },
    o.trace,
  );
  timeline.onWindowChange(() => sync.changed());
  styles.onChange(() => sync.changed());
  onDerivedSeriesChange(() => sync.changed());
  const named = new NamedViews(o.traceName, o.store);
  o.viewsSlot.replaceChildren(
    new ViewsMenu({
      names: () => named.list().map((v) => v.name),
      save: (name) => named.save(name, sync.current()),
      open: (name) => {
        const v = named.get(name);
        if (v) void sync.apply(v).then(() => sync.write());
      },
      remove: (name) => named.remove(name),
    }).el,
  );
  void sync.start();
  return sync;
}
