// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MatrixParams, MatrixResult } from '../../protocol/api.gen';
import { EMPTY_CELL, HEAT_STOPS } from '../common/colors';
import { fakeContext, flush, RecordingPainter, stubCanvas } from '../common/testing';
import { MATRIX_VIEW } from './matrix_view';

const messages: MatrixResult = {
  kind: 'messages',
  labels: ['rank 0', 'rank 1'],
  count: [
    [0, 10],
    [1, 0],
  ],
  bytes: [
    [0, 100],
    [4096, 0],
  ],
  latency: [
    [0, 500],
    [1000, 0],
  ],
  total_count: 11,
  total_bytes: 4196,
  selection: null,
};
const rma: MatrixResult = { kind: 'rma', labels: ['rank 0', 'rank 1'], count: [[0, 0], [0, 0]], bytes: [[0, 0], [0, 0]], latency: [[0, 0], [0, 0]], total_count: 0, total_bytes: 0, selection: null };

let host: HTMLElement;
beforeEach(() => {
  stubCanvas();
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => host.remove());

function setup(handler: (p: MatrixParams) => MatrixResult = (p) => (p.kind === 'rma' ? rma : messages)) {
  const f = fakeContext({ matrix: handler });
  const view = MATRIX_VIEW.create(f.ctx);
  view.mount(host);
  return { ...f, view };
}

/** Colours of the n*n cells, row by row (the first n*n fillRects). */
function cellColors(view: { paint?: (p: RecordingPainter) => void }, n = 2): string[] {
  const p = new RecordingPainter(500, 300);
  view.paint!(p);
  return p.ops.filter((o) => o.op === 'fillRect').slice(0, n * n).map((o) => o.color!);
}

describe('matrix view', () => {
  it('colours cells by count: the busiest hot, the empty grey', async () => {
    const { view, api } = setup();
    await flush();
    expect(api.calls[0]).toEqual({ endpoint: 'matrix', params: { kind: 'messages' } });
    const hot = HEAT_STOPS[HEAT_STOPS.length - 1];
    const colors = cellColors(view);
    expect(colors[0]).toBe(EMPTY_CELL);
    expect(colors[1]).toBe(hot);
    expect(colors[3]).toBe(EMPTY_CELL);
    expect(colors[2]).not.toBe(hot);
  });

  it('switches the metric to bytes', async () => {
    const { view } = setup();
    await flush();
    host.querySelector<HTMLButtonElement>('[data-testid=metric-bytes]')!.click();
    const colors = cellColors(view);
    expect(colors[2]).toBe(HEAT_STOPS[HEAT_STOPS.length - 1]); // 4096 bytes is the most
    expect(host.querySelector('[data-testid=metric-bytes]')!.getAttribute('aria-pressed')).toBe('true');
    const p = new RecordingPainter(500, 300);
    view.paint!(p);
    expect(p.texts()).toContain('rank 1');
    expect(p.texts()).toContain('4 KiB');
  });

  it('says "no messages" when there are none', async () => {
    setup(() => ({ ...rma, kind: 'messages' }));
    await flush();
    const empty = host.querySelector<HTMLElement>('[data-testid=matrix-empty]')!;
    expect(empty.hidden).toBe(false);
    expect(empty.textContent).toBe('no messages');
  });

  it('fetches RMA on the kind toggle and back from the cache', async () => {
    const { api } = setup();
    await flush();
    host.querySelector<HTMLButtonElement>('[data-testid=kind-rma]')!.click();
    await flush();
    expect(api.calls.map((c) => c.params)).toEqual([{ kind: 'messages' }, { kind: 'rma' }]);
    expect(host.querySelector<HTMLElement>('[data-testid=matrix-empty]')!.textContent).toContain('RMA');
    expect(host.querySelector<HTMLButtonElement>('[data-testid=metric-latency]')!.disabled).toBe(true);
    host.querySelector<HTMLButtonElement>('[data-testid=kind-messages]')!.click();
    await flush();
    expect(api.calls).toHaveLength(2);
    expect(host.querySelector<HTMLElement>('[data-testid=matrix-empty]')!.hidden).toBe(true);
  });

  it('shows the cell values on hover', async () => {
    setup();
    await flush();
    const canvas = host.querySelector<HTMLCanvasElement>('[data-testid=matrix-chart]')!;
    // jsdom lays nothing out: the canvas is at (0, 0); width is the 600 px fallback.
    // Two labels 'rank 0' (~6.5 px/char) make a 49 px label column, cells of 40 px from y=22.
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: 49 + 45, clientY: 22 + 5 }));
    const tip = host.querySelector<HTMLElement>('[data-testid=matrix-tooltip]')!;
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toBe('rank 0 → rank 1: 10 messages, 100 B, mean latency 500 ns');
    canvas.dispatchEvent(new MouseEvent('mouseleave'));
    expect(tip.hidden).toBe(true);
  });

  it('shows errors in red', async () => {
    setup(() => {
      throw new Error('kind: must be messages or rma');
    });
    await flush();
    expect(host.querySelector('[data-testid=view-error]')!.textContent).toBe('kind: must be messages or rma');
  });
});
