// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { LiveStatus } from '../protocol/api.gen';
import { programState, StatusBar } from './status_bar';

const live = (patch: Partial<LiveStatus> = {}): LiveStatus => ({
  trace: 'live', generation: 3, program: 'running', connections: 2, processes: 2, received: 12345,
  applied: 12000, forced: 0, missing: 0, clock: 1_500_000, lag_ms: 12, window_from: 0, dropped: 0,
  bad_input: 0, last_bad_input: '', ...patch,
});

describe('StatusBar', () => {
  it('shows no live part and no program state until told', () => {
    const bar = new StatusBar();
    expect(bar.el.querySelector<HTMLElement>('[data-testid=status-live]')!.hidden).toBe(true);
    expect(bar.el.querySelector<HTMLElement>('[data-testid=program-state]')!.hidden).toBe(true);
  });

  it('shows what a live trace received and applied, its clock and lag', () => {
    const bar = new StatusBar();
    bar.setLive(live());
    const text = bar.el.querySelector('[data-testid=status-live]')!.textContent;
    expect(text).toBe('live: 12,345 received · 12,000 applied · clock 1.5 ms · lag 12 ms');
    const prog = bar.el.querySelector<HTMLElement>('[data-testid=program-state]')!;
    expect(prog.hidden).toBe(false);
    expect(prog.dataset['state']).toBe('running');
    expect(prog.classList.contains('program-running')).toBe(true);
  });

  it('counts bad input and puts the newest line in the tooltip', () => {
    const bar = new StatusBar();
    bar.setLive(live({ bad_input: 2, last_bad_input: 'connection 3 (rank 1): byte 4096: chunk checksum mismatch' }));
    const bad = bar.el.querySelector<HTMLElement>('[data-testid=status-bad-input]')!;
    expect(bad.textContent).toBe(' · 2 bad input');
    expect(bad.title).toBe('connection 3 (rank 1): byte 4096: chunk checksum mismatch');
    expect(bad.classList.contains('error')).toBe(true);
    bar.setLive(live());
    expect(bad.textContent).toBe('');
    expect(bad.classList.contains('error')).toBe(false);
  });

  it('the program-state indicator names every state', () => {
    const bar = new StatusBar();
    const prog = bar.el.querySelector<HTMLElement>('[data-testid=program-state]')!;
    for (const [name, text] of [['deadlocked', 'deadlocked'], ['crashed', 'crashed (abnormally terminated)'],
      ['finished', 'finished'], ['waiting', 'waiting for a program']] as const) {
      bar.setLive(live({ program: name }));
      expect(prog.textContent).toBe(text);
      expect(prog.dataset['state']).toBe(name);
    }
    bar.setProgram('deadlocked', 'rank 0 and rank 1 wait for each other');
    expect(prog.title).toMatch(/rank 0 and rank 1/);
    expect(programState('something new')).toBe('running');
  });
});
