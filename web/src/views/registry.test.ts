import { describe, expect, it } from 'vitest';
import { MOUNTAIN_VIEW, PANEL_VIEWS } from './registry';

describe('registry', () => {
  it('lists the panel views in tab order, without the mountain range', () => {
    expect(PANEL_VIEWS.map((v) => v.id)).toEqual(['diagnostics', 'stats', 'paradigm', 'histogram', 'matrix', 'processes', 'lamport', 'counters', 'cpus', 'loops', 'animation', 'query', 'source']);
    expect(MOUNTAIN_VIEW.id).toBe('mountain');
    for (const v of PANEL_VIEWS) expect(v.title).not.toBe('');
  });
});
