// The legend: every state with a checkbox to hide or show it and a colour
// input to recolour it. Collapsible; drives the shared StateStyles.
import type { StateStyles } from '../app/state_style';
import { h } from './dom';

export class Legend {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private readonly unsubscribe: () => void;
  private readonly boxes: HTMLInputElement[] = [];
  private readonly pickers: HTMLInputElement[] = [];

  constructor(private readonly styles: StateStyles) {
    const toggle = h('button', { class: 'legend-toggle', 'aria-expanded': 'true', title: 'Show or hide the legend' }, 'States');
    const filter = h('input', { type: 'search', class: 'legend-filter', placeholder: 'filter', 'aria-label': 'Filter states' });
    const reset = h('button', { class: 'legend-reset', title: 'Recorded colours, all visible' }, 'Reset');
    this.body = h('ul', { class: 'legend-list' });
    this.el = h(
      'section',
      { class: 'legend', 'data-testid': 'legend' },
      h('div', { class: 'legend-head' }, toggle, filter, reset),
      this.body,
    );
    toggle.addEventListener('click', () => {
      const collapsed = this.el.classList.toggle('collapsed');
      toggle.setAttribute('aria-expanded', String(!collapsed));
    });
    reset.addEventListener('click', () => styles.reset());
    filter.addEventListener('input', () => {
      const q = filter.value.toLowerCase();
      for (const li of Array.from(this.body.children) as HTMLElement[]) {
        li.hidden = q !== '' && !(li.dataset['state'] ?? '').toLowerCase().includes(q);
      }
    });

    styles.states.forEach((s, i) => {
      const box = h('input', { type: 'checkbox', title: 'Show this state' });
      box.checked = styles.visible(i);
      const picker = h('input', { type: 'color', title: 'Colour' });
      picker.value = styles.color(i);
      box.addEventListener('change', () => styles.setVisible(i, box.checked));
      picker.addEventListener('input', () => styles.setColor(i, picker.value));
      const label = h('label', { class: 'legend-name', title: s.category ? `${s.name} (${s.category})` : s.name }, box, s.name);
      this.boxes.push(box);
      this.pickers.push(picker);
      this.body.append(h('li', { 'data-state': s.name, class: 'legend-entry' }, picker, label));
    });
    this.unsubscribe = styles.onChange(() => this.sync());
  }

  private sync(): void {
    this.styles.states.forEach((_, i) => {
      this.boxes[i]!.checked = this.styles.visible(i);
      if (this.pickers[i]!.value !== this.styles.color(i)) this.pickers[i]!.value = this.styles.color(i);
      this.boxes[i]!.closest('li')?.classList.toggle('hidden-state', !this.styles.visible(i));
    });
  }

  destroy(): void {
    this.unsubscribe();
  }
}
