// The Paradigms tab: time per paradigm (computing, point-to-point,
// collective, …; paradigms.ts) per process as stacked bars, the totals, and
// the program's overall state (running, deadlocked, aborted, finished). Like
// the Statistics tab it covers the timeline's area selection or zoomed window
// (common/panel_window.ts) and asks /stats again when they change.
import type { Diagnostics, StatsResult } from '../../protocol/api.gen';
import { el, RequestSeq, StatusLine } from '../common/dom';
import { formatDuration, formatPercent } from '../common/format';
import {
  markPanelWindow,
  PanelWindowFollower,
  windowLine,
  windowParams,
  type PanelWindow,
} from '../common/panel_window';
import type { View, ViewContext, ViewFactory } from '../context';
import { paradigmTimes, programState, timesTotal, type ParadigmTimes, type ProgramStateId } from './paradigm_summary';
import { PARADIGMS } from './paradigms';

/** More processes than this: the totals only (a /stats request per bar). */
export const MAX_PROCESS_BARS = 64;

const STATE_COLORS: Record<ProgramStateId, string> = {
  running: '#1f77b4',
  deadlocked: '#d62728',
  aborted: '#d62728',
  finished: '#2ca02c',
  unknown: 'inherit',
};

interface Loaded {
  window: PanelWindow;
  totals: ParadigmTimes;
  /** per process shown: its index and times */
  processes: { index: number; times: ParadigmTimes }[];
  /** processes in the window not given a bar */
  left: number;
}

export class ParadigmView implements View {
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private readonly programSeq = new RequestSeq();
  private unsubscribe: (() => void)[] = [];
  private host: HTMLElement | null = null;
  /** the part of the trace covered, following the timeline */
  private readonly covered: PanelWindowFollower;
  private program!: HTMLDivElement;
  private windowInfo!: HTMLDivElement;
  private totals!: HTMLTableSectionElement;
  private bars!: HTMLDivElement;

  constructor(private readonly ctx: ViewContext) {
    this.covered = new PanelWindowFollower(ctx.timeline, () => this.ctx.summary.duration, () => this.load());
  }

  mount(host: HTMLElement): void {
    this.host = host;
    host.classList.add('paradigm-view');
    this.program = el('div', { class: 'paradigm-program', 'data-testid': 'paradigm-program' });
    this.windowInfo = el('div', { class: 'stats-info', 'data-testid': 'paradigm-window' });
    const head = el('tr', {}, el('th', { scope: 'col' }, 'paradigm'), el('th', { scope: 'col', class: 'num' }, 'time'), el('th', { scope: 'col', class: 'num' }, 'share'));
    this.totals = el('tbody');
    const table = el('table', { class: 'data-table', 'data-testid': 'paradigm-totals' }, el('thead', {}, head), this.totals);
    this.bars = el('div', { class: 'paradigm-bars', 'data-testid': 'paradigm-bars' });
    const note = el('div', { class: 'stats-info' }, 'Exclusive time of each state, by paradigm; computing includes thread time outside any state.');
    // Totals beside the bars (one under the other when the panel is narrow).
    const body = el('div', { class: 'paradigm-body' }, table, this.bars);
    body.style.cssText = 'display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start';
    this.bars.style.cssText = 'flex:1;min-width:320px';
    host.append(this.program, this.status.element, this.windowInfo, note, body);
    this.unsubscribe.push(this.covered.follow());
    this.loadProgram();
    this.load();
  }

  unmount(): void {
    this.seq.invalidate();
    this.programSeq.invalidate();
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    markPanelWindow(this.host, null);
    this.host = null;
  }

  /** The processes with a row in the window (all of them but for an area selection). */
  private processesIn(w: PanelWindow): number[] {
    const ps = this.ctx.summary.processes;
    if (w.kind !== 'selection') return ps.map((p) => p.index);
    const rows = new Set(w.rows);
    return ps.filter((p) => p.threads.some((t) => rows.has(t))).map((p) => p.index);
  }

