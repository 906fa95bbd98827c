// Named views of a trace, kept in localStorage under the trace's name (as
// the state colours are, app/state_style.ts): each is a name and the view's
// URL parameters (app/view_url.ts) without the trace, so it opens the same
// window, selection, tab, hidden states and folded groups again.
import type { KeyValueStore } from './state_style';
import { readView, writeView, type ViewState } from './view_url';

export interface NamedView {
  name: string;
  /** the view's URL parameters, without the trace and the token */
  query: string;
}

/** Views kept per trace at most; saving one more drops the oldest. */
export const MAX_NAMED_VIEWS = 50;

export class NamedViews {
  private readonly key: string;
  private readonly listeners = new Set<() => void>();

  constructor(
    traceName: string,
    private readonly store: KeyValueStore | null,
  ) {
    this.key = `parallax.views.${traceName}`;
  }

  /** The saved views, oldest first. */
  list(): NamedView[] {
    if (!this.store) return [];
    try {
      const v = JSON.parse(this.store.getItem(this.key) ?? '[]') as unknown;
      if (!Array.isArray(v)) return [];
      return v.filter((x): x is NamedView => typeof x?.name === 'string' && typeof x?.query === 'string');
    } catch {
      return [];
    }
  }

  /** The view saved as `name`, or null. */
  get(name: string): ViewState | null {
    const v = this.list().find((x) => x.name === name);
    return v ? readView(new URLSearchParams(v.query)) : null;
  }

  /** Saves `view` as `name` (replacing a view of that name). */
  save(name: string, view: ViewState): void {
    const query = writeView({ ...view, trace: null }).toString();
    const views = this.list().filter((x) => x.name !== name);
    views.push({ name, query });
    this.put(views.slice(-MAX_NAMED_VIEWS));
  }

  remove(name: string): void {
    this.put(this.list().filter((x) => x.name !== name));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private put(views: NamedView[]): void {
    try {
      this.store?.setItem(this.key, JSON.stringify(views));
    } catch {
      // Storage full or disabled: nothing is kept.
    }
    for (const l of [...this.listeners]) l();
  }
}
