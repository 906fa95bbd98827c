// Reads a setup file of the animation view (JSON, docs/animation.md): node
// kinds, nodes, edges and layout elements. Strict, so a typo is reported
// rather than ignored; every error is one line naming the file and the field
// with its index ('ring.json: nodes[3].kind: unknown kind "swich" ...').
import { parseHex, rgbToHex } from '../../base/color';
import {
  DEFAULT_EDGE_COLOR,
  DEFAULT_ELEMENT_COLOR,
  DEFAULT_NONE,
  SHAPES,
  type Bounds,
  type KindState,
  type ModuleRef,
  type NamedColor,
  type NodeKind,
  type Setup,
  type SetupEdge,
  type SetupElement,
  type SetupNode,
  type Shape,
} from './setup_model';

export const SETUP_FORMAT = 'parallax-setup';
export const SETUP_VERSION = 1;
export const MAX_NODES = 100_000;
export const MAX_ITEMS = 500_000;
export const DEFAULT_KIND_SIZE = 10;

export type ParseResult = { ok: true; setup: Setup } | { ok: false; error: string };

class SetupError extends Error {}

type Obj = Record<string, unknown>;

/** A field's path: 'nodes[3]' + 'kind' → 'nodes[3].kind'; the root's fields bare. */
function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function fail(path: string, msg: string): never {
  throw new SetupError(path ? `${path}: ${msg}` : msg);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (typeof v === 'object') return 'an object';
  return String(v);
}

function object(v: unknown, path: string, allowed: readonly string[]): Obj {
  const where = path || 'top level';
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(where, `expected an object, found ${describe(v)}`);
  for (const k of Object.keys(v)) {
    if (k !== 'comment' && !allowed.includes(k)) fail(where, `unknown field "${k}" (allowed: ${allowed.join(', ')})`);
  }
  return v as Obj;
}

function array(v: unknown, path: string, max = MAX_ITEMS): unknown[] {
  if (!Array.isArray(v)) fail(path, `expected an array, found ${describe(v)}`);
  if (v.length > max) fail(path, `${v.length} entries, at most ${max}`);
  return v;
}

