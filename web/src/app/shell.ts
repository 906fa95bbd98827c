// The application shell: top bar, timeline, mountain strip, panel tabs,
// details, legend, status bar, progress and errors; wires them to the server
// session and exposes test hooks on window.parallax. Loading the trace and
// following a live one (trace_loading.ts), the panel tabs (panels.ts), the
// top bar's controls with export (toolbar.ts), the trace picker, named views
// and the view in the URL (view_controls.ts) and the links under the details
// (linked_details.ts) live in their own files.
import { formatCount, formatDuration, formatTimeSpan } from '../base/format';
import type { TraceApi } from '../engine/client';
import { Cursor } from '../engine/cursor';
import { ReplayController } from '../engine/replay';
import { TraceUpdateHub } from '../engine/trace_updates';
import type { LiveStatus, TraceSummary } from '../protocol/api.gen';
import type { ViewContext } from '../views/context';
import { liveWindow } from '../views/timeline/follow';
import { LABEL_WIDTH } from '../views/timeline/geometry';
import { TimelineView } from '../views/timeline/timeline';
import { DetailsPanel, rowLabel } from '../widgets/details';
import { h } from '../widgets/dom';
import { ErrorBanner } from '../widgets/error_banner';
import { setExportCaption } from '../widgets/export';
import { exportCaption } from '../widgets/export_caption';
import { HelpOverlay } from '../widgets/help';
import { Legend } from '../widgets/legend';
import { ProgressBar } from '../widgets/progress';
import { ReplayBar } from '../widgets/replay_bar';
import { matchWindow, SearchBox } from '../widgets/search';
import { StatusBar } from '../widgets/status_bar';
import { mountainView } from '../views/registry';
import './hooks';
import { SwappableStyles } from './live_styles';
import { LinkedDetails } from './linked_details';
import { mountView, PanelTabs } from './panels';
import { RepairWatch } from './repair_watch';
import { StateStyles } from './state_style';
import { timelineControls, ViewExport } from './toolbar';
import { LiveSummaries, openTrace, showFileProgramState } from './trace_loading';
import { mountTracePicker, mountViewControls } from './view_controls';
import type { ViewSync } from './view_sync';

/** Scrollbar strip on the timeline's right (see .timeline-scroll in style.css). */
const SCROLLBAR_WIDTH = 14;

export interface ShellOptions {
  token: string | null;
  trace: string | null;
}

export class Shell {
  readonly root: HTMLElement;
  private readonly errors = new ErrorBanner();
  private readonly progress = new ProgressBar();
  private readonly status = new StatusBar();
  private readonly help = new HelpOverlay();
  private readonly traceName: HTMLElement;
  private readonly pickerSlot: HTMLElement;
  private readonly viewsSlot: HTMLElement;
  private sync: ViewSync | null = null;
  private readonly searchSlot: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly timelineHost: HTMLElement;
  private readonly mountainHost: HTMLElement;
  private readonly panels: PanelTabs;
  private readonly side: HTMLElement;
  private timeline: TimelineView | null = null;
  private readonly cursor = new Cursor(0);
  private readonly updates = new TraceUpdateHub();
  private readonly replaySlot: HTMLElement;
  private replay: ReplayController | null = null;
  private replayBar: ReplayBar | null = null;
  private styles: SwappableStyles | null = null;
  private legendSlot: HTMLElement | null = null;
  private details: DetailsPanel | null = null;
  private linked: LinkedDetails | null = null;
  private waiting: HTMLElement | null = null;
  private readonly live = new LiveSummaries({
    onStatus: (s) => this.showLive(s),
    apply: (summary) => this.applySummary(summary),
  });
  private exports: ViewExport | null = null;
  private summary: TraceSummary | null = null;

