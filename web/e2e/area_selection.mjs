// End-to-end tests of the timeline's area selection and the statistics that
// follow it (src/views/timeline/area.ts, input.ts; src/views/stats/): a
// ctrl-drag with real mouse events selects a time range and the rows it
// covered; the Statistics tab says it covers that selection (data-scope,
// data-from, data-to, data-rows on the panel) and shows the numbers of /stats
// asked with those parameters, which equal `parallax stats --json --from
// --to --rows` on the same file; zoomed without a selection it covers the
// window; Escape and a plain click clear the selection. The Communication
// tab (src/views/matrix/) covers the same selection or window: the same
// attributes, the totals and cells of /matrix asked with them (which equal
// `parallax matrix --json --from --to --rows`), RMA over the whole trace.
// The Histogram tab (src/views/histogram/) covers it too: the same
// attributes, and bars that are /histogram's asked with them.
// A real `parallax serve` over the demo trace, headless Chromium.
//
//   node e2e/area_selection.mjs --parallax PARALLAX --trace-dir DIR [--out DIR] [--docs-images DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it); PLX_WEB_DIR picks
// the built viewer to serve (harness.mjs). The screenshot of the selection
// with its statistics goes to OUT/area-selection.png, and with
// --docs-images (e.g. ../docs/images) there too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('area_selection.mjs', { out: 'e2e-area-selection-out', 'docs-images': '' });
const { check, fail, finish } = checks();
const tracePath = join(args['trace-dir'], traceFile);
const UNIT_NS = { s: 1e9, ms: 1e6, 'µs': 1e3, ns: 1 };