function num(o: Obj, key: string, path: string, def?: number): number {
  const v = o[key];
  if (v === undefined) {
    if (def === undefined) fail(join(path, key), 'missing (a number)');
    return def;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(join(path, key), `expected a number, found ${describe(v)}`);
  return v;
}

function positive(o: Obj, key: string, path: string, def?: number): number {
  const v = num(o, key, path, def);
  if (!(v > 0)) fail(join(path, key), `must be > 0, found ${v}`);
  return v;
}

function str(o: Obj, key: string, path: string, def?: string): string {
  const v = o[key];
  if (v === undefined) {
    if (def === undefined) fail(join(path, key), 'missing (a string)');
    return def;
  }
  if (typeof v !== 'string') fail(join(path, key), `expected a string, found ${describe(v)}`);
  return v;
}

function color(o: Obj, key: string, path: string, def?: string): string {
  const v = str(o, key, path, def);
  const rgb = parseHex(v);
  if (!rgb) fail(join(path, key), `expected a colour "#rrggbb" or "#rgb", found ${describe(v)}`);
  return rgbToHex(rgb[0], rgb[1], rgb[2]);
}

function namedColor(v: unknown, path: string): NamedColor {
  const o = object(v, path, ['name', 'color']);
  return { name: str(o, 'name', path), color: color(o, 'color', path) };
}

function index(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(path, `expected an integer >= 0, found ${describe(v)}`);
  return v;
}

const KIND_FIELDS = ['name', 'shape', 'size', 'states', 'other', 'none'];

function parseKind(v: unknown, path: string): NodeKind {
  const o = object(v, path, KIND_FIELDS);
  const name = str(o, 'name', path);
  const shape = str(o, 'shape', path, 'circle');
  if (!SHAPES.includes(shape as Shape)) fail(`${path}.shape`, `unknown shape "${shape}" (shapes: ${SHAPES.join(', ')})`);
  const states: KindState[] = [];
  if (o['states'] !== undefined) {
    array(o['states'], `${path}.states`).forEach((sv, j) => {
      const sp = `${path}.states[${j}]`;
      const so = object(sv, sp, ['name', 'color', 'match']);
      const match = array(so['match'] ?? fail(`${sp}.match`, 'missing (an array of trace state names)'), `${sp}.match`).map((m, k) => {
        if (typeof m !== 'string' || m === '') fail(`${sp}.match[${k}]`, `expected a state name, glob or "category:NAME", found ${describe(m)}`);
        return m;
      });
      states.push({ name: str(so, 'name', sp), color: color(so, 'color', sp), match });
    });
  }
  return {
    name,
    shape: shape as Shape,
    size: positive(o, 'size', path, DEFAULT_KIND_SIZE),
    states,
    other: o['other'] === undefined ? null : namedColor(o['other'], `${path}.other`),
    none: o['none'] === undefined ? DEFAULT_NONE : namedColor(o['none'], `${path}.none`),
  };
}

const MODULE_FIELDS = [
  ['process', 'process', false],
  ['rank', 'rank', false],
  ['row', 'row', false],
  ['processes', 'process', true],
  ['ranks', 'rank', true],
  ['rows', 'row', true],
] as const;
const NODE_FIELDS = ['id', 'kind', 'x', 'y', 'label', ...MODULE_FIELDS.map((m) => m[0])];

function parseModule(o: Obj, path: string): ModuleRef | null {
  const given = MODULE_FIELDS.filter(([key]) => o[key] !== undefined);
  if (given.length === 0) return null;
  if (given.length > 1) fail(path, `give one of process, rank, row, processes, ranks, rows (found ${given.map((g) => g[0]).join(' and ')})`);
  const [key, by, many] = given[0]!;
  const v = o[key];
  if (!many) return { by, ids: [index(v, `${path}.${key}`)] };
  const ids = array(v, `${path}.${key}`).map((x, k) => index(x, `${path}.${key}[${k}]`));
  if (ids.length === 0) fail(join(path, key), 'empty (leave the field out for a node that shows no module)');
  return { by, ids };
}

function idOf(v: unknown, path: string): string {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  fail(path, `expected a non-empty string or an integer, found ${describe(v)}`);
}

function parseNodes(list: unknown[], kinds: readonly NodeKind[]): SetupNode[] {
  const kindIndex = new Map(kinds.map((k, i) => [k.name, i]));
  const seen = new Map<string, number>();
  return list.map((v, i) => {
    const path = `nodes[${i}]`;
    const o = object(v, path, NODE_FIELDS);
    const id = o['id'] === undefined ? String(i) : idOf(o['id'], `${path}.id`);
    const before = seen.get(id);
    if (before !== undefined) fail(`${path}.id`, `duplicate id "${id}" (also nodes[${before}])`);
    seen.set(id, i);
    let kind = 0;
    if (o['kind'] === undefined) {
      if (kinds.length > 1) fail(`${path}.kind`, `missing (kinds: ${kinds.map((k) => k.name).join(', ')})`);
    } else {
      const name = str(o, 'kind', path);
      const k = kindIndex.get(name);
      if (k === undefined) fail(`${path}.kind`, `unknown kind "${name}" (kinds: ${kinds.map((k) => k.name).join(', ')})`);
      kind = k;
    }
    return { id, kind, x: num(o, 'x', path), y: num(o, 'y', path), label: str(o, 'label', path, ''), module: parseModule(o, path) };
  });
}

function parseEdges(list: unknown[], nodes: readonly SetupNode[]): SetupEdge[] {
  const byId = new Map(nodes.map((n, i) => [n.id, i]));
  return list.map((v, i) => {
    const path = `edges[${i}]`;
    const o = object(v, path, ['from', 'to', 'color', 'width', 'bend']);
    const end = (key: string): number => {
      if (o[key] === undefined) fail(join(path, key), 'missing (a node id)');
      const id = idOf(o[key], `${path}.${key}`);
      const n = byId.get(id);
      if (n === undefined) fail(join(path, key), `no node has id "${id}"`);
      return n;
    };
    return {
      from: end('from'),
      to: end('to'),
      color: color(o, 'color', path, DEFAULT_EDGE_COLOR),
      width: positive(o, 'width', path, 1),
      bend: num(o, 'bend', path, 0),
    };
  });
}

function parseElement(v: unknown, path: string): SetupElement {
  const type = object(v, path, ['type', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'w', 'h', 'color', 'fill', 'width', 'text', 'size', 'align'])['type'];
  const o = v as Obj;
  const only = (allowed: string[]): void => void object(v, path, ['type', ...allowed]);
  switch (type) {
    case 'line':
      only(['x1', 'y1', 'x2', 'y2', 'color', 'width']);
      return { type, x1: num(o, 'x1', path), y1: num(o, 'y1', path), x2: num(o, 'x2', path), y2: num(o, 'y2', path), color: color(o, 'color', path, DEFAULT_ELEMENT_COLOR), width: positive(o, 'width', path, 1) };
    case 'box':
      only(['x', 'y', 'w', 'h', 'color', 'fill', 'width']);
      return {
        type,
        x: num(o, 'x', path),
        y: num(o, 'y', path),
        w: positive(o, 'w', path),
        h: positive(o, 'h', path),
        color: color(o, 'color', path, DEFAULT_ELEMENT_COLOR),
        fill: o['fill'] === undefined ? null : color(o, 'fill', path),
        width: positive(o, 'width', path, 1),
      };
    case 'label': {
      only(['x', 'y', 'text', 'color', 'size', 'align']);
      const align = str(o, 'align', path, 'left');
      if (align !== 'left' && align !== 'center' && align !== 'right') fail(`${path}.align`, `expected left, center or right, found "${align}"`);
      return { type, x: num(o, 'x', path), y: num(o, 'y', path), text: str(o, 'text', path), color: color(o, 'color', path, '#333333'), size: positive(o, 'size', path, 12), align };
    }
    default:
      return fail(`${path}.type`, type === undefined ? 'missing (line, box or label)' : `unknown element type ${describe(type)} (types: line, box, label)`);
  }
}

function parseBounds(v: unknown): Bounds {
  const o = object(v, 'bounds', ['x', 'y', 'w', 'h']);
  return { x: num(o, 'x', 'bounds', 0), y: num(o, 'y', 'bounds', 0), w: positive(o, 'w', 'bounds'), h: positive(o, 'h', 'bounds') };
}

/** Parses and checks a setup file's text; `file` names it in errors and becomes Setup.source. */
export function parseSetup(text: string, file: string): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `${file}: not valid JSON: ${(e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ')}` };
  }
  try {
    const root = object(json, '', ['format', 'version', 'name', 'bounds', 'kinds', 'nodes', 'edges', 'elements']);
    if (root['format'] !== SETUP_FORMAT) fail('format', `expected "${SETUP_FORMAT}", found ${describe(root['format'])}`);
    if (root['version'] !== SETUP_VERSION) fail('version', `expected ${SETUP_VERSION}, found ${describe(root['version'])}`);
    const name = root['name'] === undefined ? file.replace(/\.json$/i, '') : str(root, 'name', '');
    if (root['kinds'] === undefined) fail('kinds', 'missing (at least one node kind)');
    const kinds = array(root['kinds'], 'kinds').map((k, i) => parseKind(k, `kinds[${i}]`));
    if (kinds.length === 0) fail('kinds', 'empty (at least one node kind)');
    const names = new Map<string, number>();
    kinds.forEach((k, i) => {
      const before = names.get(k.name);
      if (before !== undefined) fail(`kinds[${i}].name`, `duplicate kind "${k.name}" (also kinds[${before}])`);
      names.set(k.name, i);
    });
    if (root['nodes'] === undefined) fail('nodes', 'missing (an array of nodes)');
    const nodes = parseNodes(array(root['nodes'], 'nodes', MAX_NODES), kinds);
    if (nodes.length === 0) fail('nodes', 'empty (at least one node)');
    const edges = root['edges'] === undefined ? [] : parseEdges(array(root['edges'], 'edges'), nodes);
    const elements = root['elements'] === undefined ? [] : array(root['elements'], 'elements').map((e, i) => parseElement(e, `elements[${i}]`));
    const bounds = root['bounds'] === undefined ? null : parseBounds(root['bounds']);
    return { ok: true, setup: { name, source: file, bounds, kinds, nodes, edges, elements } };
  } catch (e) {
    if (e instanceof SetupError) return { ok: false, error: `${file}: ${e.message}` };
    throw e;
  }
}
