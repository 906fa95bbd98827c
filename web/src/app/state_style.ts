// StateStyle of context.ts: state colours and visibility, changed by the
// legend and remembered per trace name in localStorage (by state name, so it
// survives reloads and re-recorded traces).
import { colorFromName } from '../base/color';
import type { StateInfo } from '../protocol/api.gen';
import type { StateStyle } from '../views/context';

/** What we need of localStorage (tests pass a Map-backed one). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

interface Saved {
  hidden: string[];
  colors: Record<string, string>;
}

export class StateStyles implements StateStyle {
  private readonly colors: string[];
  private readonly hidden: boolean[];
  private readonly listeners = new Set<() => void>();
  private readonly key: string;

  constructor(
    readonly states: readonly StateInfo[],
    traceName: string,
    private readonly store: KeyValueStore | null = null,
  ) {
    this.key = `parallax.states.${traceName}`;
    this.colors = states.map((s) => defaultColor(s));
    this.hidden = states.map(() => false);
    const saved = this.load();
    if (saved) {
      const hidden = new Set(saved.hidden);
      states.forEach((s, i) => {
        const c = saved.colors[s.name];
        if (c && /^#[0-9a-f]{6}$/i.test(c)) this.colors[i] = c;
        if (hidden.has(s.name)) this.hidden[i] = true;
      });
    }
  }

  color(state: number): string {
    return this.colors[state] ?? '#999999';
  }

  visible(state: number): boolean {
    return !(this.hidden[state] ?? false);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setColor(state: number, color: string): void {
    if (state < 0 || state >= this.colors.length || this.colors[state] === color) return;
    this.colors[state] = color;
    this.changed();
  }

  setVisible(state: number, visible: boolean): void {
    if (state < 0 || state >= this.hidden.length || this.hidden[state] === !visible) return;
    this.hidden[state] = !visible;
    this.changed();
  }

  /** Back to the recorded colours, everything visible. */
  reset(): void {
    this.states.forEach((s, i) => {
      this.colors[i] = defaultColor(s);
      this.hidden[i] = false;
    });
    this.changed();
  }

  private changed(): void {
    this.save();
    for (const l of [...this.listeners]) l();
  }

  private load(): Saved | null {
    if (!this.store) return null;
    try {
      const text = this.store.getItem(this.key);
      if (!text) return null;
      const v = JSON.parse(text) as Partial<Saved>;
      return { hidden: Array.isArray(v.hidden) ? v.hidden : [], colors: v.colors ?? {} };
    } catch {
      return null;
    }
  }

  private save(): void {
    if (!this.store) return;
    const saved: Saved = { hidden: [], colors: {} };
    this.states.forEach((s, i) => {
      if (this.hidden[i]) saved.hidden.push(s.name);
      if (this.colors[i] !== defaultColor(s)) saved.colors[s.name] = this.colors[i]!;
    });
    try {
      this.store.setItem(this.key, JSON.stringify(saved));
    } catch {
      // Storage full or disabled: the change still applies to this page.
    }
  }
}

export function defaultColor(s: StateInfo): string {
  return /^#[0-9a-f]{6}$/i.test(s.color) ? s.color.toLowerCase() : colorFromName(s.name);
}
