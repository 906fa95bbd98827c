import { describe, expect, it } from 'vitest';
import { builtinLayout, BUILTIN_LAYOUTS, hypercubeDims, hypercubeLayout, meshLayout, meshShape, ringLayout, treeLayout, treePlace, type ModuleSpec } from './layouts';
import type { Setup } from './setup_model';

const modules = (n: number): ModuleSpec[] => Array.from({ length: n }, (_, i) => ({ label: `rank ${i}`, module: { by: 'rank', ids: [i] } }));
const at = (s: Setup, i: number): [number, number] => [s.nodes[i]!.x, s.nodes[i]!.y];
const edgeSet = (s: Setup): Set<string> => new Set(s.edges.map((e) => `${Math.min(e.from, e.to)}-${Math.max(e.from, e.to)}`));

/** The smallest distance between two node centres (a grid of cells makes it fast). */
function minDistance(s: Setup): number {
  const cell = 1.5;
  const grid = new Map<string, number[]>();
  s.nodes.forEach((n, i) => {
    const key = `${Math.floor(n.x / cell)},${Math.floor(n.y / cell)}`;
    (grid.get(key) ?? grid.set(key, []).get(key)!).push(i);
  });
  let best = Infinity;
  s.nodes.forEach((n, i) => {
    const cx = Math.floor(n.x / cell);
    const cy = Math.floor(n.y / cell);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const j of grid.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (j !== i) best = Math.min(best, Math.hypot(n.x - s.nodes[j]!.x, n.y - s.nodes[j]!.y));
        }
      }
    }
  });
  return best;
}

describe('built-in layouts', () => {
  it('puts a ring clockwise from the top, neighbours linked', () => {
    const s = ringLayout(modules(4));
    expect(s.nodes).toHaveLength(4);
    const [x0, y0] = at(s, 0);
    expect(x0).toBeCloseTo(0);
    expect(y0).toBeCloseTo(-3);
    expect(at(s, 1)[0]).toBeCloseTo(3);
    expect(at(s, 2)[1]).toBeCloseTo(3);
    expect(at(s, 3)[0]).toBeCloseTo(-3);
    expect(edgeSet(s)).toEqual(new Set(['0-1', '1-2', '2-3', '0-3']));
    expect(s.nodes[2]!.label).toBe('rank 2');
    expect(s.nodes[2]!.module).toEqual({ by: 'rank', ids: [2] });
  });

  it('makes a near-square mesh row by row', () => {
    expect(meshShape(1024)).toEqual({ cols: 32, rows: 32 });
    expect(meshShape(10)).toEqual({ cols: 4, rows: 3 });
    const s = meshLayout(modules(10));
    expect(at(s, 0)).toEqual([0, 0]);
    expect(at(s, 3)).toEqual([6, 0]);
    expect(at(s, 4)).toEqual([0, 2]);
    expect(at(s, 9)).toEqual([2, 4]);
    // right neighbours within a row and lower neighbours: 3 rows of 4 (+2 in the last row)
    const e = edgeSet(s);
    expect(e.has('3-4')).toBe(false); // no wrap at the row end
    expect(e.has('0-1')).toBe(true);
    expect(e.has('5-9')).toBe(true);
    expect(s.edges).toHaveLength(3 + 3 + 1 + 6);
  });

  it('centres tree parents over their children', () => {
    expect(treePlace(0, 2)).toEqual({ level: 0, index: 0 });
    expect(treePlace(2, 2)).toEqual({ level: 1, index: 1 });
    expect(treePlace(6, 2)).toEqual({ level: 2, index: 3 });
    expect(treePlace(5, 4)).toEqual({ level: 2, index: 0 });
    const s = treeLayout(modules(7));
    for (let i = 1; i < 7; i++) expect(at(s, i)[1]).toBeGreaterThan(at(s, Math.floor((i - 1) / 2))[1]);
    expect(at(s, 0)[0]).toBeCloseTo((at(s, 1)[0] + at(s, 2)[0]) / 2);
    expect(at(s, 1)[0]).toBeCloseTo((at(s, 3)[0] + at(s, 4)[0]) / 2);
    expect(s.edges.map((e) => [e.from, e.to])).toEqual([[0, 1], [0, 2], [1, 3], [1, 4], [2, 5], [2, 6]]);
    const k4 = treeLayout(modules(21), 4);
    expect(k4.edges.filter((e) => e.from === 0)).toHaveLength(4);
    expect(at(k4, 0)[0]).toBeCloseTo((at(k4, 1)[0] + at(k4, 4)[0]) / 2);
    expect(k4.name).toBe('tree (4-ary)');
  });

  it('links hypercube vertices differing in one bit', () => {
    expect(hypercubeDims(1)).toBe(0);
    expect(hypercubeDims(8)).toBe(3);
    expect(hypercubeDims(9)).toBe(4);
    const s = hypercubeLayout(modules(16));
    expect(s.edges).toHaveLength((16 * 4) / 2);
    for (const e of s.edges) {
      const d = e.from ^ e.to;
      expect(d & (d - 1)).toBe(0); // one bit
      // the first two dimensions straight, the others bent
      expect(e.bend === 0).toBe(d < 4);
    }
    expect(at(s, 1)).toEqual([2, 0]);
    expect(at(s, 2)).toEqual([0, 2]);
    expect(at(s, 15)).toEqual([6, 6]);
    // 6 vertices of a 3-cube: only edges between existing ones
    const part = hypercubeLayout(modules(6));
    expect(part.edges.every((e) => e.from < 6 && e.to < 6)).toBe(true);
    expect(part.edges).toHaveLength(7);
  });

  it('places 1024 nodes without overlaps in every layout', () => {
    for (const name of BUILTIN_LAYOUTS) {
      const s = builtinLayout(name, modules(1024));
      expect(s.nodes, name).toHaveLength(1024);
      const size = s.kinds[0]!.size;
      expect(minDistance(s), name).toBeGreaterThanOrEqual(size * 1.5 - 1e-9);
      expect(new Set(s.nodes.map((n) => n.id)).size).toBe(1024);
    }
    expect(builtinLayout('hypercube', modules(1024)).edges).toHaveLength(1024 * 5);
    expect(builtinLayout('tree', modules(1024), 3).edges).toHaveLength(1023);
  });

  it('handles one and two modules', () => {
    for (const name of BUILTIN_LAYOUTS) {
      expect(builtinLayout(name, modules(1)).nodes).toHaveLength(1);
      expect(builtinLayout(name, modules(1)).edges).toHaveLength(0);
      expect(builtinLayout(name, modules(2)).edges).toHaveLength(1);
      expect(builtinLayout(name, []).nodes).toHaveLength(0);
    }
  });
});