  constructor(
    parent: HTMLElement,
    private readonly options: ShellOptions,
  ) {
    window.parallax = {
      timeline: null,
      ready: false,
      errors: () => this.errors.messages(),
      stateColors: () => this.summary?.states.map((st) => this.styles?.color(st.index) ?? '') ?? [],
      summary: null,
      replay: null,
      live: null,
    };
    this.traceName = h('span', { class: 'trace-name', 'data-testid': 'trace-name' }, 'Parallax');
    this.pickerSlot = h('span', { class: 'picker-slot' });
    this.viewsSlot = h('span', { class: 'views-slot' });
    this.searchSlot = h('div', { class: 'search-slot' });
    this.controls = h('div', { class: 'controls' });
    this.timelineHost = h('div', { id: 'timeline', class: 'timeline-host', 'data-testid': 'timeline' });
    this.mountainHost = h('div', { id: 'mountain', class: 'mountain-strip', 'data-testid': 'mountain' });
    this.panels = new PanelTabs({
      summary: () => this.summary,
      onError: (e) => this.errors.show(e),
      onOpen: () => {
        this.exports?.panelChanged();
        this.sync?.changed();
      },
    });
    this.side = h('div', { class: 'side' });
    this.replaySlot = h('div', { class: 'replay-slot' });
    const splitter = h('div', { class: 'splitter', title: 'Drag to resize' });
    const panel = h('section', { class: 'panel' }, this.panels.tabs, this.panels.body);
    const center = h('div', { class: 'center' }, this.timelineHost, this.mountainHost, splitter, panel);
    const helpButton = h('button', { type: 'button', class: 'help-button', title: 'Keys and mouse (?)', 'data-testid': 'help-button' }, '?');
    helpButton.addEventListener('click', () => this.help.toggle());
    this.root = h(
      'div',
      { class: 'app' },
      h('header', { class: 'topbar' }, h('span', { class: 'logo' }, 'Parallax'), this.traceName, this.pickerSlot, this.viewsSlot, this.searchSlot, this.controls, helpButton),
      this.replaySlot,
      this.progress.el,
      this.errors.el,
      h('main', { class: 'main' }, center, this.side),
      this.status.el,
      this.help.el,
    );
    parent.replaceChildren(this.root);
    this.bindSplitter(splitter, panel);

    window.addEventListener('unhandledrejection', (e) => {
      // API errors are already in the banner (the client reports them).
      const r: unknown = e.reason;
      if (r instanceof Error && r.name === 'ApiRequestError') return;
      this.errors.show(r);
    });
    window.addEventListener('error', (e) => this.errors.show(e.error ?? e.message));
  }

  async start(): Promise<void> {
    const opened = await openTrace({
      token: this.options.token,
      trace: this.options.trace,
      progress: this.progress,
      errors: this.errors,
      live: this.live,
      onEntry: (entry) => {
        this.traceName.textContent = entry.name;
        document.title = `${entry.name} – Parallax`;
        this.updates.setLive(entry.live === true);
      },
      onList: (list, chosen) => mountTracePicker(this.pickerSlot, list, chosen),
    });
    if (!opened) return;
    const { api, entry, summary } = opened;
    this.build(api, summary);
    if (this.timeline && this.styles) {
      this.sync = mountViewControls({
        api,
        timeline: this.timeline,
        panels: this.panels,
        styles: this.styles,
        trace: entry.id,
        traceName: summary.name,
        store: storage(),
        viewsSlot: this.viewsSlot,
      });
    }
    this.live.attach(api);
    new RepairWatch({
      api,
      onProgress: (f) => this.progress.note(`${entry.name}: times as recorded while the server repairs causality…`, f),
      onRepaired: (s) => {
        this.progress.hide();
        this.applySummary(s);
      },
    }).start(summary);
    if (entry.live) this.live.catchUp();
    else void showFileProgramState(api, this.status);
  }

  private showLive(s: LiveStatus): void {
    window.parallax.live = s;
    this.status.setLive(s);
  }

