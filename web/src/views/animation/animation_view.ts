// The animation view: modules drawn as nodes on a layout
// (ring, mesh, tree, hypercube or a loaded setup file), coloured by their state
// at the replay cursor, with messages moving between them while in flight and
// undelivered ones left at their senders. The program at the cursor comes from
// /at (one request in flight, always for the newest time); frames are drawn on
// the canvas at most once per animation frame.
import type { AtResult, TraceSummary } from '../../protocol/api.gen';
import type { Painter } from '../../render/painter';
import { el, StatusLine, tooltipElement } from '../common/dom';
import { formatTime } from '../common/format';
import type { View, ViewContext, ViewFactory } from '../context';
import { AnimationControls, bindDrop } from './controls';
import { ColorBuckets, drawDynamic } from './draw_fast';
import { fitGeometry, nodeAt, setupBounds, type Geometry } from './geometry';
import { MessageFrame } from './in_flight';
import { buildColoring, colorIndex, type Coloring } from './kinds';
import { BUILTIN_LAYOUTS, builtinLayout, type BuiltinLayout } from './layouts';
import { LatestRequest } from '../common/latest_request';
import { defaultUnit, moduleStates, resolveModules, traceModules, type ResolvedModules } from './modules';
import { paintDynamic, type DynamicFrame } from './paint_dynamic';
import { BOTTOM, drawingArea, MARGIN, paintStatic, TOP } from './paint_static';
import { parseSetup } from './setup_file';
import { setupLibrary } from './setup_library';
import type { Setup } from './setup_model';
import { Stage } from './stage';

/** In-flight messages asked per /at. */
export const MESSAGE_LIMIT = 5000;
const MIN_HEIGHT = 220;
const MAX_HEIGHT = 900;

/** Test and benchmark hooks (window.parallax.animation). */
export interface AnimationHooks {
  seek(t: number): void;
  time(): number;
  /** the time of the /at answer drawn, null before the first */
  atTime(): number | null;
  /** node centres in CSS pixels of the canvas, with their state and colour */
  nodes(): { id: string; x: number; y: number; state: number; color: string }[];
  stats(): { frames: number; drawMs: number; changes: number; fetches: number; answers: number };
}

export class AnimationView implements View {
  /** /at: loading and errors */
  private readonly status = new StatusLine();
  /** setup files: loaded, or why not */
  private readonly fileStatus = new StatusLine();
  private readonly lib = setupLibrary;
  private summary: TraceSummary;
  private stage: Stage | null = null;
  private setup!: Setup;
  private mods!: ResolvedModules;
  private coloring!: Coloring;
  private g: Geometry | null = null;
  private at: AtResult | null = null;
  private nodeState = new Int32Array(0);
  private nextState = new Int32Array(0);
  private nodeColor = new Int32Array(0);
  private colorsDirty = true;
  private readonly buckets = new ColorBuckets();
  private readonly messages = new MessageFrame();
  private hovered = -1;
  private readonly fetcher: LatestRequest<number, AtResult>;
  private unsubscribe: (() => void)[] = [];
  /** node state changes seen in /at answers (the benchmark's count) */
  changes = 0;
  answers = 0;

  private controls!: AnimationControls;
  private tooltip!: HTMLDivElement;
  private host: HTMLElement | null = null;
  private box: HTMLElement | null = null;

  constructor(private readonly ctx: ViewContext) {
    this.summary = ctx.summary;
    this.fetcher = new LatestRequest<number, AtResult>(
      (t) => this.ctx.api.get('at', { t, limit: MESSAGE_LIMIT }),
      (r) => this.apply(r),
      (err) => this.status.error(err),
    );
  }