/** '12.5 ms' → 12500000 (ns). */
function parseDuration(text) {
  const m = text.trim().match(/^(-?[\d.]+) (s|ms|µs|ns)$/);
  assert.ok(m, `a duration with a unit: ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT_NS[m[2]];
}

/** Per state name: count and total (ns), of /stats rows or `stats --json` states; states without slices left out. */
function byState(rows, total = 'total') {
  const out = {};
  for (const r of rows) if (r.count > 0) out[r.name] = { count: r.count, total: r[total] };
  return out;
}

const server = await startServer(args.parallax, [tracePath]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(120000);
  const api = (path) => server.api(`/traces/${trace.id}${path}`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  const canvas = page.locator('#timeline canvas').first();
  const panel = page.locator('[data-testid=panel]');
  const summary = await api('/summary');
  assert.ok(summary.threads.length >= 3, `the demo trace has a few rows (${summary.threads.length})`);
  const area = () => page.evaluate(() => window.parallax.timeline.area());

  /** The panel's scope attributes once no answer is pending and data-scope is `scope`. */
  async function panelScope(scope) {
    const read = () => panel.evaluate((el) => ({
      scope: el.dataset.scope, from: el.dataset.from, to: el.dataset.to, rows: el.dataset.rows, pending: el.dataset.pending,
    }));
    const s = await until(read, (s) => s.scope === scope && s.pending === undefined, 15000);
    assert.equal(s.scope, scope, `the statistics cover the ${scope}: ${JSON.stringify(s)}`);
    return s;
  }

  /** The table's numbers: per state name, count and total (ns) as shown. */
  async function tableNumbers() {
    const rows = await page.locator('[data-testid=stats-row]').evaluateAll((trs) => trs.map((tr) => {
      const td = [...tr.querySelectorAll('td')];
      return { name: td[0].childNodes[1]?.textContent ?? '', count: td[1].textContent, total: td[2].textContent };
    }));
    const out = {};
    for (const r of rows) out[r.name] = { count: Number(r.count.replace(/,/g, '')), total: parseDuration(r.total) };
    return out;
  }

  /** The table shows `expected` (per state: count exactly, total to the 4 digits it prints). */
  function assertTableShows(table, expected, what) {
    assert.deepEqual(Object.keys(table).sort(), Object.keys(expected).sort(), `${what}: the same states`);
    for (const [name, e] of Object.entries(expected)) {
      assert.equal(table[name].count, e.count, `${what}: count of ${name}`);
      const tol = Math.max(0.5, Math.abs(e.total) * 5e-4);
      assert.ok(Math.abs(table[name].total - e.total) <= tol, `${what}: total of ${name}: shown ${table[name].total}, asked ${e.total}`);
    }
  }

  /** Ctrl-drags with real mouse events from (t0, row r0) to (t1, row r1). */
  async function ctrlDrag(t0, r0, t1, r1) {
    const box = await canvas.boundingBox();
    const [p0, p1] = await page.evaluate(([t0, r0, t1, r1]) => {
      const t = window.parallax.timeline;
      return [{ x: t.timeToX(t0), y: t.laneY(r0, 0) }, { x: t.timeToX(t1), y: t.laneY(r1, 0) }];
    }, [t0, r0, t1, r1]);
    await page.mouse.move(box.x + p0.x, box.y + p0.y);
    await page.keyboard.down('Control');
    await page.mouse.down();
    await page.mouse.move(box.x + p1.x, box.y + p1.y, { steps: 10 });
    await page.mouse.up();
    await page.keyboard.up('Control');
  }

  /** What the matrix tab drew: the totals and the non-empty cells ("i:j:count", its chart's data-*). */
  async function matrixDrawn() {
    return page.locator('[data-testid=matrix-chart]').evaluate((c) => ({
      kind: c.dataset.kind, count: Number(c.dataset.totalCount), bytes: Number(c.dataset.totalBytes), cells: c.dataset.cells,
    }));
  }

  /** The same of a /matrix answer. */
  function matrixOf(r) {
    const cells = [];
    r.count.forEach((row, i) => row.forEach((c, j) => { if (c > 0) cells.push(`${i}:${j}:${c}`); }));
    return { kind: r.kind, count: r.total_count, bytes: r.total_bytes, cells: cells.join(' ') };
  }

  /** The /matrix query of the panel scope `s` (its data-from/to/rows). */
  const matrixQuery = (s) => `kind=messages${s.from ? `&from=${s.from}&to=${s.to}` : ''}${s.rows ? `&rows=${s.rows}` : ''}`;

  /** The matrix tab shows /matrix asked with its own scope attributes `s`, which differs from the whole trace's. */
  async function assertMatrixShows(s, what) {
    const asked = await api(`/matrix?${matrixQuery(s)}`);
    assert.deepEqual(asked.selection, { from: Number(s.from), to: Number(s.to), rows: s.rows ? s.rows.split(',').length : summary.threads.length },
                     `${what}: the server says what it covered`);
    const whole = matrixOf(await api('/matrix?kind=messages'));
    const expected = matrixOf(asked);
    assert.notDeepEqual(expected, whole, `${what}: other numbers than the whole trace (${JSON.stringify(expected)})`);
    const drawn = await until(matrixDrawn, (d) => d.count === expected.count && d.cells === expected.cells, 5000);
    assert.deepEqual(drawn, expected, `${what}: the chart draws /matrix of the scope`);
    return asked;
  }

  const D = summary.duration;
  const [r0, r1] = [1, 2];
  let selection; // the panel's attributes for the selection
  let shownSelection; // the table's numbers for it

  await check('ctrl-drag selects the time range and the rows it covered, drawn on the timeline', async () => {
    const before = await page.evaluate(() => window.parallax.timeline.window());
    await ctrlDrag(0.7 * D, r0, 0.85 * D, r1);
    const a = await until(area, (a) => a !== null, 3000);
    assert.ok(a, 'an area is selected');
    assert.deepEqual(a.rows, [r0, r1], 'the rows dragged over');
    assert.ok(Math.abs(a.from - 0.7 * D) < D / 500 && Math.abs(a.to - 0.85 * D) < D / 500, `the times dragged: ${JSON.stringify(a)}`);
    assert.deepEqual(await page.evaluate(() => window.parallax.timeline.window()), before, 'the window stayed (no pan, no zoom)');
  });

  await check('the Statistics tab covers the selection: the line, the attributes, the numbers of /stats with them', async () => {
    const a = await area();
    await page.locator('button[data-view=stats]').click();
    selection = await panelScope('selection');
    // The picture of the selection with its statistics (the docs' area-selection.png).
    const shot = await page.screenshot();
    writeFileSync(join(args.out, 'area-selection.png'), shot);
    if (args['docs-images']) {
      mkdirSync(args['docs-images'], { recursive: true });
      writeFileSync(join(args['docs-images'], 'area-selection.png'), shot);
    }
    assert.equal(selection.from, String(Math.floor(a.from)), 'data-from: the selection begin in whole ns');
    assert.equal(selection.to, String(Math.ceil(a.to)), 'data-to');
    assert.equal(selection.rows, a.rows.join(','), 'data-rows');
    const line = await page.locator('[data-testid=stats-window]').innerText();
    assert.ok(line.startsWith(`Selection: ${a.rows.length} rows, `), `the line says so: ${JSON.stringify(line)}`);
    const q = `from=${selection.from}&to=${selection.to}&rows=${selection.rows}`;
    const asked = await api(`/stats?${q}`);
    assert.deepEqual(asked.selection, { from: Number(selection.from), to: Number(selection.to), rows: a.rows.length },
                     'the server says what it covered');
    const whole = await api('/stats');
    const expected = byState(asked.rows);
    assert.notDeepEqual(expected, byState(whole.rows), 'the selection has other numbers than the whole trace');
    shownSelection = await tableNumbers();
    assertTableShows(shownSelection, expected, 'the table shows /stats of the selection');
  });

  await check('`parallax stats --json --from --to --rows` gives the same counts and totals per state', async () => {
    const cli = spawnSync(args.parallax, ['stats', '--json', '--from', `${selection.from}ns`, '--to', `${selection.to}ns`,
                                          '--rows', selection.rows, tracePath], { encoding: 'utf8' });
    assert.equal(cli.status, 0, `parallax stats failed: ${cli.stderr}`);
    const json = JSON.parse(cli.stdout);
    assert.deepEqual(json.selection, { from_ns: Number(selection.from), to_ns: Number(selection.to), threads: selection.rows.split(',').length },
                     'the CLI says what it covered');
    const fromCli = byState(json.states, 'total_ns');
    const fromApi = byState((await api(`/stats?from=${selection.from}&to=${selection.to}&rows=${selection.rows}`)).rows);
    assert.deepEqual(fromCli, fromApi, 'the CLI and the API agree');
    assertTableShows(shownSelection, fromCli, 'the table shows the CLI numbers');
  });

  await check('the Communication tab covers the same selection: its attributes, /matrix with them, `parallax matrix`', async () => {
    await page.locator('button[data-view=matrix]').click();
    const m = await panelScope('selection');
    assert.deepEqual(m, selection, 'the same data-scope/from/to/rows as the Statistics tab');
    const line = await page.locator('[data-testid=matrix-window]').innerText();
    assert.ok(line.startsWith(`Selection: ${selection.rows.split(',').length} rows, `), `the line says so: ${JSON.stringify(line)}`);
    const asked = await assertMatrixShows(m, 'the first selection');
    const cli = spawnSync(args.parallax, ['matrix', '--json', '--from', `${m.from}ns`, '--to', `${m.to}ns`, '--rows', m.rows, tracePath],
                          { encoding: 'utf8' });
    assert.equal(cli.status, 0, `parallax matrix failed: ${cli.stderr}`);
    const json = JSON.parse(cli.stdout);
    assert.deepEqual({ messages: json.messages, bytes: json.bytes, count: json.count },
                     { messages: asked.total_count, bytes: asked.total_bytes, count: asked.count }, 'the CLI and the API agree');
  });

  await check('the Histogram tab covers the same selection: its attributes, its bars those of /histogram with them', async () => {
    await page.locator('button[data-view=histogram]').click();
    await panelScope('selection');
    // A state with slices in the selection, picked as the user would.
    const q = `from=${selection.from}&to=${selection.to}&rows=${selection.rows}`;
    const state = (await api(`/stats?${q}`)).rows.find((r) => r.count > 0).state;
    await page.locator('[data-testid=state]').selectOption(String(state));
    const h = await panelScope('selection');
    assert.deepEqual(h, selection, 'the same data-scope/from/to/rows as the Statistics tab');
    const line = await page.locator('[data-testid=histogram-window]').innerText();
    assert.ok(line.startsWith(`Selection: ${selection.rows.split(',').length} rows, `), `the line says so: ${JSON.stringify(line)}`);
    const bins = await page.locator('[data-testid=bins]').inputValue();
    const asked = await api(`/histogram?state=${state}&bins=${bins}&${q}`);
    assert.deepEqual(asked.area, { from: Number(h.from), to: Number(h.to), rows: h.rows.split(',').length },
                     'the server says what it covered');
    const whole = await api(`/histogram?state=${state}&bins=${bins}`);
    assert.ok(asked.total > 0 && asked.total < whole.total, `some of the state's slices: ${asked.total} of ${whole.total}`);
    const chart = page.locator('[data-testid=histogram-chart]');
    const drawn = await until(() => chart.evaluate((c) => (c.dataset.counts ?? '').split(',').map(Number)),
                              (c) => c.reduce((a, b) => a + b, 0) === asked.total, 5000);
    assert.equal(drawn.reduce((a, b) => a + b, 0), asked.total, 'the bars add up to the total of /histogram of the selection');
    assert.deepEqual(drawn, asked.counts, 'the bars are its counts');
  });

  await check('a new area on the Communication tab is followed at once (its cells); RMA covers the whole trace', async () => {
    // Rows 0-2 over a tenth of the trace with messages among them (the farm's master is row 0; a long MPI_Init comes first).
    let f0 = 0.45;
    for (const f of [0.85, 0.75, 0.65, 0.55]) {
      if ((await api(`/matrix?kind=messages&from=${Math.floor(f * D)}&to=${Math.floor((f + 0.1) * D)}&rows=0,1,2`)).total_count > 0) { f0 = f; break; }
    }
    await page.locator('button[data-view=matrix]').click();
    await ctrlDrag(f0 * D, 0, (f0 + 0.1) * D, 2);
    const a = await until(area, (a) => a?.rows.length === 3, 3000);
    assert.deepEqual(a?.rows, [0, 1, 2], 'the rows dragged over');
    const m = await until(() => panelScope('selection'), (s) => s.rows === '0,1,2', 5000);
    assert.equal(m.rows, '0,1,2', 'data-rows follows the new area');
    assert.equal(m.from, String(Math.floor(a.from)));
    assert.equal(m.to, String(Math.ceil(a.to)));
    const asked = await assertMatrixShows(m, 'the wider selection');
    assert.ok(asked.total_count > 0, `messages between the rows (${asked.total_count})`);
    await page.locator('[data-testid=kind-rma]').click();
    await panelScope('trace');
    assert.ok((await page.locator('[data-testid=matrix-window]').innerText()).startsWith('Whole trace'), 'RMA: the whole trace');
    assert.deepEqual(await until(matrixDrawn, (d) => d.kind === 'rma'), matrixOf(await api('/matrix?kind=rma')), 'RMA: /matrix of the whole trace');
    await page.locator('[data-testid=kind-messages]').click();
    assert.deepEqual(await panelScope('selection'), m, 'messages: the selection again');
    assert.deepEqual(await matrixDrawn(), matrixOf(asked));
  });

  await check('Escape clears the selection; zoomed, the statistics cover the window', async () => {
    await page.locator('button[data-view=stats]').click();
    await page.keyboard.press('Escape');
    assert.equal(await until(area, (a) => a === null, 3000), null, 'the area is gone');
    await panelScope('trace');
    assert.equal(await page.locator('[data-testid=stats-window]').innerText(), 'Whole trace');
    // Zoom in with real wheel events over the middle of the plot.
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width * 0.6, box.y + 150);
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -200);
    const w = await until(() => page.evaluate(() => window.parallax.timeline.window()), (w) => w.to - w.from < D * 0.8, 3000);
    const s = await panelScope('window');
    // The window as it rests (the table asks 200 ms after the last move).
    const rested = await page.evaluate(() => window.parallax.timeline.window());
    assert.ok(rested.to - rested.from < D, `zoomed in: ${JSON.stringify(w)}`);
    assert.equal(s.from, String(Math.max(0, Math.floor(rested.from))), 'data-from: the window begin');
    assert.equal(s.to, String(Math.min(D, Math.ceil(rested.to))), 'data-to: the window end');
    assert.equal(s.rows, '', 'all rows');
    assert.ok((await page.locator('[data-testid=stats-window]').innerText()).startsWith('Zoomed window: '));
    const asked = await api(`/stats?from=${s.from}&to=${s.to}`);
    assertTableShows(await tableNumbers(), byState(asked.rows), 'the table shows /stats of the window');
  });

  await check('a selection in the zoomed window wins over it; a plain click clears it and the window is covered again', async () => {
    const w = await page.evaluate(() => window.parallax.timeline.window());
    const span = w.to - w.from;
    await ctrlDrag(w.from + 0.2 * span, 0, w.from + 0.5 * span, 1);
    const a = await until(area, (a) => a !== null, 3000);
    assert.deepEqual(a?.rows, [0, 1]);
    const s = await panelScope('selection');
    assert.equal(s.rows, '0,1');
    const asked = await api(`/stats?from=${s.from}&to=${s.to}&rows=${s.rows}`);
    assertTableShows(await tableNumbers(), byState(asked.rows), 'the table shows /stats of the new selection');
    // A plain click below the rows (empty space) clears it.
    const box = await canvas.boundingBox();
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height - 10);
    assert.equal(await until(area, (a) => a === null, 3000), null, 'the click cleared the area');
    await panelScope('window');
  });

  await check('zoomed, the Communication tab covers the same window: /matrix of it', async () => {
    const s = await panelScope('window');
    await page.locator('button[data-view=matrix]').click();
    const m = await panelScope('window');
    assert.deepEqual(m, s, 'the same data-scope/from/to/rows as the Statistics tab');
    assert.ok((await page.locator('[data-testid=matrix-window]').innerText()).startsWith('Zoomed window: '));
    await assertMatrixShows(m, 'the zoomed window');
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('area selection checks');
