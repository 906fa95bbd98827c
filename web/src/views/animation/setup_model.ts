// What the animation view draws, whatever it came from (a built-in layout or a
// setup file, docs/animation.md): node kinds, nodes placed in setup units
// (y down), edges between nodes and layout elements (lines, boxes, labels).

export type Shape = 'circle' | 'square' | 'diamond' | 'hexagon';
export const SHAPES: readonly Shape[] = ['circle', 'square', 'diamond', 'hexagon'];

/** A state of a node kind: its name, colour and the trace states it stands for. */
export interface KindState {
  name: string;
  /** '#rrggbb' */
  color: string;
  /** trace state names ('MPI_Recv'), globs with '*' ('MPI_Wait*'), or 'category:NAME' */
  match: string[];
}

export interface NamedColor {
  name: string;
  color: string;
}

/** A kind of node: its drawing and its own meaning of states. */
export interface NodeKind {
  name: string;
  shape: Shape;
  /** width of the shape in setup units */
  size: number;
  /** first match wins; empty: the trace's own states and colours */
  states: KindState[];
  /** trace states no entry matches; null: the trace's own name and colour */
  other: NamedColor | null;
  /** the module has no state at the moment (or is not in the trace) */
  none: NamedColor;
}

/** Which rows a node shows: processes (by index), MPI ranks or timeline rows. */
export interface ModuleRef {
  by: 'process' | 'rank' | 'row';
  ids: number[];
}

export interface SetupNode {
  id: string;
  /** index into Setup.kinds */
  kind: number;
  x: number;
  y: number;
  label: string;
  /** null: a node that shows no module (always its kind's `none` state) */
  module: ModuleRef | null;
}

export interface SetupEdge {
  /** indices into Setup.nodes */
  from: number;
  to: number;
  color: string;
  width: number;
  /** sideways offset of the edge's middle in setup units (0: straight) */
  bend: number;
}

export type SetupElement =
  | { type: 'line'; x1: number; y1: number; x2: number; y2: number; color: string; width: number }
  | { type: 'box'; x: number; y: number; w: number; h: number; color: string; fill: string | null; width: number }
  | { type: 'label'; x: number; y: number; text: string; color: string; size: number; align: 'left' | 'center' | 'right' };

export interface Bounds {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Setup {
  name: string;
  /** the file it came from, '' for a built-in layout */
  source: string;
  /** the drawing area in setup units; null: everything drawn, with a margin */
  bounds: Bounds | null;
  kinds: NodeKind[];
  nodes: SetupNode[];
  edges: SetupEdge[];
  elements: SetupElement[];
}

export const DEFAULT_NONE: NamedColor = { name: 'inactive', color: '#d9d9d9' };
export const DEFAULT_EDGE_COLOR = '#c8c8c8';
export const DEFAULT_ELEMENT_COLOR = '#888888';
