import { describe, expect, it } from 'vitest';
import { SwappableStyles } from './live_styles';
import { StateStyles } from './state_style';

describe('SwappableStyles', () => {
  it('forwards to the current styles and tells listeners of changes and swaps', () => {
    const a = new StateStyles([{ index: 0, name: 'run', category: '', color: '#112233' }], 't');
    const s = new SwappableStyles(a);
    let calls = 0;
    s.onChange(() => calls++);
    expect(s.color(0)).toBe('#112233');
    expect(s.color(1)).toBe('#999999');
    a.setVisible(0, false);
    expect(s.visible(0)).toBe(false);
    expect(calls).toBe(1);
    const b = new StateStyles([
      { index: 0, name: 'run', category: '', color: '#112233' },
      { index: 1, name: 'wait', category: '', color: '#445566' },
    ], 't');
    s.swap(b);
    expect(calls).toBe(2);
    expect(s.color(1)).toBe('#445566');
    a.setColor(0, '#000000'); // the old one no longer counts
    expect(calls).toBe(2);
    b.setColor(1, '#ffffff');
    expect(calls).toBe(3);
  });
});