  mount(host: HTMLElement): void {
    this.host = host;
    host.classList.add('animation-view');
    this.controls = new AnimationControls(this.lib, this.summary.duration, {
      layout: (choice) => {
        this.lib.choice = choice;
        this.rebuildLayout();
      },
      arity: (k) => {
        this.lib.arity = k;
        this.rebuildLayout();
      },
      unit: (unit) => {
        this.lib.unit = unit;
        this.rebuildLayout();
      },
      files: (files) => void this.loadFiles(files),
      traffic: (on) => {
        this.lib.traffic = on;
        this.recolor();
      },
      messages: (on) => {
        this.lib.messages = on;
        this.stage?.schedule();
      },
      seek: (t) => this.ctx.replay.seek(t),
    });
    host.append(this.controls.element, this.fileStatus.element, this.status.element);
    const box = el('div', { class: 'chart-box', 'data-testid': 'animation-drop' });
    box.style.position = 'relative';
    this.box = box;
    this.tooltip = tooltipElement('animation-tooltip');
    host.append(box);
    bindDrop(box, (files) => void this.loadFiles(files));
    this.rebuildLayout();
    this.stage = new Stage(
      {
        heightFor: (w) => this.heightFor(w),
        background: (p) => paintStatic(p, this.setup, this.g!, this.coloring.legend),
        frame: (c) => this.drawFrame(c),
        resized: (w, h) => this.fit(w, h),
      },
      'animation-canvas',
    );
    this.stage.attach(box, host);
    box.append(this.tooltip);
    const canvas = this.stage.canvas;
    canvas.addEventListener('mousemove', (ev) => this.hover(ev));
    canvas.addEventListener('mouseleave', () => this.setHovered(-1, 0, 0));
    canvas.addEventListener('click', (ev) => this.click(ev));
    this.unsubscribe.push(
      this.ctx.replay.onMove((t) => this.cursorMoved(t)),
      this.ctx.states.onChange(() => this.recolor()),
      this.ctx.updates.onUpdate((s) => this.traceUpdated(s)),
    );
    this.installHooks();
    this.status.loading();
    this.cursorMoved(this.ctx.replay.time());
  }

  unmount(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.fetcher.cancel();
    this.stage?.detach();
    this.stage = null;
    const w = hookWindow();
    if (w?.parallax && w.parallax.animation === this.hooks) delete w.parallax.animation;
  }

  exportSize(): { width: number; height: number } {
    return { width: this.stage?.width ?? 800, height: this.stage?.height ?? MIN_HEIGHT };
  }

  /** The picture at the cursor through the Painter (PNG/SVG export, tests). */
  paint(p: Painter): void {
    const a = drawingArea(p.width, p.height);
    const g = fitGeometry(this.setup, a.left, a.top, a.width, a.height);
    paintStatic(p, this.setup, g, this.coloring.legend);
    const messages = new MessageFrame();
    paintDynamic(p, this.dynamicFrame(g, messages));
  }

  /** Node centres and sizes on screen (tests); null before the first layout. */
  geometry(): Geometry | null {
    return this.g;
  }

  /** Parses a setup file's text and switches to it; false (and the error shown) when it is bad. */
  loadSetupText(text: string, file: string): boolean {
    const r = parseSetup(text, file);
    if (!r.ok) {
      this.fileStatus.error(r.error);
      return false;
    }
    this.lib.choice = this.lib.add(r.setup);
    this.fileStatus.message(`loaded ${file}: ${r.setup.nodes.length} nodes`);
    this.controls.fillLayouts(this.lib);
    this.rebuildLayout();
    return true;
  }

  // --- setup files ---------------------------------------------------------

  private async loadFiles(files: File[]): Promise<void> {
    for (const f of files) {
      let text: string;
      try {
        text = await f.text();
      } catch (e) {
        this.fileStatus.error(`${f.name}: cannot read: ${String(e)}`);
        return;
      }
      if (!this.loadSetupText(text, f.name)) return;
    }
  }

  // --- layout and colours ---------------------------------------------------

