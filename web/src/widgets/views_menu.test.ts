// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { TraceEntry } from '../protocol/api.gen';
import { TracePicker, traceLabel } from './trace_picker';
import { ViewsMenu } from './views_menu';

function entry(id: string, status = 'ready'): TraceEntry {
  return { id, name: `${id}.plx`, path: `/t/${id}.plx`, status, phase: '', done: 0, total: 0, error: null, live: false };
}

describe('TracePicker', () => {
  it('is hidden for one trace, lists several with the current chosen, and calls back on another', () => {
    expect(new TracePicker([entry('a')], 'a', () => undefined).el.hidden).toBe(true);
    const picked: string[] = [];
    const p = new TracePicker([entry('a'), entry('b', 'loading')], 'a', (id) => picked.push(id));
    expect(p.el.hidden).toBe(false);
    expect([...p.el.options].map((o) => o.textContent)).toEqual(['a.plx', 'b.plx (loading)']);
    expect(p.el.value).toBe('a');
    p.el.value = 'b';
    p.el.dispatchEvent(new Event('change'));
    expect(picked).toEqual(['b']);
    expect(traceLabel(entry('c', 'failed'))).toBe('c.plx (failed)');
  });

  it('offers every trace, even one, when the page asked for one not served', () => {
    const picked: string[] = [];
    const p = new TracePicker([entry('a')], null, (id) => picked.push(id));
    expect(p.el.hidden).toBe(false);
    expect(p.el.value).toBe('');
    expect([...p.el.options].map((o) => o.value)).toEqual(['', 'a']);
    p.el.value = 'a';
    p.el.dispatchEvent(new Event('change'));
    expect(picked).toEqual(['a']);
  });
});

describe('ViewsMenu', () => {
  it('saves under the typed name, lists, opens and deletes views', () => {
    const names: string[] = [];
    const opened: string[] = [];
    const menu = new ViewsMenu({
      names: () => [...names],
      save: (n) => names.push(n),
      open: (n) => opened.push(n),
      remove: (n) => names.splice(names.indexOf(n), 1),
    });
    document.body.replaceChildren(menu.el);
    const q = (id: string) => menu.el.querySelectorAll<HTMLElement>(`[data-testid=${id}]`);
    expect(menu.el.textContent).toContain('No saved views yet.');
    const input = q('views-name')[0] as HTMLInputElement;
    input.value = '  ';
    q('views-save')[0]!.click();
    expect(names).toEqual([]);
    input.value = 'first';
    q('views-save')[0]!.click();
    input.value = 'second';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(names).toEqual(['first', 'second']);
    expect([...q('views-item')].map((b) => b.dataset['name'])).toEqual(['first', 'second']);
    menu.el.open = true;
    q('views-item')[1]!.click();
    expect(opened).toEqual(['second']);
    expect(menu.el.open).toBe(false);
    q('views-remove')[0]!.click();
    expect([...q('views-item')].map((b) => b.dataset['name'])).toEqual(['second']);
  });
});
