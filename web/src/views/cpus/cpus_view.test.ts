// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { CpuResult, CpusParams } from '../../protocol/api.gen';
import { SvgPainter } from '../../render/svg_painter';
import { fakeContext, fixtureSummary, flush, RecordingPainter, viewHost } from '../common/testing';
import { cpuBars, layoutCpus } from './cpus_layout';
import { CURSOR_COLOR, ROW_BG } from './cpus_paint';
import { CPUS_VIEW, CpusView, describeSpan, estimateWidth, NO_DATA } from './cpus_view';
import { threadColor } from '../common/threads';

function cpus(): CpuResult {
  return {
    has_data: true,
    cpus: [0, 1],
    migrations: 2,
    truncated: false,
    spans: [
      { cpu: 0, row: 0, begin: 0, end: 300_000 },
      { cpu: 0, row: 1, begin: 300_000, end: 900_000 },
      { cpu: 1, row: 2, begin: 100_000, end: 800_000 },
    ],
  };
}

const host = viewHost();

function setup(handler: (p: CpusParams) => CpuResult = () => cpus()) {
  const f = fakeContext({ cpus: handler });
  const view = new CpusView(f.ctx, { debounceMs: 5 });
  view.mount(host());
  return { ...f, view };
}

describe('CPU view', () => {
  it('is registered as "cpus", "CPUs"', () => {
    expect(CPUS_VIEW.id).toBe('cpus');
    expect(CPUS_VIEW.title).toBe('CPUs');
  });

  it('asks for the timeline window and draws one bar per span in its thread colour', async () => {
    const { view, api, replay } = setup();
    await flush();
    expect(api.calls).toEqual([{ endpoint: 'cpus', params: { from: 0, to: 1_000_000 } }]);
    replay.seek(500_000);
    const p = new RecordingPainter(800, 300);
    view.paint(p);
    const l = layoutCpus(cpus(), fixtureSummary(), 800, estimateWidth);
    const want = cpuBars(cpus(), l, { from: 0, to: 1_000_000 });
    const fills = p.ops.filter((o) => o.op === 'fillRect' && o.color !== ROW_BG);
    // Three bars, then one swatch per legend entry.
    expect(fills.slice(0, 3).map((o) => o.args)).toEqual(want.map((b) => [b.x, b.y, b.w, b.h]));
    expect(fills.slice(0, 3).map((o) => o.color)).toEqual([0, 1, 2].map(threadColor));
    expect(fills.slice(3).map((o) => o.color)).toEqual([0, 1, 2].map(threadColor));
    expect(p.texts()).toEqual(expect.arrayContaining(['CPU 0', 'CPU 1', 'rank 0 / main', 'rank 0 / worker', 'rank 1 / main']));
    expect(p.ops.some((o) => o.op === 'line' && o.color === CURSOR_COLOR)).toBe(true);
    const info = host().querySelector('[data-testid=cpus-info]')!;
    expect(info.textContent).toBe('2 CPUs, 2 migrations in the whole trace; 3 spans in the window');
    expect(host().querySelector<HTMLElement>('[data-testid=cpus-empty]')!.hidden).toBe(true);
    view.unmount();
  });

  it('refetches when the timeline window moves and draws on the window asked for', async () => {
    const { view, api, timeline } = setup();
    await flush();
    timeline.moveTo(200_000, 400_000);
    timeline.moveTo(250_000, 450_000);
    await new Promise((r) => setTimeout(r, 20));
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([{ from: 0, to: 1_000_000 }, { from: 250_000, to: 450_000 }]);
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=cpus-chart]')!;
    expect(canvas.dataset['from']).toBe('250000');
    expect(canvas.dataset['bars']).toBe('3');
    expect(JSON.parse(canvas.dataset['legend']!).map((x: { row: number }) => x.row)).toEqual([0, 1, 2]);
    view.unmount();
  });

  it('exports the strip as SVG at the size it is drawn', async () => {
    const { view } = setup();
    await flush();
    const size = view.exportSize();
    expect(size.height).toBe(layoutCpus(cpus(), fixtureSummary(), size.width, estimateWidth).height);
    const svg = new SvgPainter(size.width, size.height, { measure: (t) => t.length * 6 });
    view.paint(svg);
    const doc = svg.toSvg();
    for (const row of [0, 1, 2]) expect(doc).toContain(threadColor(row));
    expect(doc).toContain('>CPU 1<');
  });

  it('says clearly when the trace has no CPU data', async () => {
    const { view } = setup(() => ({ has_data: false, cpus: [], spans: [], migrations: 0, truncated: false }));
    await flush();
    const empty = host().querySelector<HTMLElement>('[data-testid=cpus-empty]')!;
    expect(empty.hidden).toBe(false);
    expect(empty.textContent).toBe(NO_DATA);
    expect(NO_DATA).toContain('PLX_SCHED=1');
    const p = new RecordingPainter(800, 40);
    view.paint(p);
    expect(p.texts()).toEqual([NO_DATA]);
    expect(p.ops.filter((o) => o.op === 'fillRect')).toEqual([]);
  });

  it('says when the answer is truncated', async () => {
    setup(() => ({ ...cpus(), truncated: true }));
    await flush();
    const note = host().querySelector<HTMLElement>('[data-testid=cpus-truncated]')!;
    expect(note.hidden).toBe(false);
    expect(note.textContent).toContain('only the first 3 spans');
  });

  it('describes a span and jumps the timeline to its thread on click', async () => {
    const { view, timeline } = setup();
    await flush();
    expect(describeSpan(fixtureSummary(), { cpu: 1, row: 2, begin: 100_000, end: 800_000 })).toBe('rank 1 / main (tid 200) on CPU 1: 100.00 µs → 800.00 µs (700 µs)');
    const canvas = host().querySelector<HTMLCanvasElement>('[data-testid=cpus-chart]')!;
    const l = layoutCpus(cpus(), fixtureSummary(), 600, estimateWidth); // jsdom: the fallback width
    const bar = cpuBars(cpus(), l, { from: 0, to: 1_000_000 })[2]!;
    const at = { clientX: bar.x + bar.w / 2, clientY: bar.y + 3 };
    canvas.dispatchEvent(new MouseEvent('mousemove', at));
    const tip = host().querySelector<HTMLElement>('[data-testid=cpus-tooltip]')!;
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toContain('rank 1 / main (tid 200) on CPU 1');
    canvas.dispatchEvent(new MouseEvent('click', at));
    expect(timeline.jumps).toEqual([{ row: 2, begin: 100_000, end: 800_000 }]);
    canvas.dispatchEvent(new MouseEvent('mouseleave'));
    expect(tip.hidden).toBe(true);
    view.unmount();
  });
});