  /** A live trace's newer summary: timeline rows, duration and tiles, replay end, then every view. */
  private applySummary(summary: TraceSummary): void {
    const old = this.summary;
    this.summary = summary;
    window.parallax.summary = summary;
    if (old && this.styles && (old.states.length !== summary.states.length || old.name !== summary.name)) {
      this.setStyles(new StateStyles(summary.states, summary.name, storage()));
    }
    if (this.details && old && old.threads.length !== summary.threads.length) {
      this.details = new DetailsPanel(summary);
      this.side.firstElementChild?.replaceWith(this.details.el);
    }
    const t = this.timeline;
    const r = this.replay;
    if (t) {
      t.setSummary(summary);
      if (r?.state().followLive) t.setWindow(liveWindow(t.window(), summary.duration));
      t.loadNow();
      t.holdForTile();
    }
    r?.setEnd(summary.duration);
    this.replayBar?.setSummary(summary);
    this.showSize(summary);
    this.showWaiting(summary);
    this.updates.publish(summary);
  }

  private setStyles(next: StateStyles): void {
    if (!this.styles) this.styles = new SwappableStyles(next);
    else this.styles.swap(next);
    this.legendSlot?.replaceChildren(new Legend(next).el);
  }

  private showSize(summary: TraceSummary): void {
    this.status.setExtra(
      `${formatCount(summary.threads.length)} rows · ${formatCount(summary.slices)} slices · ${formatCount(summary.messages)} messages · ${formatDuration(summary.duration)}`,
    );
  }

  /** A live trace with no thread yet says so over the empty timeline. */
  private showWaiting(summary: TraceSummary): void {
    if (!this.waiting) return;
    this.waiting.hidden = !(this.updates.live() && summary.threads.length === 0);
    // An empty timeline never draws a tile: it is as ready as it gets.
    if (summary.threads.length === 0) {
      window.parallax.ready = true;
      document.body.dataset['ready'] = 'true';
    }
  }

  private build(api: TraceApi, summary: TraceSummary): void {
    this.summary = summary;
    window.parallax.summary = summary;
    for (const p of summary.problems) this.errors.show(`trace problem: ${p}`);
    if (summary.from_file)
      this.errors.show(
        `${summary.name} is larger than the server's memory budget and is served from its file: ` +
          'the timeline (without message arrows), slice details, search, the statistics and the mountain range are shown first, ' +
          'the wait states, critical path, diagnostics, anomalies, matrix and histograms once computed from the file; ' +
          'for arrows and replay, serve it with a larger --memory.',
      );
    const details = new DetailsPanel(summary);
    this.details = details;
    this.legendSlot = h('div', { class: 'legend-slot' });
    this.side.replaceChildren(details.el, this.legendSlot);
    this.setStyles(new StateStyles(summary.states, summary.name, storage()));
    const styles = this.styles!;

    const timeline = new TimelineView(this.timelineHost, {
      api,
      summary,
      style: styles,
      replay: this.cursor,
      onDetails: (d, loading) => {
        const panel = this.details ?? details;
        if (d) panel.show(d);
        else if (loading) panel.loading();
        else panel.clear();
        this.linked?.shown(d);
      },
      onStatus: (s) => {
        this.sync?.changed();
        const sel = s.selected;
        this.status.update({
          pointer: s.pointer,
          window: s.window,
          range: s.range,
          loading: s.loading,
          selection: sel
            ? `selected ${sel.name || 'slice ' + sel.id} on ${rowLabel(this.summary ?? summary, sel.row)}, ${formatDuration(sel.end - sel.begin)} at ${formatTimeSpan(sel.begin, sel.end)[0]}`
            : '',
        });
      },
      onFirstDraw: () => {
        window.parallax.ready = true;
        document.body.dataset['ready'] = 'true';
      },
      onError: (e) => this.errors.show(e),
    });
    this.timeline = timeline;
    this.linked = new LinkedDetails(timeline, () => this.details ?? details, () => this.summary ?? summary);
    window.parallax.timeline = {
      window: () => timeline.window(),
      rowY: (row) => timeline.geometry().rowTop(row),
      laneY: (row, depth) => timeline.geometry().laneMiddle(row, depth),
      timeToX: (t) => timeline.geometry().timeToX(t),
      xToTime: (x) => timeline.geometry().xToTime(x),
      highlighted: () => timeline.highlighted(),
      selected: () => timeline.selected(),
      selectedMessage: () => timeline.selection.message,
      area: () => timeline.area(),
      setWindow: (from, to) => timeline.setWindow({ from, to }),
      drawnDuration: () => timeline.drawnDuration(),
      frames: () => timeline.frames,
      lastFrameMs: () => timeline.lastFrameMs,
    };
    this.showSize(summary);
    this.waiting = h('div', { class: 'live-waiting', 'data-testid': 'live-waiting', hidden: true },
      'Waiting for a program: start one with PLX_LIVE=host:port pointing at this server.');
    this.timelineHost.append(this.waiting);
    this.showWaiting(summary);
    this.buildReplay(api, summary, timeline);
    this.status.update({ pointer: null, window: timeline.window(), range: null, selection: '', loading: false });

    const ctx: ViewContext = { api, summary, timeline, states: styles, replay: this.cursor, updates: this.updates };
    this.updates.onUpdate((s) => this.panels.update(s));
    // A match is shown in the window it fits (src/widgets/search.ts) and selected.
    const search = new SearchBox(api, summary, (s) => {
      timeline.setWindow(matchWindow(timeline.window(), s));
      timeline.reveal(s.row, (s.begin + s.end) / 2);
      timeline.selection.selectSlice(s.id, { row: s.row, begin: s.begin, end: s.end, depth: s.depth });
    });
    this.searchSlot.replaceChildren(search.el);
    const exports = new ViewExport({
      timelineHost: this.timelineHost,
      panelBody: this.panels.body,
      timeline: () => this.timeline,
      panelView: () => this.panels.view,
      panelId: () => this.panels.id,
      traceName: () => this.summary?.name ?? null,
      onError: (e) => this.errors.show(e),
    });
    this.exports = exports;
    // Exports carry the trace, the window and the states drawn (the timeline's
    // tile; every state for a panel view or the compact mode).
    setExportCaption((name) => {
      const tile = name.endsWith('-timeline') && timeline.compactMode() === null ? timeline.tile : null;
      return exportCaption(this.summary ?? summary, styles, timeline.window(), tile ? tile.slices.state : null);
    });
    this.controls.replaceChildren(...timelineControls(timeline, (format) => exports.export(format)));

    // The mountain range shares the timeline's time axis: same label column
    // on the left, the scrollbar's width on the right.
    const mountain = mountainView({ labelWidth: LABEL_WIDTH, rightMargin: SCROLLBAR_WIDTH, height: 90 });
    mountView(mountain, ctx, this.mountainHost, (e) => this.errors.show(e));
    this.panels.build(ctx);
  }

