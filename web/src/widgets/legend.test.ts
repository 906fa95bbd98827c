// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { paradigmColoring, setParadigmColoring, StateStyles } from '../app/state_style';
import type { StateInfo } from '../protocol/api.gen';
import { paradigm } from '../views/paradigm/paradigms';
import { Legend } from './legend';

const states: StateInfo[] = [
  { index: 0, name: 'solve', category: 'user', color: '#112233' },
  { index: 1, name: 'MPI_Allreduce', category: 'comm', color: '#445566' },
];

afterEach(() => setParadigmColoring(false));

describe('Legend', () => {
  it('switches paradigm colouring, shows the key and locks the pickers meanwhile', () => {
    const styles = new StateStyles(states, 'run.plx');
    const legend = new Legend(styles);
    const box = legend.el.querySelector<HTMLInputElement>('[data-testid=legend-paradigm]')!;
    const key = legend.el.querySelector<HTMLElement>('[data-testid=legend-paradigm-key]')!;
    const pickers = [...legend.el.querySelectorAll<HTMLInputElement>('input[type=color]')];
    expect(box.checked).toBe(false);
    expect(key.hidden).toBe(true);
    expect(pickers.map((p) => p.value)).toEqual(['#112233', '#445566']);

    box.checked = true;
    box.dispatchEvent(new Event('change'));
    expect(paradigmColoring()).toBe(true);
    expect(key.hidden).toBe(false);
    expect(key.querySelectorAll('li').length).toBe(8);
    expect(pickers.map((p) => p.value)).toEqual([paradigm('computing').color, paradigm('collective').color]);
    expect(pickers.every((p) => p.disabled)).toBe(true);
    expect(styles.color(1)).toBe(paradigm('collective').color);

    // Switched elsewhere (the URL, a second legend over a live trace's new states): the box follows.
    setParadigmColoring(false);
    expect(box.checked).toBe(false);
    expect(pickers.map((p) => p.value)).toEqual(['#112233', '#445566']);
    expect(new Legend(styles).el.querySelector<HTMLInputElement>('[data-testid=legend-paradigm]')!.checked).toBe(false);
    legend.destroy();
  });

  it('keeps hiding states while painting by paradigm', () => {
    setParadigmColoring(true);
    const styles = new StateStyles(states, 'run.plx');
    const legend = new Legend(styles);
    expect(legend.el.querySelector<HTMLInputElement>('[data-testid=legend-paradigm]')!.checked).toBe(true);
    const boxes = [...legend.el.querySelectorAll<HTMLInputElement>('.legend-name input[type=checkbox]')];
    boxes[1]!.checked = false;
    boxes[1]!.dispatchEvent(new Event('change'));
    expect(styles.visible(1)).toBe(false);
    expect(legend.el.querySelector('[data-state=MPI_Allreduce]')!.classList.contains('hidden-state')).toBe(true);
    legend.destroy();
  });
});
