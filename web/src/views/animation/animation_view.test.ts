// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AtParams, AtResult, InFlightMessage, TraceSummary } from '../../protocol/api.gen';
import { fakeContext, fixtureSummary, flush, type PaintOp, RecordingPainter, viewHost } from '../common/testing';
import { ANIMATION_VIEW, AnimationView, MESSAGE_LIMIT } from './animation_view';
import { TRAFFIC } from './kinds';
import { MESSAGE_COLOR, UNDELIVERED_COLOR } from './paint_dynamic';
import { setupLibrary } from './setup_library';
import { DEFAULT_NONE } from './setup_model';

const SETUPS = join(dirname(fileURLToPath(import.meta.url)), '../../../../examples/setups');
const example = (name: string): string => readFileSync(join(SETUPS, name), 'utf8');

// fixtureSummary: process 0 = rows 0, 1 (rank 0); process 1 = rows 2, 3 (rank 1);
// states 0 compute #1f77b4, 1 MPI_Send #ff7f0e, 2 MPI_Wait #2ca02c.
function atResult(t: number, states: number[], inFlight: InFlightMessage[] = []): AtResult {
  return { time: t, states, slices: states.map((s, i) => (s >= 0 ? 100 + i : -1)), counters: [], in_flight: inFlight, in_flight_total: inFlight.length };
}
const msg = (send_row: number, recv_row: number, send_time: number, recv_time: number): InFlightMessage => ({ id: 7, send_row, recv_row, send_time, recv_time, bytes: 64, tag: 1 });

/** The program: before t=500 rank 0 sends and rank 1 waits; after, rank 0 computes and rank 1 sends. */
function program(p: AtParams): AtResult {
  if (p.t < 500) return atResult(p.t, [1, 0, 2, -1], [msg(0, 2, 100, 300), msg(2, -1, 50, -1)]);
  return atResult(p.t, [0, -1, 1, 1]);
}

const host = viewHost();
beforeEach(() => setupLibrary.reset());

function setup(handler: (p: AtParams) => AtResult | Promise<AtResult> = program, summary: TraceSummary = fixtureSummary()) {
  const f = fakeContext({ at: handler }, summary);
  const view = ANIMATION_VIEW.create(f.ctx) as AnimationView;
  view.mount(host());
  return { ...f, view };
}

/** The fill colours of the nodes as exported, in node order (node polygons follow the static layer). */
function paintedNodes(view: AnimationView, n: number): { ops: PaintOp[]; colors: string[]; painter: RecordingPainter } {
  const painter = new RecordingPainter(800, 400);
  view.paint(painter);
  const ops = painter.ops;
  // the dynamic layer starts after the legend's last text; its first n polygons are the nodes
  let start = 0;
  ops.forEach((o, i) => {
    if (o.op === 'text' && o.args[1] === 400 - 11) start = i + 1;
  });
  const colors = ops.slice(start).filter((o) => o.op === 'polygon').slice(0, n).map((o) => o.color!);
  return { ops: ops.slice(start), colors, painter };
}

const select = (testid: string): HTMLSelectElement => host().querySelector<HTMLSelectElement>(`[data-testid=${testid}]`)!;

