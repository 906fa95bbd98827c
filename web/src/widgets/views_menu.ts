// The top bar's "Views" menu: save the view under a name, open or delete a
// saved one. Only DOM: where views are kept and how one is opened is the
// caller's (app/named_views.ts, app/view_sync.ts).
import { h } from './dom';

export interface ViewsMenuOptions {
  /** the saved views' names, oldest first */
  names: () => string[];
  save: (name: string) => void;
  open: (name: string) => void;
  remove: (name: string) => void;
}

export class ViewsMenu {
  readonly el: HTMLDetailsElement;
  private readonly list: HTMLElement;
  private readonly name: HTMLInputElement;

  constructor(private readonly options: ViewsMenuOptions) {
    this.name = h('input', { type: 'text', class: 'views-name', placeholder: 'name of this view', 'data-testid': 'views-name' });
    const save = h('button', { type: 'button', 'data-testid': 'views-save' }, 'Save');
    const doSave = (): void => {
      const name = this.name.value.trim();
      if (!name) return;
      options.save(name);
      this.name.value = '';
      this.refresh();
    };
    save.addEventListener('click', doSave);
    this.name.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') doSave();
    });
    this.list = h('ul', { class: 'views-list', 'data-testid': 'views-list' });
    this.el = h(
      'details',
      { class: 'views-menu', 'data-testid': 'views-menu' },
      h('summary', { title: 'Saved views of this trace', 'data-testid': 'views-button' }, 'Views'),
      h('div', { class: 'views-pop' }, h('div', { class: 'views-save' }, this.name, save), this.list),
    );
    this.el.addEventListener('toggle', () => this.refresh());
    this.refresh();
  }

  /** Lists the saved views again. */
  refresh(): void {
    const names = this.options.names();
    if (names.length === 0) {
      this.list.replaceChildren(h('li', { class: 'views-none' }, 'No saved views yet.'));
      return;
    }
    this.list.replaceChildren(
      ...names.map((n) => {
        const open = h('button', { type: 'button', class: 'views-open', 'data-testid': 'views-item', 'data-name': n }, n);
        open.addEventListener('click', () => {
          this.options.open(n);
          this.el.open = false;
        });
        const remove = h('button', { type: 'button', class: 'views-remove', title: `Delete "${n}"`, 'data-testid': 'views-remove', 'data-name': n }, '×');
        remove.addEventListener('click', () => {
          this.options.remove(n);
          this.refresh();
        });
        return h('li', {}, open, remove);
      }),
    );
  }
}
