// The built-in layouts of the animation view: n modules as nodes on a ring, a
// near-square mesh, a k-ary tree or a hypercube (its vertices projected onto
// a grid, edges of higher dimensions bent so they do not hide each other).
// Pure: positions in setup units, nodes of size 1, at least 1.5 apart.
import { DEFAULT_EDGE_COLOR, DEFAULT_NONE, type ModuleRef, type NodeKind, type Setup, type SetupEdge } from './setup_model';

export type BuiltinLayout = 'ring' | 'mesh' | 'tree' | 'hypercube';
export const BUILTIN_LAYOUTS: readonly BuiltinLayout[] = ['ring', 'mesh', 'tree', 'hypercube'];

/** One node per module: its label and what it shows. */
export interface ModuleSpec {
  label: string;
  module: ModuleRef;
}

const NODE_KIND: NodeKind = { name: 'node', shape: 'circle', size: 1, states: [], other: null, none: DEFAULT_NONE };

function edge(from: number, to: number, bend = 0): SetupEdge {
  return { from, to, color: DEFAULT_EDGE_COLOR, width: 1, bend };
}

function setup(name: string, modules: readonly ModuleSpec[], xy: (i: number) => [number, number], edges: SetupEdge[]): Setup {
  return {
    name,
    source: '',
    bounds: null,
    kinds: [{ ...NODE_KIND }],
    nodes: modules.map((m, i) => {
      const [x, y] = xy(i);
      return { id: String(i), kind: 0, x, y, label: m.label, module: m.module };
    }),
    edges,
    elements: [],
  };
}

/** Nodes on a circle, clockwise from the top, neighbours 1.6 apart (at least radius 3). */
export function ringLayout(modules: readonly ModuleSpec[]): Setup {
  const n = modules.length;
  const r = Math.max(3, (n * 1.6) / (2 * Math.PI));
  const edges: SetupEdge[] = [];
  if (n === 2) edges.push(edge(0, 1));
  else if (n > 2) for (let i = 0; i < n; i++) edges.push(edge(i, (i + 1) % n));
  return setup('ring', modules, (i) => {
    if (n === 1) return [0, 0];
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [r * Math.cos(a), r * Math.sin(a)];
  }, edges);
}

/** Columns and rows of the near-square grid for n nodes. */
export function meshShape(n: number): { cols: number; rows: number } {
  const cols = Math.max(1, Math.ceil(Math.sqrt(n)));
  return { cols, rows: Math.max(1, Math.ceil(n / cols)) };
}

/** A near-square grid, row by row, 2 apart; edges to the right and lower neighbours. */
export function meshLayout(modules: readonly ModuleSpec[]): Setup {
  const n = modules.length;
  const { cols } = meshShape(n);
  const edges: SetupEdge[] = [];
  for (let i = 0; i < n; i++) {
    if ((i % cols) + 1 < cols && i + 1 < n) edges.push(edge(i, i + 1));
    if (i + cols < n) edges.push(edge(i, i + cols));
  }
  return setup('mesh', modules, (i) => [(i % cols) * 2, Math.floor(i / cols) * 2], edges);
}

/** The level (root 0) and index within it of node i of a k-ary tree in level order. */
export function treePlace(i: number, k: number): { level: number; index: number } {
  let level = 0;
  let first = 0; // index of the level's first node
  let width = 1;
  while (i >= first + width) {
    first += width;
    width *= k;
    level++;
  }
  return { level, index: i - first };
}

/**
 * A k-ary tree in level order (node i's children are k*i+1 .. k*i+k), each
 * parent centred over its children; the deepest level's slots are 1.5 apart.
 */
export function treeLayout(modules: readonly ModuleSpec[], k = 2): Setup {
  const arity = Math.max(2, Math.floor(k));
  const n = modules.length;
  const deepest = n > 0 ? treePlace(n - 1, arity).level : 0;
  const width = 1.5 * Math.pow(arity, deepest);
  const gap = Math.max(3, width / (2 * (deepest + 1)));
  const edges: SetupEdge[] = [];
  for (let i = 1; i < n; i++) edges.push(edge(Math.floor((i - 1) / arity), i));
  return setup(arity === 2 ? 'tree' : `tree (${arity}-ary)`, modules, (i) => {
    const { level, index } = treePlace(i, arity);
    return [((index + 0.5) * width) / Math.pow(arity, level), level * gap];
  }, edges);
}

/** Dimensions of the smallest hypercube with at least n vertices. */
export function hypercubeDims(n: number): number {
  let d = 0;
  while (1 << d < n) d++;
  return d;
}

/**
 * A hypercube: vertex i at x from its even bits and y from its odd bits (a
 * 2^ceil(d/2) x 2^floor(d/2) grid, 2 apart); an edge per dimension to the
 * vertex differing in that bit, bent more for each higher pair of
 * dimensions so edges on the same grid line stay apart. n that is not a power
 * of two fills the first n vertices.
 */
export function hypercubeLayout(modules: readonly ModuleSpec[]): Setup {
  const n = modules.length;
  const d = hypercubeDims(n);
  const edges: SetupEdge[] = [];
  for (let i = 0; i < n; i++) {
    for (let b = 0; b < d; b++) {
      const j = i ^ (1 << b);
      if (j <= i || j >= n) continue;
      // Dimension pairs (0,1), (2,3), ... lie on the same grid lines: bend each pair more.
      edges.push(edge(i, j, 0.4 * (b >> 1)));
    }
  }
  return setup('hypercube', modules, (i) => {
    let x = 0;
    let y = 0;
    for (let b = 0; b < d; b++) {
      if (((i >> b) & 1) === 0) continue;
      if (b % 2 === 0) x += 1 << (b >> 1);
      else y += 1 << (b >> 1);
    }
    return [x * 2, y * 2];
  }, edges);
}

/** The built-in layout by name (tree: `arity`-ary). */
export function builtinLayout(layout: BuiltinLayout, modules: readonly ModuleSpec[], arity = 2): Setup {
  switch (layout) {
    case 'ring':
      return ringLayout(modules);
    case 'mesh':
      return meshLayout(modules);
    case 'tree':
      return treeLayout(modules, arity);
    case 'hypercube':
      return hypercubeLayout(modules);
  }
}
