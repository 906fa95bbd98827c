// The status bar: pointer time, visible window, selection, measured range;
// for a live trace what the server received and applied (LiveStatus); and the
// program-state indicator (running / deadlocked / crashed / finished).
import { formatCount, formatDuration, formatTime, formatTimes, resolutionFor } from '../base/format';
import type { LiveStatus } from '../protocol/api.gen';
import { h } from './dom';

/** What the program-state indicator shows (LiveStatus.program, or from a file's diagnostics). */
export type ProgramState = 'waiting' | 'running' | 'deadlocked' | 'crashed' | 'finished';

const PROGRAM_TEXT: Record<ProgramState, string> = {
  waiting: 'waiting for a program',
  running: 'running',
  deadlocked: 'deadlocked',
  crashed: 'crashed (abnormally terminated)',
  finished: 'finished',
};

/** The state named by LiveStatus.program; unknown names count as running. */
export function programState(name: string): ProgramState {
  return name in PROGRAM_TEXT ? (name as ProgramState) : 'running';
}

export interface StatusInfo {
  pointer: number | null;
  window: { from: number; to: number };
  range: { from: number; to: number } | null;
  selection: string;
  loading: boolean;
}

export class StatusBar {
  readonly el: HTMLElement;
  private readonly pointer: HTMLElement;
  private readonly window: HTMLElement;
  private readonly range: HTMLElement;
  private readonly selection: HTMLElement;
  private readonly loading: HTMLElement;
  private readonly extra: HTMLElement;
  private readonly live: HTMLElement;
  private readonly liveText: HTMLElement;
  private readonly bad: HTMLElement;
  private readonly program: HTMLElement;

  constructor() {
    this.pointer = h('span', { class: 'status-pointer', 'data-testid': 'status-pointer' });
    this.window = h('span', { class: 'status-window', 'data-testid': 'status-window' });
    this.range = h('span', { class: 'status-range', 'data-testid': 'status-range' });
    this.selection = h('span', { class: 'status-selection', 'data-testid': 'status-selection' });
    this.loading = h('span', { class: 'status-loading' });
    this.extra = h('span', { class: 'status-extra' });
    this.liveText = h('span', { 'data-testid': 'status-live-text' });
    this.bad = h('span', { class: 'status-bad-input', 'data-testid': 'status-bad-input' });
    this.live = h('span', { class: 'status-live', 'data-testid': 'status-live', hidden: true }, this.liveText, this.bad);
    this.program = h('span', { class: 'program-state', 'data-testid': 'program-state', hidden: true });
    this.el = h(
      'div',
      { class: 'status-bar', 'data-testid': 'status' },
      this.program, this.pointer, this.window, this.range, this.selection, this.loading, this.live, this.extra,
    );
  }

  /** The program-state indicator; `detail` goes into its tooltip. */
  setProgram(state: ProgramState, detail = ''): void {
    this.program.hidden = false;
    this.program.dataset['state'] = state;
    this.program.className = `program-state program-${state}`;
    this.program.textContent = PROGRAM_TEXT[state];
    this.program.title = detail ? `program ${PROGRAM_TEXT[state]}: ${detail}` : `program ${PROGRAM_TEXT[state]}`;
  }

  /** A live trace's status: records received and applied, trace clock, lag, bad input. */
  setLive(s: LiveStatus): void {
    this.live.hidden = false;
    const parts = [
      `live: ${formatCount(s.received)} received`,
      `${formatCount(s.applied)} applied`,
      `clock ${formatTime(s.clock)}`,
      `lag ${formatCount(s.lag_ms)} ms`,
    ];
    if (s.missing > 0) parts.push(`${formatCount(s.missing)} missing`);
    if (s.dropped > 0) parts.push(`${formatCount(s.dropped)} dropped from the window`);
    this.liveText.textContent = parts.join(' · ');
    this.liveText.title =
      `${formatCount(s.connections)} connected of ${formatCount(s.processes)} processes; ` +
      `${formatCount(s.forced)} applied before their causes; snapshot ${s.generation}`;
    this.bad.textContent = s.bad_input > 0 ? ` · ${formatCount(s.bad_input)} bad input` : '';
    this.bad.title = s.last_bad_input;
    this.bad.classList.toggle('error', s.bad_input > 0);
    this.live.dataset['received'] = String(s.received);
    this.live.dataset['applied'] = String(s.applied);
    this.live.dataset['badInput'] = String(s.bad_input);
    this.setProgram(programState(s.program), s.program === 'crashed' ? 'a traced process ended without finishing' : '');
  }

  update(s: StatusInfo): void {
    // About a thousandth of the window: finer than a pixel of the timeline; the
    // pointer and the window's ends in one unit (base/format.ts).
    const span = s.window.to - s.window.from;
    const [from, to, at] = formatTimes([s.window.from, s.window.to, s.pointer ?? 0], resolutionFor(span / 1000));
    this.pointer.textContent = s.pointer === null ? '' : `at ${at}`;
    this.window.textContent = `window ${from} – ${to} (${formatDuration(span)})`;
    this.range.textContent = s.range && s.range.to !== s.range.from
      ? `measured ${formatDuration(Math.abs(s.range.to - s.range.from))}`
      : '';
    this.selection.textContent = s.selection;
    this.loading.textContent = s.loading ? 'loading…' : '';
  }

  /** Free text at the end (trace size, server version). */
  setExtra(text: string): void {
    this.extra.textContent = text;
  }
}
