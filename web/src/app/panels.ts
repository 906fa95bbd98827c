// The panel under the timeline: a tab bar of the panel views (statistics,
// histogram, matrix, ...) and the body the open one is mounted in. One view is
// mounted at a time; a live trace's newer summary makes the open view again
// unless it follows updates itself.
import type { TraceSummary } from '../protocol/api.gen';
import type { View, ViewContext, ViewFactory } from '../views/context';
import { PANEL_VIEWS } from '../views/registry';
import { h } from '../widgets/dom';
import { PanelRefresher } from './panel_refresh';

/**
 * Makes the view of `factory` and mounts it in `host`; a view that throws is
 * reported and leaves the host empty rather than stopping the other views.
 */
export function mountView(
  factory: ViewFactory,
  ctx: ViewContext,
  host: HTMLElement,
  onError: (e: unknown) => void,
): View | null {
  try {
    const view = factory.create(ctx);
    view.mount(host);
    return view;
  } catch (e) {
    onError(e);
    return null;
  }
}

export interface PanelTabsOptions {
  /** The newest summary, which a view opened later is made from. */
  summary: () => TraceSummary | null;
  onError: (e: unknown) => void;
  /** Another view was opened in the panel. */
  onOpen: () => void;
}

export class PanelTabs {
  /** the tab bar */
  readonly tabs: HTMLElement;
  /** where the open view is mounted */
  readonly body: HTMLElement;
  private openView: View | null = null;
  private openFactory: ViewFactory | null = null;
  private ctx: ViewContext | null = null;
  private openId = '';
  private buttons: HTMLButtonElement[] = [];
  private readonly refresher = new PanelRefresher((s) => this.remount(s));

  constructor(private readonly options: PanelTabsOptions) {
    this.tabs = h('nav', { class: 'tabs', role: 'tablist', 'data-testid': 'tabs' });
    this.body = h('div', { class: 'panel-body', 'data-testid': 'panel' });
  }

  /** The mounted view; null before the first or when it failed to mount. */
  get view(): View | null {
    return this.openView;
  }

  /** The id of the open view's factory ('' before the first). */
  get id(): string {
    return this.openId;
  }

  /** Makes a tab for every panel view and opens the first. */
  build(ctx: ViewContext): void {
    const buttons = PANEL_VIEWS.map((f) => {
      const b = h('button', { type: 'button', role: 'tab', class: 'tab', 'data-view': f.id }, f.title);
      b.addEventListener('click', () => this.open(f, ctx, buttons));
      return b;
    });
    this.buttons = buttons;
    this.tabs.replaceChildren(...buttons);
    const first = PANEL_VIEWS[0];
    if (first) this.open(first, ctx, buttons);
  }

  /** Opens the view with id `id` (a saved view's tab); false when there is none or the tabs are not built. */
  openById(id: string): boolean {
    const f = PANEL_VIEWS.find((v) => v.id === id);
    if (!f || !this.ctx) return false;
    this.open(f, this.ctx, this.buttons);
    return true;
  }

  /** A live trace's newer summary: the open view is made again from it (at most every 2 s) unless it follows updates itself. */
  update(summary: TraceSummary): void {
    if (this.openFactory && !this.openFactory.followsUpdates) this.refresher.update(summary);
  }

  private open(f: ViewFactory, ctx: ViewContext, buttons: HTMLButtonElement[]): void {
    if (this.openId === f.id) return;
    try {
      this.openView?.unmount();
    } catch (e) {
      this.options.onError(e);
    }
    this.clearBody();
    this.openId = f.id;
    for (const b of buttons) {
      const on = b.dataset['view'] === f.id;
      b.classList.toggle('selected', on);
      b.setAttribute('aria-selected', String(on));
    }
    this.body.dataset['view'] = f.id;
    this.refresher.cancel();
    this.openFactory = f;
    this.ctx = ctx;
    this.openView = mountView(f, { ...ctx, summary: this.options.summary() ?? ctx.summary }, this.body, this.options.onError);
    this.options.onOpen();
  }

  /** Empties the body for the next view: no children, none of the last view's classes or data-* (its test id stays). */
  private clearBody(): void {
    this.body.replaceChildren();
    this.body.className = 'panel-body';
    for (const k of Object.keys(this.body.dataset)) if (k !== 'testid') delete this.body.dataset[k];
  }

  /** A live trace's newer summary for a panel view that does not follow updates itself. */
  private remount(summary: TraceSummary): void {
    const f = this.openFactory;
    if (!f || !this.ctx) return;
    try {
      this.openView?.unmount();
    } catch (e) {
      this.options.onError(e);
    }
    this.clearBody();
    this.body.dataset['view'] = f.id;
    this.openView = mountView(f, { ...this.ctx, summary }, this.body, this.options.onError);
  }
}
