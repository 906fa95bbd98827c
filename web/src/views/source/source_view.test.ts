// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { SourceFiles, SourceParams, SourceText } from '../../protocol/api.gen';
import { DetailsPanel } from '../../widgets/details';
import { fakeContext, fixtureSummary, flush, viewHost } from '../common/testing';
import { pickFile, sourceRows } from './source_lines';
import { requestSource } from './source_request';
import { SOURCE_VIEW } from './source_view';

const files: SourceFiles = {
  search_dirs: ['/src'],
  files: [
    { index: 0, file: 'a.c', found: true, count: 1, total: 100 },
    { index: 1, file: 'solver.cc', found: true, count: 4, total: 9000 },
    { index: 2, file: 'gone.h', found: false, count: 1, total: 50000 },
  ],
};

const solver: SourceText = {
  index: 1,
  file: 'solver.cc',
  path: '/src/solver.cc',
  count: 4,
  total: 9000,
  text: ['int x;', 'void solve() {', '  work();', '}'],
  lines: [
    { line: 2, count: 3, total: 6000, self: 5000, states: [{ state: 0, name: 'compute', count: 3, total: 6000 }] },
    { line: 3, count: 1, total: 3000, self: 3000, states: [{ state: 0, name: 'compute', count: 1, total: 3000 }] },
  ],
};

function source(p: SourceParams): SourceText {
  if (p.file === '1' || p.file === 'solver.cc') return solver;
  if (p.file === '0') return { ...solver, index: 0, file: 'a.c', path: '/src/a.c', text: ['a'], lines: [] };
  throw new Error(`source file '${p.file}' is not on this machine`);
}

const host = viewHost();

function setup() {
  const f = fakeContext({ source_files: () => files, source });
  const view = SOURCE_VIEW.create(f.ctx);
  view.mount(host());
  return { ...f, view };
}

describe('sourceRows', () => {
  it('puts the time of each line beside its text, heat relative to the busiest line', () => {
    const rows = sourceRows(solver);
    expect(rows.map((r) => r.line)).toEqual([1, 2, 3, 4]);
    expect(rows[1]).toMatchObject({ text: 'void solve() {', total: 6000, count: 3, heat: 1 });
    expect(rows[2]!.heat).toBeCloseTo(0.5);
    expect(rows[0]).toMatchObject({ total: 0, heat: 0 });
  });
  it('keeps annotated lines past the end of a file changed since the run', () => {
    const rows = sourceRows({ ...solver, text: ['x'] });
    expect(rows.length).toBe(3);
    expect(rows[2]).toMatchObject({ line: 3, text: '', total: 3000 });
  });
  it('picks the named file, else the found file with the most time', () => {
    expect(pickFile(files.files, 'a.c')?.index).toBe(0);
    expect(pickFile(files.files, null)?.index).toBe(1);
    expect(pickFile([], null)).toBeNull();
  });
});

describe('SourceView', () => {
  it('shows the busiest file with line numbers and per-line times', async () => {
    const { api } = setup();
    await flush();
    const h = host();
    expect(h.dataset['state']).toBe('shown');
    expect(h.dataset['file']).toBe('solver.cc');
    const lines = h.querySelectorAll<HTMLElement>('.source-line');
    expect(lines.length).toBe(4);
    expect(lines[1]!.dataset['total']).toBe('6000');
    expect(lines[1]!.querySelector('.source-text')?.textContent).toBe('void solve() {');
    expect(lines[0]!.dataset['total']).toBeUndefined();
    expect(h.querySelector('[data-testid="source-info"]')?.textContent).toContain('/src/solver.cc');
    expect(api.calls.map((c) => c.endpoint)).toEqual(['source_files', 'source']);
    expect(h.querySelector<HTMLSelectElement>('[data-testid="source-file"]')?.value).toBe('1');
  });

  it('goes to a requested file:line and marks it', async () => {
    setup();
    await flush();
    requestSource({ file: 'solver.cc', line: 3 });
    const sel = host().querySelectorAll('.source-line.selected');
    expect(sel.length).toBe(1);
    expect((sel[0] as HTMLElement).dataset['line']).toBe('3');
    requestSource({ file: 'a.c', line: 1 });
    await flush();
    expect(host().dataset['file']).toBe('a.c');
    expect(host().querySelector<HTMLElement>('.source-line.selected')?.dataset['line']).toBe('1');
  });

  it('opens on the request made before it was mounted (a details link)', async () => {
    requestSource({ file: 'a.c', line: 1 });
    setup();
    await flush();
    expect(host().dataset['file']).toBe('a.c');
    expect(host().dataset['line']).toBe('1');
  });

  it('says why a file cannot be shown', async () => {
    setup();
    await flush();
    requestSource({ file: 'gone.h', line: 2 });
    await flush();
    expect(host().dataset['state']).toBe('error');
    expect(host().querySelector('[data-testid="view-error"]')?.textContent).toContain('not on this machine');
  });

  it("follows the details panel's call-site link", async () => {
    setup();
    await flush();
    const panel = new DetailsPanel(fixtureSummary());
    document.body.append(panel.el);
    panel.show({ kind: 'slice', id: 1, name: 'compute', row: 0, begin: 0, end: 10, depth: 0, callsite: { file: 'solver.cc', line: 2, function: 'solve' }, fields: [] });
    const link = panel.el.querySelector<HTMLButtonElement>('[data-testid="details-callsite-link"]');
    expect(link?.textContent).toBe('solver.cc:2');
    expect(panel.el.querySelector('[data-field="callsite"]')?.textContent).toBe('solver.cc:2 solve');
    link!.click();
    await flush();
    expect(host().querySelector<HTMLElement>('.source-line.selected')?.dataset['line']).toBe('2');
    panel.el.remove();
  });
});
