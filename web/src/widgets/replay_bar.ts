// The replay bar: step / run back / play-pause / run forward / step buttons,
// speed, jump-to-time, breakpoints, triggers, follow live and the "stopped by"
// line, over a ReplayController. Space plays or pauses, '.' and ',' step.
import { formatTime } from '../base/format';
import { parseAmount, parseTime } from '../base/parse_time';
import { describeStop, SPEEDS, type ReplayController, type ReplayState, type TriggerSpec } from '../engine/replay';
import type { TraceSummary } from '../protocol/api.gen';
import { h } from './dom';

export interface ReplayBarOptions {
  replay: ReplayController;
  summary: TraceSummary;
  /** a live trace: shows "follow live" */
  live: boolean;
  /** where keys are listened to (default window) */
  keyTarget?: Window | HTMLElement;
}

export class ReplayBar {
  readonly el: HTMLElement;
  private readonly play: HTMLButtonElement;
  private readonly speed: HTMLSelectElement;
  private readonly cursorText: HTMLElement;
  private readonly jump: HTMLInputElement;
  private readonly stopped: HTMLElement;
  private readonly follow: HTMLInputElement;
  private readonly bpTime: HTMLInputElement;
  private readonly bpList: HTMLElement;
  private readonly trigKind: HTMLSelectElement;
  private readonly trigState: HTMLSelectElement;
  private readonly trigCounter: HTMLSelectElement;
  private readonly trigThreshold: HTMLInputElement;
  private readonly trigList: HTMLElement;
  private summary: TraceSummary;
  private readonly cleanups: Array<() => void> = [];

