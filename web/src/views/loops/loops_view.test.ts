// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { LoopsParams, LoopsResult, OmpLoop } from '../../protocol/api.gen';
import { SvgPainter } from '../../render/svg_painter';
import { fakeContext, fixtureSummary, flush, RecordingPainter, viewHost } from '../common/testing';
import { threadColor } from '../common/threads';
import { dynamicLoop } from './loops_testing';
import { iterationBlocks, layoutLoop } from './loops_layout';
import { estimatedFill } from './loops_paint';
import { describeChunk, ESTIMATED_NOTE, LOOPS_VIEW, LoopsView, NO_LOOPS } from './loops_view';
import { describeLoop } from './loops_tables';

function staticLoop(): OmpLoop {
  return { id: 0, process: 0, begin: 100, end: 900, first: 0, last: 15, iterations: 16, threads: 2, chunks: 2, schedule: 'static' };
}

/** A server with two loops: 0 static (estimated), 1 dynamic; answers chunks for `loop`. */
function server(p: LoopsParams): LoopsResult {
  const dyn = dynamicLoop();
  const loops = [staticLoop(), dyn.loop].filter((l) => l.end >= (p.from ?? 0) && l.begin <= (p.to ?? Infinity));
  const chunks =
    p.loop === 0
      ? [
          { row: 0, thread_num: 0, first: 0, last: 7, begin: 100, end: 500, estimated: true },
          { row: 1, thread_num: 1, first: 8, last: 15, begin: 120, end: 900, estimated: true },
        ]
      : p.loop === 1
        ? dyn.chunks
        : [];
  return { total: 2, loops, chunks, truncated: false, chunks_truncated: false };
}

const host = viewHost();

function setup(handler: (p: LoopsParams) => LoopsResult = server) {
  const f = fakeContext({ loops: handler });
  const view = new LoopsView(f.ctx, { debounceMs: 5 });
  view.mount(host());
  return { ...f, view };
}

const q = (s: string): HTMLElement | null => host().querySelector<HTMLElement>(`[data-testid=${s}]`);

