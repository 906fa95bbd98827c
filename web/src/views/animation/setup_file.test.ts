import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_NODES, parseSetup } from './setup_file';

const SETUPS = join(dirname(fileURLToPath(import.meta.url)), '../../../../examples/setups');
const example = (name: string): string => readFileSync(join(SETUPS, name), 'utf8');

/** A small valid setup; each error case changes one thing. */
function base(): Record<string, unknown> {
  return {
    format: 'parallax-setup',
    version: 1,
    name: 'two boards',
    kinds: [
      { name: 'node', shape: 'circle', size: 10 },
      { name: 'switch', shape: 'diamond', size: 14, states: [{ name: 'congested', color: '#f00', match: ['MPI_Wait*'] }], other: { name: 'idle', color: '#ccc' } },
    ],
    nodes: [
      { id: 'a', kind: 'node', x: 0, y: 0, label: 'rank 0', rank: 0 },
      { id: 'b', kind: 'node', x: 20, y: 0, rank: 1 },
      { id: 's', kind: 'switch', x: 10, y: 20, ranks: [0, 1] },
    ],
    edges: [{ from: 'a', to: 's' }],
    elements: [
      { type: 'box', x: -10, y: -10, w: 40, h: 40 },
      { type: 'line', x1: 0, y1: 0, x2: 20, y2: 0, color: '#123456' },
      { type: 'label', x: 0, y: -15, text: 'board 0' },
    ],
  };
}

function errorOf(change: (d: Record<string, any>) => void): string {
  const d = base() as Record<string, any>;
  change(d);
  const r = parseSetup(JSON.stringify(d), 'x.json');
  return r.ok ? 'ok' : r.error;
}

