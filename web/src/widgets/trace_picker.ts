// The top bar's trace picker: the traces the server serves (shown when it
// serves more than one, or when the page asked for one it does not serve),
// the one on screen chosen; picking another calls back with its id (the
// shell opens it).
import type { TraceEntry } from '../protocol/api.gen';
import { h } from './dom';

/** An option's text: the name, and the status unless ready. */
export function traceLabel(t: TraceEntry): string {
  return t.status === 'ready' ? t.name : `${t.name} (${t.status})`;
}

export class TracePicker {
  readonly el: HTMLSelectElement;

  /** `current` is the id shown; null when none is (then a placeholder is chosen). */
  constructor(traces: readonly TraceEntry[], current: string | null, onPick: (id: string) => void) {
    const none = current === null || !traces.some((t) => t.id === current);
    this.el = h(
      'select',
      { class: 'trace-picker', title: 'Traces served here', 'data-testid': 'trace-picker', hidden: traces.length < 2 && !none },
      none ? h('option', { value: '', disabled: true, selected: true }, 'choose a trace') : null,
      ...traces.map((t) => h('option', { value: t.id, selected: t.id === current }, traceLabel(t))),
    );
    this.el.value = none ? '' : current;
    this.el.addEventListener('change', () => {
      if (this.el.value && this.el.value !== current) onPick(this.el.value);
    });
  }
}