  private load(): void {
    if (!this.host) return;
    const w = this.covered.current();
    const n = this.seq.next();
    this.covered.asked(w);
    this.host.setAttribute('data-pending', 'true');
    this.status.loading();
    const params = windowParams(w);
    const inWindow = this.processesIn(w);
    const shown = inWindow.length <= MAX_PROCESS_BARS ? inWindow : [];
    const states = this.ctx.summary.states;
    Promise.all([
      this.ctx.api.get('stats', params),
      ...shown.map((process) => this.ctx.api.get('stats', { ...params, process })),
    ])
      .then(([all, ...each]) => {
        if (!this.seq.isCurrent(n) || !this.host) return;
        this.status.clear();
        this.host.removeAttribute('data-pending');
        this.render({
          window: w,
          totals: paradigmTimes(all!, states),
          processes: each.map((r, i) => ({ index: shown[i]!, times: paradigmTimes(r, states) })),
          left: inWindow.length - shown.length,
        });
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n) || !this.host) return;
        this.host.removeAttribute('data-pending');
        this.status.error(err);
      });
  }

  /** The overall state: from /live for a live trace, /diagnostics and the whole trace's /stats. */
  private loadProgram(): void {
    const n = this.programSeq.next();
    const api = this.ctx.api;
    const live = this.ctx.updates.live() ? api.get('live', {}).then((s) => s.program) : Promise.resolve(null);
    const settle = <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);
    this.program.dataset['state'] = 'unknown';
    this.program.textContent = 'Program: …';
    void Promise.all([settle(live), settle<Diagnostics>(api.get('diagnostics', {})), settle<StatsResult>(api.get('stats', {}))]).then(
      ([liveProgram, diagnostics, whole]) => {
        if (!this.programSeq.isCurrent(n)) return;
        const s = programState({ live: liveProgram, diagnostics, whole, processes: this.ctx.summary.processes.length });
        this.program.dataset['state'] = s.state;
        const badge = el('strong', {}, `Program: ${s.state}`);
        badge.style.color = STATE_COLORS[s.state];
        this.program.replaceChildren(badge, ` — ${s.why}`);
      },
    );
  }

  private render(d: Loaded): void {
    this.windowInfo.textContent = windowLine(d.window);
    markPanelWindow(this.host, d.window);
    const total = timesTotal(d.totals);
    this.totals.replaceChildren(
      ...PARADIGMS.map((p) => {
        const ns = d.totals[p.id];
        return el(
          'tr',
          { 'data-testid': 'paradigm-total', 'data-paradigm': p.id, 'data-ns': String(ns) },
          el('td', { class: 'name' }, swatch(p.color), p.title),
          el('td', { class: 'num' }, formatDuration(ns)),
          el('td', { class: 'num' }, total > 0 ? formatPercent(ns / total) : '–'),
        );
      }),
    );
    const names = new Map(this.ctx.summary.processes.map((p) => [p.index, p.name]));
    const rows = d.processes.map(({ index, times }) => {
      const sum = timesTotal(times);
      const bar = el('div', { class: 'paradigm-bar' });
      bar.style.cssText = 'display:flex;flex:1;height:14px;background:#eee;min-width:0';
      for (const p of PARADIGMS) {
        const ns = times[p.id];
        if (ns <= 0) continue;
        const seg = el('div', {
          'data-testid': 'paradigm-segment',
          'data-paradigm': p.id,
          'data-ns': String(ns),
          title: `${p.title}: ${formatDuration(ns)} (${formatPercent(ns / sum)})`,
        });
        seg.style.cssText = `width:${(100 * ns) / sum}%;background:${p.color}`;
        bar.append(seg);
      }
      const row = el(
        'div',
        { 'data-testid': 'paradigm-process', 'data-process': String(index) },
        el('span', { class: 'name' }, names.get(index) ?? `process ${index}`),
        bar,
        el('span', { class: 'num' }, formatDuration(sum)),
      );
      row.style.cssText = 'display:flex;gap:8px;align-items:center;margin:2px 0';
      (row.firstChild as HTMLElement).style.cssText = 'width:9em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap';
      return row;
    });
    if (d.left > 0) rows.push(el('div', { class: 'stats-info' }, `${d.left} processes: too many for a bar each; the totals cover them.`));
    this.bars.replaceChildren(...rows);
  }
}

function swatch(color: string): HTMLSpanElement {
  const s = el('span', { class: 'swatch', 'aria-hidden': 'true' });
  s.style.cssText = `display:inline-block;width:10px;height:10px;margin-right:4px;background:${color}`;
  return s;
}

export const PARADIGM_VIEW: ViewFactory = {
  id: 'paradigm',
  title: 'Paradigms',
  create: (ctx) => new ParadigmView(ctx),
};