describe('setup files', () => {
  it('reads the shipped examples', () => {
    const ring = parseSetup(example('ring-8.json'), 'ring-8.json');
    if (!ring.ok) throw new Error(ring.error);
    expect(ring.setup.nodes).toHaveLength(8);
    expect(ring.setup.nodes[3]!.module).toEqual({ by: 'rank', ids: [3] });
    expect(ring.setup.edges).toHaveLength(8);
    expect(ring.setup.kinds[0]!.states).toEqual([]);
    expect(ring.setup.source).toBe('ring-8.json');

    const mesh = parseSetup(example('mesh-8x8-1024.json'), 'mesh-8x8-1024.json');
    if (!mesh.ok) throw new Error(mesh.error);
    const s = mesh.setup;
    expect(s.kinds.map((k) => k.name)).toEqual(['node', 'switch']);
    const ranks = s.nodes.filter((n) => n.kind === 0);
    expect(ranks).toHaveLength(1024);
    expect(new Set(ranks.map((n) => n.module!.ids[0])).size).toBe(1024);
    const switches = s.nodes.filter((n) => n.kind === 1);
    expect(switches).toHaveLength(64);
    expect(switches[0]!.module).toEqual({ by: 'rank', ids: Array.from({ length: 16 }, (_, i) => i) });
    expect(s.elements.filter((e) => e.type === 'box')).toHaveLength(64);
    expect(s.edges).toHaveLength(2 * 8 * 7);
    expect(s.bounds).not.toBeNull();
  });

  it('fills in defaults', () => {
    const r = parseSetup(JSON.stringify(base()), 'x.json');
    if (!r.ok) throw new Error(r.error);
    const s = r.setup;
    expect(s.kinds[1]!.states[0]!.color).toBe('#ff0000');
    expect(s.kinds[0]!.none).toEqual({ name: 'inactive', color: '#d9d9d9' });
    expect(s.kinds[0]!.other).toBeNull();
    expect(s.nodes[1]!.label).toBe('');
    expect(s.nodes[2]!.module).toEqual({ by: 'rank', ids: [0, 1] });
    expect(s.edges[0]).toEqual({ from: 0, to: 2, color: '#c8c8c8', width: 1, bend: 0 });
    expect(s.elements[0]).toMatchObject({ type: 'box', fill: null, color: '#888888' });
    expect(s.elements[2]).toMatchObject({ type: 'label', size: 12, align: 'left' });
    // one kind: nodes may leave it out; no id: their index
    const one = parseSetup(JSON.stringify({ format: 'parallax-setup', version: 1, kinds: [{ name: 'k' }], nodes: [{ x: 1, y: 2, row: 3 }] }), 'one.json');
    if (!one.ok) throw new Error(one.error);
    expect(one.setup.name).toBe('one');
    expect(one.setup.nodes[0]).toEqual({ id: '0', kind: 0, x: 1, y: 2, label: '', module: { by: 'row', ids: [3] } });
    expect(one.setup.kinds[0]).toMatchObject({ shape: 'circle', size: 10 });
  });

  it('reports every error in one line naming the field', () => {
    const cases: [string, (d: Record<string, any>) => void][] = [
      ['x.json: top level: unknown field "nodez" (allowed: format, version, name, bounds, kinds, nodes, edges, elements)', (d) => (d['nodez'] = [])],
      ['x.json: format: expected "parallax-setup", found "viper"', (d) => (d['format'] = 'viper')],
      ['x.json: version: expected 1, found 2', (d) => (d['version'] = 2)],
      ['x.json: name: expected a string, found 7', (d) => (d['name'] = 7)],
      ['x.json: kinds: missing (at least one node kind)', (d) => delete d['kinds']],
      ['x.json: kinds: expected an array, found an object', (d) => (d['kinds'] = {})],
      ['x.json: kinds: empty (at least one node kind)', (d) => (d['kinds'] = [])],
      ['x.json: kinds[1]: expected an object, found "switch"', (d) => (d['kinds'][1] = 'switch')],
      ['x.json: kinds[0].name: missing (a string)', (d) => delete d['kinds'][0].name],
      ['x.json: kinds[0].shape: unknown shape "star" (shapes: circle, square, diamond, hexagon)', (d) => (d['kinds'][0].shape = 'star')],
      ['x.json: kinds[0].size: must be > 0, found 0', (d) => (d['kinds'][0].size = 0)],
      ['x.json: kinds[0]: unknown field "colour" (allowed: name, shape, size, states, other, none)', (d) => (d['kinds'][0].colour = '#fff')],
      ['x.json: kinds[1].states[0].color: expected a colour "#rrggbb" or "#rgb", found "red"', (d) => (d['kinds'][1].states[0].color = 'red')],
      ['x.json: kinds[1].states[0].match: missing (an array of trace state names)', (d) => delete d['kinds'][1].states[0].match],
      ['x.json: kinds[1].states[0].match[1]: expected a state name, glob or "category:NAME", found 3', (d) => d['kinds'][1].states[0].match.push(3)],
      ['x.json: kinds[1].other.name: missing (a string)', (d) => (d['kinds'][1].other = { color: '#fff' })],
      ['x.json: kinds[1].name: duplicate kind "node" (also kinds[0])', (d) => (d['kinds'][1].name = 'node')],
      ['x.json: nodes: missing (an array of nodes)', (d) => delete d['nodes']],
      ['x.json: nodes: empty (at least one node)', (d) => (d['nodes'] = [])],
      [`x.json: nodes: ${MAX_NODES + 1} entries, at most ${MAX_NODES}`, (d) => (d['nodes'] = new Array(MAX_NODES + 1).fill(0))],
      ['x.json: nodes[2].id: duplicate id "a" (also nodes[0])', (d) => (d['nodes'][2].id = 'a')],
      ['x.json: nodes[1].id: expected a non-empty string or an integer, found 1.5', (d) => (d['nodes'][1].id = 1.5)],
      ['x.json: nodes[1].kind: missing (kinds: node, switch)', (d) => delete d['nodes'][1].kind],
      ['x.json: nodes[2].kind: unknown kind "swich" (kinds: node, switch)', (d) => (d['nodes'][2].kind = 'swich')],
      ['x.json: nodes[0].x: missing (a number)', (d) => delete d['nodes'][0].x],
      ['x.json: nodes[0].y: expected a number, found "3"', (d) => (d['nodes'][0].y = '3')],
      ['x.json: nodes[1]: give one of process, rank, row, processes, ranks, rows (found process and rank)', (d) => (d['nodes'][1].process = 1)],
      ['x.json: nodes[0].rank: expected an integer >= 0, found -1', (d) => (d['nodes'][0].rank = -1)],
      ['x.json: nodes[2].ranks: empty (leave the field out for a node that shows no module)', (d) => (d['nodes'][2].ranks = [])],
      ['x.json: nodes[2].ranks[1]: expected an integer >= 0, found "1"', (d) => (d['nodes'][2].ranks = [0, '1'])],
      ['x.json: nodes[0]: unknown field "pos" (allowed: id, kind, x, y, label, process, rank, row, processes, ranks, rows)', (d) => (d['nodes'][0].pos = [1, 2])],
      ['x.json: edges[0].from: missing (a node id)', (d) => delete d['edges'][0].from],
      ['x.json: edges[0].to: no node has id "z"', (d) => (d['edges'][0].to = 'z')],
      ['x.json: edges[0].width: must be > 0, found -2', (d) => (d['edges'][0].width = -2)],
      ['x.json: elements[0].type: missing (line, box or label)', (d) => delete d['elements'][0].type],
      ['x.json: elements[1].type: unknown element type "circle" (types: line, box, label)', (d) => (d['elements'][1].type = 'circle')],
      ['x.json: elements[0]: unknown field "text" (allowed: type, x, y, w, h, color, fill, width)', (d) => (d['elements'][0].text = 'hi')],
      ['x.json: elements[0].w: must be > 0, found 0', (d) => (d['elements'][0].w = 0)],
      ['x.json: elements[0].fill: expected a colour "#rrggbb" or "#rgb", found "#12345"', (d) => (d['elements'][0].fill = '#12345')],
      ['x.json: elements[2].text: missing (a string)', (d) => delete d['elements'][2].text],
      ['x.json: elements[2].align: expected left, center or right, found "middle"', (d) => (d['elements'][2].align = 'middle')],
      ['x.json: elements[1].x2: missing (a number)', (d) => delete d['elements'][1].x2],
      ['x.json: bounds.w: missing (a number)', (d) => (d['bounds'] = { x: 0, y: 0, h: 10 })],
    ];
    for (const [want, change] of cases) expect(errorOf(change)).toBe(want);
  });

  it('reports bad JSON and a wrong top level', () => {
    const bad = parseSetup('{"format": "parallax-setup",\n "nodes": [}', 'bad.json');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error).toMatch(/^bad\.json: not valid JSON: /);
      expect(bad.error).not.toContain('\n');
    }
    expect(parseSetup('[1]', 'a.json')).toEqual({ ok: false, error: 'a.json: top level: expected an object, found an array' });
  });

  it('accepts comments anywhere', () => {
    const d = base() as Record<string, any>;
    d['comment'] = 'a test';
    d['nodes'][0].comment = 'the first';
    expect(parseSetup(JSON.stringify(d), 'c.json').ok).toBe(true);
  });
});
