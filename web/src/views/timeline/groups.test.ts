import { describe, expect, it } from 'vitest';
import { fixtureSummary } from '../common/testing';
import { FoldedGroups } from './groups';

describe('FoldedGroups', () => {
  it('toggles, replaces and lists folded groups, and unfolds those hiding a row', () => {
    const g = new FoldedGroups();
    g.toggle('host:node2');
    g.toggle('process:1');
    g.toggle('process:0');
    g.toggle('process:0');
    expect(g.list()).toEqual(['host:node2', 'process:1']);
    // Row 2 is rank 1's main thread on node2: both its groups unfold.
    expect(g.unfoldFor(fixtureSummary(), 2)).toBe(true);
    expect(g.list()).toEqual([]);
    expect(g.unfoldFor(fixtureSummary(), 2)).toBe(false);
    g.replace(['process:0']);
    expect([...g.set]).toEqual(['process:0']);
    expect(g.unfoldFor(fixtureSummary(), 99)).toBe(false);
  });
});