  /** The chosen layout for the current trace, its modules, colours and geometry. */
  private rebuildLayout(): void {
    const choice = this.lib.choice;
    const unit = this.lib.unit ?? defaultUnit(this.summary);
    let setup: Setup | undefined;
    if (choice.startsWith('setup:')) setup = this.lib.setups[Number(choice.slice(6))];
    if (!setup) {
      const b = choice.startsWith('builtin:') ? (choice.slice(8) as BuiltinLayout) : 'ring';
      setup = builtinLayout(BUILTIN_LAYOUTS.includes(b) ? b : 'ring', traceModules(this.summary, unit), this.lib.arity);
    }
    this.setup = setup;
    this.controls.showLayout(choice, setup.source === '', unit);
    this.mods = resolveModules(this.summary, setup);
    const n = setup.nodes.length;
    this.nodeState = new Int32Array(n).fill(-1);
    this.nextState = new Int32Array(n);
    this.nodeColor = new Int32Array(n);
    if (this.at) moduleStates(this.mods, this.at.states, this.nodeState);
    this.hovered = -1;
    if (this.tooltip) this.tooltip.hidden = true;
    this.buildColoring();
    if (this.stage) this.stage.relayout();
    else this.g = null;
  }

  private buildColoring(): void {
    this.coloring = buildColoring(this.setup.kinds, this.summary.states, this.ctx.states, this.lib.traffic);
    this.colorsDirty = true;
  }

  private recolor(): void {
    this.buildColoring();
    this.stage?.invalidateBackground();
  }

  /** As high as the picture needs at this width, but no higher than the panel shows. */
  private heightFor(width: number): number {
    const b = setupBounds(this.setup);
    const h = ((width - 2 * MARGIN) * b.h) / b.w + TOP + BOTTOM + MARGIN;
    let room = MAX_HEIGHT;
    if (this.host && this.box && this.host.clientHeight > 0) {
      room = this.host.clientHeight - (this.box.getBoundingClientRect().top - this.host.getBoundingClientRect().top) - 6;
    }
    return Math.min(Math.max(MIN_HEIGHT, room), Math.max(MIN_HEIGHT, Math.ceil(h)));
  }

  private fit(width: number, height: number): void {
    const a = drawingArea(width, height);
    this.g = fitGeometry(this.setup, a.left, a.top, a.width, a.height);
  }

  // --- the cursor and /at ---------------------------------------------------

  private cursorMoved(t: number): void {
    this.controls.showTime(t);
    this.fetcher.request(t);
    this.stage?.schedule();
  }

  private apply(r: AtResult): void {
    this.answers++;
    if (this.status.text !== '') this.status.clear();
    this.at = r;
    moduleStates(this.mods, r.states, this.nextState);
    let changed = 0;
    for (let i = 0; i < this.nextState.length; i++) if (this.nextState[i] !== this.nodeState[i]) changed++;
    if (changed > 0) {
      [this.nodeState, this.nextState] = [this.nextState, this.nodeState];
      this.changes += changed;
      this.colorsDirty = true;
    }
    this.stage?.schedule();
  }

  private traceUpdated(s: TraceSummary): void {
    const old = this.summary;
    this.summary = s;
    this.controls.setDuration(s.duration);
    // Snapshots come several times a second: lay out again only when the modules changed.
    if (s.processes.length !== old.processes.length || s.threads.length !== old.threads.length) this.rebuildLayout();
    else if (s.states.length !== old.states.length) this.recolor();
    this.fetcher.request(this.ctx.replay.time());
  }

  // --- drawing --------------------------------------------------------------

  private updateColors(): void {
    if (!this.colorsDirty) return;
    const g = this.g;
    const n = this.setup.nodes.length;
    for (let i = 0; i < n; i++) this.nodeColor[i] = colorIndex(this.coloring, this.setup.nodes[i]!.kind, this.nodeState[i]!);
    if (g) this.buckets.build(this.nodeColor, this.coloring.palette.length);
    this.colorsDirty = false;
  }

  private dynamicFrame(g: Geometry, messages: MessageFrame): DynamicFrame {
    this.updateColors();
    const t = this.ctx.replay.time();
    if (this.at) messages.place(this.at.in_flight, t, this.mods.rowNode, g);
    else messages.place([], t, this.mods.rowNode, g);
    let info = formatTime(t);
    if (this.at) {
      info += ` · ${this.at.in_flight_total} message${this.at.in_flight_total === 1 ? '' : 's'} in flight`;
      if (messages.undeliveredTotal > 0) info += ` · ${messages.undeliveredTotal} undelivered`;
    }
    return { g, palette: this.coloring.palette, nodeColor: this.nodeColor, messages, showMessages: this.lib.messages, hovered: this.hovered, info };
  }