describe('animation view', () => {
  it('colours each process by its state at the cursor', async () => {
    const { view, api, replay } = setup();
    await flush();
    expect(api.calls[0]).toEqual({ endpoint: 'at', params: { t: 0, limit: MESSAGE_LIMIT } });
    // process 0: rows in MPI_Send and compute, tie: the first row; process 1: MPI_Wait
    expect(paintedNodes(view, 2).colors).toEqual(['#ff7f0e', '#2ca02c']);
    replay.seek(600);
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ t: 600, limit: MESSAGE_LIMIT });
    expect(paintedNodes(view, 2).colors).toEqual(['#1f77b4', '#ff7f0e']);
    expect(view.changes).toBe(2 + 2);
  });

  it('asks for the newest time only, one request at a time', async () => {
    const { api, replay } = setup();
    replay.seek(10);
    replay.seek(20);
    replay.seek(30);
    await flush();
    expect(api.calls.map((c) => (c.params as AtParams).t)).toEqual([0, 30]);
  });

  it('moves messages between nodes and leaves undelivered ones at the sender', async () => {
    const { view, replay } = setup();
    replay.seek(150);
    await flush();
    const { ops, painter } = paintedNodes(view, 2);
    const [n0, n1] = ops.filter((o) => o.op === 'polygon').slice(0, 2).map((o) => centre(o.args[0] as number[]));
    // a quarter of the way from node 0 to node 1 (row 0 to row 2, sent at 100, received at 300)
    const arrow = centre(ops.find((o) => o.op === 'polygon' && o.color === MESSAGE_COLOR)!.args[0] as number[]);
    expect(Math.hypot(arrow.x - (n0!.x + (n1!.x - n0!.x) * 0.25), arrow.y - (n0!.y + (n1!.y - n0!.y) * 0.25))).toBeLessThan(4);
    // the undelivered message of row 2 at node 1's upper right, in red with its count
    const marker = centre(ops.find((o) => o.op === 'polygon' && o.color === UNDELIVERED_COLOR)!.args[0] as number[]);
    expect(Math.hypot(marker.x - n1!.x, marker.y - n1!.y)).toBeLessThan(Math.hypot(marker.x - n0!.x, marker.y - n0!.y));
    expect(marker.x).toBeGreaterThan(n1!.x);
    expect(marker.y).toBeLessThan(n1!.y);
    expect(ops.some((o) => o.op === 'text' && o.text === '1' && o.color === UNDELIVERED_COLOR)).toBe(true);
    expect(painter.texts().some((t) => t.includes('2 messages in flight · 1 undelivered'))).toBe(true);
    // once delivered (t >= 300) the message is gone; the undelivered one stays
    replay.seek(400);
    await flush();
    const later = paintedNodes(view, 2).ops;
    expect(later.some((o) => o.op === 'polygon' && o.color === MESSAGE_COLOR)).toBe(false);
    expect(later.some((o) => o.op === 'polygon' && o.color === UNDELIVERED_COLOR)).toBe(true);
  });

  it('hides messages when asked', async () => {
    const { view, replay } = setup();
    replay.seek(150);
    await flush();
    const box = host().querySelector<HTMLInputElement>('[data-testid=animation-messages]')!;
    box.click();
    const { ops } = paintedNodes(view, 2);
    expect(ops.some((o) => o.color === MESSAGE_COLOR || o.color === UNDELIVERED_COLOR)).toBe(false);
  });

  it('shows traffic lights and follows legend colour changes', async () => {
    const { view, states } = setup();
    await flush();
    states.colors.set(1, '#000000');
    states.changed();
    expect(paintedNodes(view, 2).colors).toEqual(['#000000', '#2ca02c']);
    host().querySelector<HTMLInputElement>('[data-testid=animation-traffic]')!.click();
    // MPI_Send blocks (traffic red), MPI_Wait blocks too
    expect(paintedNodes(view, 2).colors).toEqual([TRAFFIC.blocked.color, TRAFFIC.blocked.color]);
  });

  it('switches layouts and modules; one node per row on request', async () => {
    const { view } = setup();
    await flush();
    const layout = select('animation-layout');
    expect([...layout.options].map((o) => o.value)).toEqual(['builtin:ring', 'builtin:mesh', 'builtin:tree', 'builtin:hypercube']);
    layout.value = 'builtin:tree';
    layout.dispatchEvent(new Event('change'));
    expect(select('animation-arity').hidden).toBe(false);
    const modules = select('animation-modules');
    modules.value = 'row';
    modules.dispatchEvent(new Event('change'));
    expect(view.geometry()!.x.length).toBe(4);
    // rows: MPI_Send, compute, MPI_Wait, none
    expect(paintedNodes(view, 4).colors).toEqual(['#ff7f0e', '#1f77b4', '#2ca02c', DEFAULT_NONE.color]);
  });

  it('loads setup files, reports bad ones and switches between them', async () => {
    const { view } = setup();
    await flush();
    expect(view.loadSetupText(example('ring-8.json'), 'ring-8.json')).toBe(true);
    const layout = select('animation-layout');
    expect(layout.value).toBe('setup:0');
    expect(layout.options[4]!.textContent).toBe('ring of 8 ranks (ring-8.json)');
    expect(view.geometry()!.x.length).toBe(8);
    // ranks 0 and 1 are in the trace, 2..7 are not
    const colors = paintedNodes(view, 8).colors;
    expect(colors.slice(0, 2)).toEqual(['#ff7f0e', '#2ca02c']);
    expect(new Set(colors.slice(2))).toEqual(new Set([DEFAULT_NONE.color]));
    expect(select('animation-modules').disabled).toBe(true);

    expect(view.loadSetupText('{"format": "parallax-setup"', 'bad.json')).toBe(false);
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toMatch(/^bad\.json: not valid JSON/);
    expect(layout.value).toBe('setup:0');

    expect(view.loadSetupText(example('mesh-8x8-1024.json'), 'mesh-8x8-1024.json')).toBe(true);
    expect(view.geometry()!.x.length).toBe(1088);
    layout.value = 'setup:0';
    layout.dispatchEvent(new Event('change'));
    expect(view.geometry()!.x.length).toBe(8);
    layout.value = 'builtin:mesh';
    layout.dispatchEvent(new Event('change'));
    expect(view.geometry()!.x.length).toBe(2);
  });

  it('loads a dropped setup file', async () => {
    const { view } = setup();
    await flush();
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [new File([example('ring-8.json')], 'ring-8.json')] } });
    host().querySelector('[data-testid=animation-drop]')!.dispatchEvent(drop);
    await flush();
    expect(view.geometry()!.x.length).toBe(8);
    expect(host().querySelector('[data-testid=view-message]')!.textContent).toBe('loaded ring-8.json: 8 nodes');
  });

  it('describes a node on hover and jumps the timeline to it on click', async () => {
    const { view, timeline, replay } = setup();
    replay.seek(100);
    await flush();
    const g = view.geometry()!;
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=animation-canvas]')!;
    // jsdom lays nothing out: the canvas is at (0, 0)
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: g.x[1]!, clientY: g.y[1]! }));
    const tip = host().querySelector<HTMLElement>('[data-testid=animation-tooltip]')!;
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toBe('rank 1: MPI_Wait · 1 undelivered message');
    canvas.dispatchEvent(new MouseEvent('click', { clientX: g.x[1]!, clientY: g.y[1]! }));
    expect(timeline.jumps).toHaveLength(1);
    expect(timeline.jumps[0]).toMatchObject({ row: 2, slice: 102 });
    const j = timeline.jumps[0]!;
    expect((j.begin + j.end) / 2).toBeCloseTo(100);
    canvas.dispatchEvent(new MouseEvent('mouseleave'));
    expect(tip.hidden).toBe(true);
  });

  it('names a switch state and the trace state under it', async () => {
    const { view } = setup();
    await flush();
    view.loadSetupText(example('mesh-8x8-1024.json'), 'mesh.json');
    const switchNode = 16; // board 0's switch follows its 16 ranks
    // ranks 0 and 1 of board 0: MPI_Send and MPI_Wait (one each; the tie goes to rank 0)
    expect(view.describe(switchNode)).toBe('switch 0,0 · 16 ranks (4 rows): forwarding (MPI_Send)');
    expect(view.describe(0)).toBe('0 · rank 0: MPI_Send');
  });

  it('refetches on a live update and stops listening when unmounted', async () => {
    const { view, api, replay, updates } = setup();
    await flush();
    const bigger = fixtureSummary();
    bigger.processes.push({ ...bigger.processes[1]!, index: 2, rank: 2, name: 'rank 2', threads: [] });
    updates.fire(bigger);
    await flush();
    expect(api.calls).toHaveLength(2);
    expect(view.geometry()!.x.length).toBe(3);
    view.unmount();
    replay.seek(900);
    updates.fire(bigger);
    await flush();
    expect(api.calls).toHaveLength(2);
  });

  it('colours a state a live snapshot adds', async () => {
    let live = false;
    const { view, updates, states } = setup((p) => (live ? atResult(p.t, [3, 3, 0, 0]) : program(p)));
    await flush();
    states.colors.set(3, '#abcdef'); // the app's state style learns the new state's colour
    const grown = fixtureSummary();
    grown.states.push({ index: 3, name: 'MPI_Barrier', category: 'MPI', color: '#abcdef' });
    live = true;
    updates.fire(grown);
    await flush();
    expect(paintedNodes(view, 2).colors).toEqual(['#abcdef', '#1f77b4']);
  });

  it('shows /at errors', async () => {
    setup(() => {
      throw new Error('t: out of range');
    });
    await flush();
    expect(host().querySelector('[data-testid=view-error]')!.textContent).toBe('t: out of range');
  });
});

