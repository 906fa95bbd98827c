// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HELP_SECTIONS, HelpOverlay } from './help';

let help: HelpOverlay | null = null;
afterEach(() => {
  help?.destroy();
  help?.el.remove();
  help = null;
});

const press = (key: string, target: EventTarget = document.body): KeyboardEvent => {
  const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  target.dispatchEvent(e);
  return e;
};

describe('HelpOverlay', () => {
  it('opens on ?, closes on ? or Escape, and keeps that Escape from the timeline', () => {
    help = new HelpOverlay();
    document.body.append(help.el);
    let escapes = 0;
    const other = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') escapes++;
    };
    window.addEventListener('keydown', other);
    expect(help.open).toBe(false);
    expect(press('?').defaultPrevented).toBe(true);
    expect(help.open).toBe(true);
    press('Escape');
    expect(help.open).toBe(false);
    expect(escapes).toBe(0);
    press('?');
    press('?');
    expect(help.open).toBe(false);
    press('Escape');
    expect(escapes).toBe(1);
    window.removeEventListener('keydown', other);
  });

  it('leaves a ? typed into a text field alone', () => {
    help = new HelpOverlay();
    const input = document.createElement('input');
    document.body.append(help.el, input);
    expect(press('?', input).defaultPrevented).toBe(false);
    expect(help.open).toBe(false);
    input.remove();
  });

  it('lists the timeline keys and gestures', () => {
    help = new HelpOverlay();
    const text = help.el.textContent ?? '';
    for (const k of ['W / S', 'A / D', 'F', 'Shift+wheel', 'Alt+drag', 'Space', ', / .', '?', '] / [', 'P']) expect(text).toContain(k);
    expect(HELP_SECTIONS.every((s) => s.entries.length > 0)).toBe(true);
  });

  it("names every key the timeline's input handles", () => {
    const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../views/timeline/input.ts'), 'utf8');
    const keys = [...source.matchAll(/case '([^']+)':/g)].map((m) => m[1]!);
    expect(keys).toContain(']');
    const listed = HELP_SECTIONS.filter((s) => s.title.startsWith('Timeline'))
      .flatMap((s) => s.entries.map(([k]) => k.toLowerCase()));
    for (const k of keys) {
      const name = k === 'escape' ? 'escape' : k;
      expect(listed.some((l) => l.split(/ \/ |, /).some((part) => part === name)), `key ${k}`).toBe(true);
    }
  });
});