  private buildReplay(api: TraceApi, summary: TraceSummary, timeline: TimelineView): void {
    const replay = new ReplayController({
      api,
      cursor: this.cursor,
      end: summary.duration,
      stateName: (i) => this.summary?.states[i]?.name ?? `state ${i}`,
      counterName: (i) => this.summary?.counters[i]?.name ?? `counter ${i}`,
    });
    this.replay = replay;
    // Stepping to (or stopping at) an event selects it: its slice and details.
    replay.onEvent((ev) => timeline.showEvent(ev));
    const bar = new ReplayBar({ replay, summary, live: this.updates.live() });
    this.replayBar = bar;
    this.replaySlot.replaceChildren(bar.el);
    window.parallax.replay = {
      time: () => this.cursor.time(),
      state: () => replay.state(),
      breakpoints: () => replay.breakpoints(),
      idle: () => replay.idle(),
    };
  }

  private bindSplitter(splitter: HTMLElement, panel: HTMLElement): void {
    splitter.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      splitter.setPointerCapture(e.pointerId);
      const startY = e.clientY;
      const startH = panel.getBoundingClientRect().height;
      const move = (ev: PointerEvent): void => {
        const hgt = Math.max(60, Math.min(window.innerHeight - 200, startH - (ev.clientY - startY)));
        panel.style.height = `${hgt}px`;
      };
      const up = (): void => {
        splitter.removeEventListener('pointermove', move);
        splitter.removeEventListener('pointerup', up);
      };
      splitter.addEventListener('pointermove', move);
      splitter.addEventListener('pointerup', up);
    });
  }
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