describe('loop view', () => {
  it('is registered as "loops", "Loops"', () => {
    expect(LOOPS_VIEW.id).toBe('loops');
    expect(LOOPS_VIEW.title).toBe('Loops');
  });

  it('lists the window\'s loops, draws the first and marks its estimated times', async () => {
    const { view, api } = setup();
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([
      { from: 0, to: 1_000_000, loop: -1 },
      { from: 0, to: 1_000_000, loop: 0 },
    ]);
    expect(host().querySelectorAll('[data-testid^=loops-row-]')).toHaveLength(2);
    expect(q('loops-row-0')!.getAttribute('aria-selected')).toBe('true');
    expect(q('loops-title')!.textContent).toBe(describeLoop(staticLoop()));
    expect(q('loops-estimated')!.hidden).toBe(false);
    expect(q('loops-estimated')!.textContent).toBe(ESTIMATED_NOTE);
    const rows = [...host().querySelectorAll<HTMLElement>('[data-testid=loops-thread]')];
    expect(rows.map((r) => [r.dataset['threadNum'], r.dataset['chunks'], r.dataset['iterations']])).toEqual([
      ['0', '1', '8'],
      ['1', '1', '8'],
    ]);
    expect(rows[0]!.textContent).toContain('(estimated)');
    const p = new RecordingPainter(800, 400);
    view.paint(p);
    const fills = p.ops.filter((o) => o.op === 'fillRect').map((o) => o.color);
    expect(fills).toEqual(expect.arrayContaining([threadColor(0), threadColor(1), estimatedFill(threadColor(0)), estimatedFill(threadColor(1))]));
    expect(p.texts().some((t) => t.includes('estimated'))).toBe(true);
    view.unmount();
  });

  it('draws a picked loop: one block per chunk, in thread colours, times measured', async () => {
    const { view } = setup();
    await flush();
    q('loops-row-1')!.click();
    await flush();
    expect(q('loops-row-1')!.getAttribute('aria-selected')).toBe('true');
    expect(q('loops-estimated')!.hidden).toBe(true);
    const { loop, chunks } = dynamicLoop();
    const p = new RecordingPainter(800, 400);
    view.paint(p);
    const l = layoutLoop(chunks, fixtureSummary(), 800, (s) => s.length * 6.5);
    const want = iterationBlocks(chunks, loop, l);
    const blocks = p.ops.filter((o) => o.op === 'fillRect' && o.args[1] === l.iter.y && o.args[3] === l.iter.h && o.color !== '#f4f5f8');
    expect(blocks.map((o) => o.args)).toEqual(want.map((b) => [b.x, b.y, b.w, b.h]));
    expect(blocks.map((o) => o.color)).toEqual([1, 0, 1, 0].map(threadColor));
    expect(p.ops.some((o) => o.op === 'clip')).toBe(false); // no hatching
    expect(p.texts()).toEqual(expect.arrayContaining(['thread 0', 'thread 1', 'thread 0 · rank 0 / main']));
    const canvas = q('loops-chart') as HTMLCanvasElement;
    expect(canvas.dataset['blocks']).toBe('4');
    expect(canvas.dataset['estimated']).toBe('0');
    view.unmount();
  });

  it('keeps the chosen loop when the window moves and refetches the list', async () => {
    const { view, api, timeline } = setup();
    await flush();
    q('loops-row-1')!.click();
    await flush();
    timeline.moveTo(1500, 2500);
    await new Promise((r) => setTimeout(r, 20));
    await flush();
    expect(api.calls.at(-1)!.params).toEqual({ from: 1500, to: 2500, loop: 1 });
    expect(host().querySelectorAll('[data-testid^=loops-row-]')).toHaveLength(1);
    expect((q('loops-chart') as HTMLCanvasElement).dataset['loop']).toBe('1');
    view.unmount();
  });

  it('shows a chunk on hover and jumps the timeline to it on click', async () => {
    const { view, timeline } = setup();
    await flush();
    q('loops-row-1')!.click();
    await flush();
    const { loop, chunks } = dynamicLoop();
    const l = layoutLoop(chunks, fixtureSummary(), 600, (s) => s.length * 6.5); // jsdom: fallback width
    const b = iterationBlocks(chunks, loop, l)[2]!;
    const canvas = q('loops-chart')!;
    const at = { clientX: b.x + b.w / 2, clientY: b.y + 5 };
    canvas.dispatchEvent(new MouseEvent('mousemove', at));
    expect(q('loops-tooltip')!.hidden).toBe(false);
    expect(q('loops-tooltip')!.textContent).toBe(describeChunk(fixtureSummary(), chunks[2]!));
    expect(describeChunk(fixtureSummary(), chunks[2]!)).toBe('thread 1 · rank 0 / worker (tid 101): iterations 16–23 (8), 1.300 µs → 1.700 µs (400 ns)');
    canvas.dispatchEvent(new MouseEvent('click', at));
    expect(timeline.jumps).toEqual([{ row: 1, begin: 1300, end: 1700 }]);
    view.unmount();
  });

  it('exports the drawing as SVG: blocks in thread colours, hatching clipped to its bars', async () => {
    const { view } = setup();
    await flush();
    const size = view.exportSize();
    const svg = new SvgPainter(size.width, size.height, { measure: (t) => t.length * 6 });
    view.paint(svg);
    const doc = svg.toSvg();
    expect(doc).toContain(threadColor(0));
    expect(doc).toContain(estimatedFill(threadColor(1)));
    expect(doc.match(/<clipPath /g)).toHaveLength(2); // one per estimated bar
    expect(doc.match(/<g /g)?.length).toBe(doc.match(/<\/g>/g)?.length);
    expect(size.height).toBeGreaterThan(100);
  });

  it('says clearly when the trace has no OpenMP loops', async () => {
    const { view, api } = setup(() => ({ total: 0, loops: [], chunks: [], truncated: false, chunks_truncated: false }));
    await flush();
    expect(api.calls).toHaveLength(1);
    expect(q('loops-empty')!.hidden).toBe(false);
    expect(q('loops-empty')!.textContent).toBe(NO_LOOPS);
    expect(q('loops-list')).toBeNull();
    const p = new RecordingPainter();
    view.paint(p);
    expect(p.ops).toEqual([]);
  });

  it('says when the list is truncated, and when no loop is in the window', async () => {
    setup(() => ({ total: 5, loops: [staticLoop()], chunks: [], truncated: true, chunks_truncated: false }));
    await flush();
    expect(q('loops-truncated')!.hidden).toBe(false);
    expect(q('loops-truncated')!.textContent).toContain('only the first 1');
    host().replaceChildren();
    setup(() => ({ total: 5, loops: [], chunks: [], truncated: false, chunks_truncated: false }));
    await flush();
    expect(host().textContent).toContain('none of the 5 loops of the trace is in the timeline window');
  });

  it('says when only the first chunks of the loop came', async () => {
    const loop = staticLoop();
    const first = server({ loop: loop.id } as LoopsParams).chunks.slice(0, 1);
    setup((p) => ({ total: 1, loops: [loop], chunks: p.loop === loop.id ? first : [], truncated: false, chunks_truncated: p.loop === loop.id }));
    await flush();
    expect(q('loops-truncated')!.hidden).toBe(false);
    expect(q('loops-truncated')!.textContent).toContain(`only the first 1 (by first iteration)`);
  });
});
