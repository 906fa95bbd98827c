// The setup files loaded in this page and the animation view's choices, kept
// while the page lives so switching tabs does not lose them.
import type { BuiltinLayout } from './layouts';
import type { ModuleUnit } from './modules';
import type { Setup } from './setup_model';

/** 'builtin:ring' ... or 'setup:<index into setups>' */
export type LayoutChoice = `builtin:${BuiltinLayout}` | `setup:${number}`;

export class SetupLibrary {
  setups: Setup[] = [];
  choice: LayoutChoice = 'builtin:ring';
  arity = 2;
  /** null until the user chooses: then defaultUnit of the trace */
  unit: ModuleUnit | null = null;
  traffic = false;
  messages = true;

  /** Adds a setup (replacing one from a file of the same name); returns its choice. */
  add(setup: Setup): LayoutChoice {
    const same = this.setups.findIndex((s) => s.source === setup.source);
    if (same >= 0) {
      this.setups[same] = setup;
      return `setup:${same}`;
    }
    this.setups.push(setup);
    return `setup:${this.setups.length - 1}`;
  }

  /** Forgets everything (tests). */
  reset(): void {
    Object.assign(this, new SetupLibrary());
  }
}

export const setupLibrary = new SetupLibrary();