describe('animation view on a canvas', () => {
  /** A 2D context that records each fill: its colour and the arcs (circle centres) in its path. */
  function recordingContext() {
    let arcs: [number, number][] = [];
    const fills: { style: string; arcs: [number, number][] }[] = [];
    const noop = (): void => {};
    const ctx = {
      fills,
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      font: '',
      textAlign: 'left',
      textBaseline: 'alphabetic',
      beginPath: () => void (arcs = []),
      arc: (x: number, y: number) => void arcs.push([x, y]),
      fill: () => void fills.push({ style: ctx.fillStyle, arcs }),
      measureText: (t: string) => ({ width: t.length * 6 }),
      ...Object.fromEntries(['setTransform', 'drawImage', 'moveTo', 'lineTo', 'closePath', 'rect', 'stroke', 'fillText', 'clearRect', 'fillRect', 'strokeRect', 'save', 'restore', 'clip'].map((k) => [k, noop])),
    };
    return ctx;
  }
  type Rec = ReturnType<typeof recordingContext>;

  it('fills each colour once per frame, with every node of that colour in its path', async () => {
    const contexts = new Map<HTMLCanvasElement, Rec>();
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement) {
      if (!contexts.has(this)) contexts.set(this, recordingContext());
      return contexts.get(this)!;
    } as unknown as typeof HTMLCanvasElement.prototype.getContext;
    const { view, replay } = setup();
    view.loadSetupText(example('mesh-8x8-1024.json'), 'mesh.json');
    replay.seek(100);
    await flush();
    await new Promise<void>((r) => requestAnimationFrame(() => r()));
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=animation-canvas]')!;
    const rec = contexts.get(canvas)!;
    rec.fills.length = 0;
    replay.seek(101);
    await flush();
    await new Promise<void>((r) => requestAnimationFrame(() => r()));
    const g = view.geometry()!;
    // ranks 0 and 1 (nodes 0 and 1, squares: no arcs) and 1022 ranks not in the trace, the
    // switches diamonds: three node colours in this frame, one fill each
    const send = rec.fills.filter((f) => f.style === '#ff7f0e');
    const none = rec.fills.filter((f) => f.style === DEFAULT_NONE.color);
    expect(send).toHaveLength(1);
    expect(none).toHaveLength(1);
    expect(rec.fills.length).toBeLessThan(10);
    // the undelivered marker of rank 1 is a circle near node 1
    const red = rec.fills.find((f) => f.style === UNDELIVERED_COLOR)!;
    expect(red.arcs).toHaveLength(1);
    expect(Math.abs(red.arcs[0]![0] - g.x[1]!)).toBeLessThan(g.r[1]! * 2);
    // frames are drawn at most once per animation frame however often the cursor moves
    rec.fills.length = 0;
    for (let t = 102; t < 120; t++) replay.seek(t);
    await flush();
    await new Promise<void>((r) => requestAnimationFrame(() => r()));
    expect(rec.fills.filter((f) => f.style === '#ff7f0e').length).toBeLessThanOrEqual(2);
  });

  it('draws circles at the node centres in their colour', async () => {
    const contexts = new Map<HTMLCanvasElement, Rec>();
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement) {
      if (!contexts.has(this)) contexts.set(this, recordingContext());
      return contexts.get(this)!;
    } as unknown as typeof HTMLCanvasElement.prototype.getContext;
    const { view } = setup();
    await flush();
    await new Promise<void>((r) => requestAnimationFrame(() => r()));
    const rec = contexts.get(host().querySelector<HTMLCanvasElement>('[data-testid=animation-canvas]')!)!;
    const g = view.geometry()!;
    const last = (color: string) => rec.fills.filter((f) => f.style === color).at(-1)!;
    expect(last('#ff7f0e').arcs).toEqual([[g.x[0], g.y[0]]]);
    expect(last('#2ca02c').arcs).toEqual([[g.x[1], g.y[1]]]);
  });
});

/** The centre of a polygon's points. */
function centre(pts: number[]): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let i = 0; i < pts.length; i += 2) {
    x += pts[i]!;
    y += pts[i + 1]!;
  }
  return { x: x / (pts.length / 2), y: y / (pts.length / 2) };
}