  private drawFrame(c: CanvasRenderingContext2D): void {
    if (!this.g) return;
    drawDynamic(c, this.dynamicFrame(this.g, this.messages), this.buckets);
  }

  // --- pointer --------------------------------------------------------------

  private hover(ev: MouseEvent): void {
    if (!this.stage || !this.g) return;
    const { x, y } = this.stage.eventPos(ev);
    this.setHovered(nodeAt(this.g, x, y), x, y);
  }

  private setHovered(node: number, x: number, y: number): void {
    const changed = node !== this.hovered;
    this.hovered = node;
    if (node < 0) {
      this.tooltip.hidden = true;
    } else {
      this.tooltip.hidden = false;
      this.tooltip.textContent = this.describe(node);
      this.tooltip.style.left = `${x + 12}px`;
      this.tooltip.style.top = `${y + 12}px`;
    }
    if (changed) this.stage?.schedule();
  }

  /** One line about a node: its label, its module and its state at the cursor. */
  describe(node: number): string {
    const n = this.setup.nodes[node]!;
    const module = this.mods.names[node]!;
    const head = n.label && n.label !== module ? `${n.label} · ${module}` : module;
    const s = this.nodeState[node]!;
    const kindName = this.coloring.names[n.kind]![s + 1] ?? this.coloring.names[n.kind]![0]!;
    const traceName = s >= 0 ? this.summary.states.find((x) => x.index === s)?.name : undefined;
    let text = `${head}: ${kindName}`;
    if (traceName && traceName !== kindName) text += ` (${traceName})`;
    const lost = this.undeliveredFrom(node);
    if (lost > 0) text += ` · ${lost} undelivered message${lost === 1 ? '' : 's'}`;
    return text;
  }

  /** Undelivered messages drawn at a node at the cursor. */
  private undeliveredFrom(node: number): number {
    const t = this.ctx.replay.time();
    let n = 0;
    for (const m of this.at?.in_flight ?? []) {
      if (m.recv_time < 0 && m.send_time <= t && this.mods.rowNode[m.send_row] === node) n++;
    }
    return n;
  }

  private click(ev: MouseEvent): void {
    if (!this.stage || !this.g) return;
    const { x, y } = this.stage.eventPos(ev);
    const node = nodeAt(this.g, x, y);
    if (node < 0) return;
    const b = this.mods.start[node]!;
    if (b === this.mods.start[node + 1]) return;
    const row = this.mods.rows[b]!;
    const t = this.ctx.replay.time();
    const w = this.ctx.timeline.window();
    const half = Math.max(1, (w.to - w.from) / 2);
    this.ctx.timeline.jumpTo({ row, begin: t - half, end: t + half, slice: this.at?.slices[row] ?? -1 });
  }

  // --- hooks ----------------------------------------------------------------

  private hooks: AnimationHooks | null = null;

  private installHooks(): void {
    const w = hookWindow();
    if (!w?.parallax) return;
    this.hooks = {
      seek: (t) => this.ctx.replay.seek(t),
      time: () => this.ctx.replay.time(),
      atTime: () => this.at?.time ?? null,
      nodes: () => {
        this.updateColors();
        const g = this.g;
        return this.setup.nodes.map((n, i) => ({
          id: n.id,
          x: g?.x[i] ?? 0,
          y: g?.y[i] ?? 0,
          state: this.nodeState[i]!,
          color: this.coloring.palette[this.nodeColor[i]!]!,
        }));
      },
      stats: () => ({ frames: this.stage?.frames ?? 0, drawMs: this.stage?.drawMs ?? 0, changes: this.changes, fetches: this.fetcher.sent, answers: this.answers }),
    };
    w.parallax.animation = this.hooks;
  }
}

function hookWindow(): { parallax?: { animation?: AnimationHooks } } | null {
  return typeof window === 'undefined' ? null : (window as unknown as { parallax?: { animation?: AnimationHooks } });
}

export const ANIMATION_VIEW: ViewFactory = {
  id: 'animation',
  title: 'Animation',
  create: (ctx) => new AnimationView(ctx),
  followsUpdates: true,
};
