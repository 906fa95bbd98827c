// The loading progress bar: phase name and done/total from the WebSocket.
import { formatCount } from '../base/format';
import { h } from './dom';

const PHASES: Record<string, string> = {
  load: 'Reading the trace',
  repair: 'Repairing clocks and causality',
  index: 'Building the timeline index',
  analyse: 'Analysing',
};

export function phaseLabel(phase: string): string {
  return PHASES[phase] ?? (phase ? phase[0]!.toUpperCase() + phase.slice(1) : 'Loading');
}

export class ProgressBar {
  readonly el: HTMLElement;
  private readonly label: HTMLElement;
  private readonly bar: HTMLProgressElement;

  constructor() {
    this.label = h('span', { class: 'progress-label' }, 'Connecting…');
    this.bar = h('progress', { class: 'progress-bar', max: 1 });
    this.el = h('div', { class: 'progress', 'data-testid': 'progress', hidden: true }, this.label, this.bar);
  }

  update(name: string, phase: string, done: number, total: number): void {
    this.el.hidden = false;
    this.el.dataset['phase'] = phase;
    const amount = total > 0 ? ` ${formatCount(done)} / ${formatCount(total)}` : done > 0 ? ` ${formatCount(done)}` : '';
    this.label.textContent = `${name}: ${phaseLabel(phase)}…${amount}`;
    if (total > 0) {
      this.bar.max = total;
      this.bar.value = Math.min(done, total);
    } else {
      this.bar.removeAttribute('value'); // indeterminate
    }
  }

  /** A note with a determinate bar: `fraction` of 1 done. */
  note(text: string, fraction: number): void {
    this.el.hidden = false;
    this.el.dataset['phase'] = 'note';
    this.label.textContent = `${text} ${Math.round(Math.min(Math.max(fraction, 0), 1) * 100)} %`;
    this.bar.max = 1;
    this.bar.value = Math.min(Math.max(fraction, 0), 1);
  }

  hide(): void {
    this.el.hidden = true;
  }
}
