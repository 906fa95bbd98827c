// StateStyle of context.ts: state colours and visibility, changed by the
// legend and remembered per trace name in localStorage (by state name, so it
// survives reloads and re-recorded traces). With paradigm colouring on, every
// state is painted in its paradigm's colour (views/paradigm/paradigms.ts):
// the one switch every state-coloured view follows through color().
import type { StateInfo } from '../protocol/api.gen';
import type { StateStyle } from '../views/context';
import { statePalette } from '../views/paradigm/palette';
import { paradigmColor } from '../views/paradigm/paradigms';

/** What we need of localStorage (tests pass a Map-backed one). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

// Paradigm colouring is one switch for the page, not per StateStyles: a live
// trace replaces its StateStyles when new states appear, and the choice stays.
let byParadigm = false;
const paradigmListeners = new Set<() => void>();

/** Whether states are painted in their paradigm's colour. */
export function paradigmColoring(): boolean {
  return byParadigm;
}

/** Paints states in their paradigm's colour (true) or their own (false); every view redraws. */
export function setParadigmColoring(on: boolean): void {
  if (byParadigm === on) return;
  byParadigm = on;
  for (const l of [...paradigmListeners]) l();
}

interface Saved {
  hidden: string[];
  colors: Record<string, string>;
}

export class StateStyles implements StateStyle {
  private readonly colors: string[];
  /** the palette's colour of each state (views/paradigm/palette.ts) */
  private readonly defaults: string[];
  private readonly paradigmColors: string[];
  private readonly hidden: boolean[];
  private readonly listeners = new Set<() => void>();
  private readonly key: string;

  constructor(
    readonly states: readonly StateInfo[],
    traceName: string,
    private readonly store: KeyValueStore | null = null,
  ) {
    this.key = `parallax.states.${traceName}`;
    this.defaults = statePalette(states);
    this.colors = [...this.defaults];
    this.paradigmColors = states.map((s) => paradigmColor(s));
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

  /** The colour to paint: the paradigm's when paradigm colouring is on, else the state's own. */
  color(state: number): string {
    return (byParadigm ? this.paradigmColors[state] : this.colors[state]) ?? '#999999';
  }

  /** The state's own colour (recorded or picked in the legend), whatever the colouring. */
  ownColor(state: number): string {
    return this.colors[state] ?? '#999999';
  }

  visible(state: number): boolean {
    return !(this.hidden[state] ?? false);
  }

  /** Also called when paradigm colouring is switched. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    paradigmListeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      paradigmListeners.delete(listener);
    };
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

  /** Back to the recorded or palette colours, everything visible. */
  reset(): void {
    this.states.forEach((_, i) => {
      this.colors[i] = this.defaults[i]!;
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
      if (this.colors[i] !== this.defaults[i]) saved.colors[s.name] = this.colors[i]!;
    });
    try {
      this.store.setItem(this.key, JSON.stringify(saved));
    } catch {
      // Storage full or disabled: the change still applies to this page.
    }
  }
}