  constructor(private readonly options: ReplayBarOptions) {
    const r = options.replay;
    this.summary = options.summary;
    const button = (label: string, title: string, testid: string, fn: () => void): HTMLButtonElement => {
      const b = h('button', { type: 'button', title, 'data-testid': testid, 'aria-label': title }, label);
      b.addEventListener('click', fn);
      return b;
    };
    this.play = button('▶', 'Play / pause (space)', 'replay-play', () => r.toggle());
    this.speed = h('select', { 'data-testid': 'replay-speed', title: 'Replay speed: trace time per wall second' });
    for (const s of SPEEDS) this.speed.append(h('option', { value: String(s.ns) }, s.label));
    this.speed.addEventListener('change', () => r.setSpeed(Number(this.speed.value)));
    this.cursorText = h('span', { class: 'replay-cursor', 'data-testid': 'replay-cursor', title: 'Replay cursor' });
    this.jump = h('input', {
      type: 'text', class: 'replay-time', 'data-testid': 'replay-jump', placeholder: 'jump to 12.5ms',
      title: 'Jump to a time: 12.5ms, 1.2s, 350us or plain ns; Enter',
    });
    this.jump.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const t = this.readTime(this.jump);
      if (t !== null) r.jump(t);
    });
    this.follow = h('input', { type: 'checkbox', 'data-testid': 'replay-follow-live' });
    this.follow.addEventListener('change', () => r.setFollowLive(this.follow.checked));
    const followLabel = h('label', { class: 'toggle', title: 'Keep the cursor at the newest clock', hidden: !options.live },
      this.follow, 'follow live');
    this.stopped = h('span', { class: 'replay-stopped', 'data-testid': 'replay-stopped', role: 'status' });

    // Breakpoints.
    this.bpTime = h('input', {
      type: 'text', class: 'replay-time', 'data-testid': 'replay-breakpoint-time', placeholder: 'at cursor',
      title: 'Breakpoint time (empty: the cursor)',
    });
    this.bpList = h('ul', { class: 'replay-list', 'data-testid': 'replay-breakpoints' });
    const addBp = (): void => {
      const t = this.bpTime.value.trim() === '' ? r.cursor.time() : this.readTime(this.bpTime);
      if (t === null) return;
      r.addBreakpoint(t);
      this.bpTime.value = '';
    };
    this.bpTime.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') addBp();
    });

    // Triggers.
    this.trigKind = h('select', { 'data-testid': 'replay-trigger-kind', title: 'What stops replay' },
      h('option', { value: 'state' }, 'state longer than'),
      h('option', { value: 'counter' }, 'counter above'),
      h('option', { value: 'message' }, 'message larger than'));
    this.trigState = h('select', { 'data-testid': 'replay-trigger-state', title: 'State' });
    this.trigCounter = h('select', { 'data-testid': 'replay-trigger-counter', title: 'Counter track' });
    this.fillChoices();
    this.trigThreshold = h('input', {
      type: 'text', class: 'replay-time', 'data-testid': 'replay-trigger-threshold', placeholder: '10ms',
    });
    this.trigList = h('ul', { class: 'replay-list', 'data-testid': 'replay-triggers' });
    const addTrig = (): void => {
      const spec = this.readTrigger();
      if (spec) {
        r.addTrigger(spec);
        this.trigThreshold.value = '';
      }
    };
    this.trigThreshold.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') addTrig();
    });
    this.trigKind.addEventListener('change', () => this.showKind());
    this.showKind();

    const more = h('details', { class: 'replay-more', 'data-testid': 'replay-more' },
      h('summary', {}, 'Breakpoints & triggers'),
      h('div', { class: 'replay-row' },
        h('span', { class: 'replay-head' }, 'Breakpoint'), this.bpTime,
        button('Add', 'Add a breakpoint at the typed time or the cursor', 'replay-breakpoint-add', addBp)),
      this.bpList,
      h('div', { class: 'replay-row' },
        h('span', { class: 'replay-head' }, 'Trigger'), this.trigKind, this.trigState, this.trigCounter, this.trigThreshold,
        button('Add', 'Add a trigger that pauses replay', 'replay-trigger-add', addTrig)),
      this.trigList);

    this.el = h('div', { class: 'replay-bar', 'data-testid': 'replay-bar' },
      h('span', { class: 'group' },
        button('|◀', 'Step one event back (,)', 'replay-step-back', () => void r.step(-1)),
        button('◀◀', 'Run backward', 'replay-run-back', () => r.play(-1)),
        this.play,
        button('▶▶', 'Run forward', 'replay-run-forward', () => r.play(1)),
        button('▶|', 'Step one event forward (.)', 'replay-step-forward', () => void r.step(1))),
      this.speed, this.cursorText, this.jump, followLabel, more, this.stopped);

    this.cleanups.push(r.onChange((s) => this.render(s)));
    this.cleanups.push(r.cursor.onMove(() => this.renderCursor()));
    const keys = (e: Event): void => this.onKey(e as KeyboardEvent);
    const target = options.keyTarget ?? window;
    target.addEventListener('keydown', keys);
    this.cleanups.push(() => target.removeEventListener('keydown', keys));
    this.render(r.state());
  }

  /** A live trace's newest summary: new states and counters for the trigger editor. */
  setSummary(summary: TraceSummary): void {
    this.summary = summary;
    this.fillChoices();
  }

  destroy(): void {
    for (const c of this.cleanups) c();
  }

  private fillChoices(): void {
    const keepState = this.trigState.value;
    const keepCounter = this.trigCounter.value;
    this.trigState.replaceChildren(h('option', { value: '-1' }, 'any state'));
    for (const s of this.summary.states) {
      this.trigState.append(h('option', { value: String(s.index) }, s.name));
    }
    this.trigCounter.replaceChildren(h('option', { value: '-1' }, 'any counter'));
    for (const c of this.summary.counters) this.trigCounter.append(h('option', { value: String(c.index) }, c.name));
    if (keepState) this.trigState.value = keepState;
    if (keepCounter) this.trigCounter.value = keepCounter;
  }

  private showKind(): void {
    const k = this.trigKind.value;
    this.trigState.hidden = k !== 'state';
    this.trigCounter.hidden = k !== 'counter';
    this.trigThreshold.placeholder = k === 'state' ? '10ms' : k === 'counter' ? 'value' : 'bytes, e.g. 64k';
  }

  /** The trigger the editor describes; null (and the field marked) when the threshold is not valid. */
  private readTrigger(): TriggerSpec | null {
    const text = this.trigThreshold.value;
    switch (this.trigKind.value) {
      case 'state': {
        const ns = this.readTime(this.trigThreshold);
        return ns === null ? null : { kind: 'state', state: Number(this.trigState.value), ns };
      }
      case 'counter': {
        const v = Number(text);
        if (text.trim() === '' || !Number.isFinite(v)) return this.invalid(this.trigThreshold, 'a number');
        return { kind: 'counter', counter: Number(this.trigCounter.value), value: v };
      }
      default: {
        const bytes = parseAmount(text);
        if (bytes === null) return this.invalid(this.trigThreshold, 'a size in bytes (64k, 1M)');
        return { kind: 'message', bytes };
      }
    }
  }

  private readTime(input: HTMLInputElement): number | null {
    const t = parseTime(input.value);
    if (t === null) return this.invalid(input, 'a time like 12.5ms, 1.2s or plain ns');
    input.removeAttribute('aria-invalid');
    input.title = input.title.replace(/ — not .*$/, '');
    return t;
  }

  private invalid(input: HTMLInputElement, want: string): null {
    input.setAttribute('aria-invalid', 'true');
    input.title = `${input.title.replace(/ — not .*$/, '')} — not ${want}: '${input.value}'`;
    return null;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey || typesText(e.target)) return;
    const r = this.options.replay;
    if (e.key === ' ') {
      // Space on a button or checkbox clicks it; that is the user's intent there.
      if (clicks(e.target)) return;
      r.toggle();
    }
    else if (e.key === '.') void r.step(1);
    else if (e.key === ',') void r.step(-1);
    else return;
    e.preventDefault();
  }

  private render(s: ReplayState): void {
    this.play.textContent = s.playing ? '||' : '▶';
    this.play.classList.toggle('on', s.playing);
    this.play.dataset['playing'] = String(s.playing);
    this.el.dataset['playing'] = String(s.playing);
    this.el.dataset['direction'] = s.direction > 0 ? 'forward' : 'back';
    this.speed.value = String(s.speed);
    this.follow.checked = s.followLive;
    this.stopped.textContent = s.stopped ? describeStop(s.stopped) : '';
    this.stopped.dataset['kind'] = s.stopped?.kind ?? '';
    this.stopped.title = this.stopped.textContent;
    this.renderCursor();
    const r = this.options.replay;
    this.bpList.replaceChildren(...r.breakpoints().map((t) => {
      const remove = h('button', { type: 'button', class: 'replay-remove', 'data-testid': 'replay-breakpoint-remove', title: 'Remove' }, '×');
      remove.addEventListener('click', () => r.removeBreakpoint(t));
      const go = h('button', { type: 'button', class: 'replay-link', title: 'Jump there' }, formatTime(t));
      go.addEventListener('click', () => r.jump(t));
      return h('li', { 'data-testid': 'replay-breakpoint', 'data-time': String(t) }, go, remove);
    }));
    this.trigList.replaceChildren(...r.triggers().map((t) => {
      const remove = h('button', { type: 'button', class: 'replay-remove', 'data-testid': 'replay-trigger-remove', title: 'Remove' }, '×');
      remove.addEventListener('click', () => r.removeTrigger(t.id));
      return h('li', { 'data-testid': 'replay-trigger', 'data-id': String(t.id) }, h('span', {}, t.label), remove);
    }));
  }

  private renderCursor(): void {
    const t = this.options.replay.cursor.time();
    this.cursorText.textContent = formatTime(t);
    this.cursorText.dataset['time'] = String(t);
  }
}

/** Whether keys typed at `target` go into a text field or a select. */
function typesText(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  if (!t || !t.tagName) return false;
  if (t.isContentEditable || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return true;
  return t.tagName === 'INPUT' && !clicks(t);
}

/** Whether space at `target` clicks it (buttons, checkboxes, <summary>). */
function clicks(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  if (!t || !t.tagName) return false;
  if (t.tagName === 'BUTTON' || t.tagName === 'SUMMARY') return true;
  return t.tagName === 'INPUT' && ['checkbox', 'radio', 'button', 'submit', 'reset'].includes((t as HTMLInputElement).type);
}
