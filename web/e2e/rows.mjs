// End-to-end tests of the timeline's rows (src/views/timeline/row_order.ts,
// row_view.ts) and label column: dragging the column's edge resizes it (the
// mountain strip's plot follows, the URL keeps it); the rows sort by name
// and by time in a state (as /query counts it), filter on names, hide the
// empty ones over the window, pin on a label click; the URL brings it all
// back on reload, and the compact mode's bands hold the same rows.
// A real `parallax serve` over the demo trace, headless Chromium.
//
//   node e2e/rows.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('rows.mjs', { out: 'e2e-rows-out' });
const { check, fail, finish } = checks();

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(120000);
  const summary = await server.api(`/traces/${trace.id}/summary`);
  const rows = summary.threads.map((t) => t.index);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  const ready = () => page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  await page.goto(server.url);
  await ready();
  const canvas = page.locator('#timeline canvas').first();
  const data = (name) => canvas.getAttribute(`data-${name}`);
  const order = async () => (await data('rows-order')).split(',').filter((x) => x !== '').map(Number);
  const params = async () => new URLSearchParams(await page.evaluate(() => window.location.search));
  const urlHas = (key, value) => until(params, (u) => u.get(key) === value, 3000).then((u) => u.get(key));
  let bySend = []; // the rows by time in MPI_Send, most first
  const orderIs = async (want) => assert.deepEqual(await until(order, (o) => o.join() === want.join()), want);

  await check('dragging the label column edge resizes it; the mountain strip and the URL follow', async () => {
    assert.equal(await data('label-width'), '200');
    const box = await canvas.boundingBox();
    const y = box.y + 60;
    await page.mouse.move(box.x + 200, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 260, y, { steps: 4 });
    await page.mouse.move(box.x + 320, y, { steps: 4 });
    await page.mouse.up();
    assert.equal(await until(() => data('label-width'), (w) => w === '320'), '320');
    const from = await page.evaluate(() => window.parallax.timeline.window().from);
    assert.equal(Math.round(await page.evaluate((t) => window.parallax.timeline.timeToX(t), from)), 320);
    const mountain = page.locator('[data-testid=mountain-chart]').first();
    assert.equal(await until(() => mountain.getAttribute('data-plot-left'), (x) => x === '320'), '320');
    assert.equal(await urlHas('labels', '320'), '320');
    // Clamped: dragged far left it stops at 80 px.
    await page.mouse.move(box.x + 320, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 5, y, { steps: 4 });
    await page.mouse.up();
    assert.equal(await until(() => data('label-width'), (w) => w === '80'), '80');
    await page.mouse.move(box.x + 80, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 320, y, { steps: 4 });
    await page.mouse.up();
    assert.equal(await urlHas('labels', '320'), '320');
  });

  await check('the rows sort by time in a state, as /query counts it per row, and by name', async () => {
    const q = await server.api(
      `/traces/${trace.id}/query?sql=${encodeURIComponent("SELECT thread, sum(dur) FROM slices WHERE state IN ('MPI_Send') GROUP BY thread")}`,
    );
    const ns = new Map(q.rows.map(([r, v]) => [r, v]));
    const want = [...rows].sort((a, b) => (ns.get(b) ?? 0) - (ns.get(a) ?? 0));
    assert.notDeepEqual(want, rows, 'the demo trace sorts differently by time in MPI_Send');
    bySend = want;
    await page.locator('[data-testid=rows-sort]').selectOption('state:MPI_Send');
    await orderIs(want);
    assert.equal(await urlHas('sort', 'state:MPI_Send'), 'state:MPI_Send');
    await page.locator('[data-testid=rows-sort]').selectOption('name');
    const name = (r) => `${summary.processes[summary.threads[r].process].name} ${summary.threads[r].name}`;
    const byName = [...rows].sort((a, b) => name(a).localeCompare(name(b), undefined, { numeric: true }));
    await orderIs(byName);
    assert.equal(await urlHas('sort', 'name'), 'name');
  });

  await check('a filter keeps the rows whose names hold it', async () => {
    const word = summary.processes.at(-1).name.toLowerCase() === summary.processes[0].name.toLowerCase()
      ? String(summary.threads.at(-1).tid)
      : summary.processes.at(-1).name;
    const text = (r) => {
      const t = summary.threads[r];
      const p = summary.processes[t.process];
      return `${p.host} ${p.name} ${t.name}`.toLowerCase();
    };
    const want = rows.filter((r) => text(r).includes(word.toLowerCase()));
    await page.locator('[data-testid=rows-filter]').fill(word);
    if (want.length > 0 && want.length < rows.length) {
      assert.equal(await until(() => data('rows-count'), (n) => n === String(want.length)), String(want.length));
    }
    assert.equal(await urlHas('filter', word), word);
    await page.locator('[data-testid=rows-filter]').fill('no such row');
    assert.equal(await until(() => data('rows-count'), (n) => n === '0'), '0');
    await page.locator('[data-testid=rows-filter]').fill('');
    assert.equal(await until(() => data('rows-count'), (n) => n === String(rows.length)), String(rows.length));
  });

  await check('hiding empty rows keeps only those with records in the window', async () => {
    await page.locator('[data-testid=rows-sort]').selectOption('host');
    // Early in the trace, before the other ranks' first record.
    const late = Math.min(...summary.threads.map((t) => t.begin).filter((b) => b > 0));
    await page.evaluate((to) => window.parallax.timeline.setWindow(0, to), late / 2);
    await page.locator('[data-testid=rows-empty]').check();
    const want = summary.threads.filter((t) => t.records > 0 && t.begin <= late / 2).map((t) => t.index);
    assert.ok(want.length < rows.length, 'some rows start later');
    await orderIs(want);
    assert.equal(await urlHas('empty', 'hide'), 'hide');
    // The whole trace: every row has records again.
    await page.evaluate((d) => window.parallax.timeline.setWindow(0, d), summary.duration);
    await orderIs(rows);
  });

  await check('a click on a thread label pins it to the top', async () => {
    const last = rows.at(-1);
    const y = await page.evaluate((r) => window.parallax.timeline.rowY(r) + 6, last);
    await canvas.click({ position: { x: 40, y } });
    await orderIs([last, ...rows.filter((r) => r !== last)]);
    assert.equal(await urlHas('pin', String(last)), String(last));
    assert.equal(await page.evaluate((r) => window.parallax.timeline.rowY(r), last) < (await page.evaluate((r) => window.parallax.timeline.rowY(r), rows[0])), true);
  });

  await check('reloading the URL brings back the label width and the rows', async () => {
    const before = await order();
    await page.reload();
    await ready();
    assert.equal(await until(() => data('label-width'), (w) => w === '320'), '320');
    await orderIs(before);
    assert.equal(await page.locator('[data-testid=rows-empty]').isChecked(), true);
  });

  await check('the compact mode bands hold the rows shown, in their order', async () => {
    await page.locator('[data-testid=rows-sort]').selectOption('state:MPI_Send');
    const pinned = rows.at(-1);
    const want = [pinned, ...bySend.filter((r) => r !== pinned)];
    await orderIs(want);
    await page.locator('[data-testid=compact-toggle]').check();
    await until(() => data('compact'), (c) => c === '1');
    assert.equal(await until(() => data('rows-first'), (f) => f === String(want[0])), String(want[0]));
    // The /rowmap asked for lists the rows in that order.
    const asked = await until(
      () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/rowmap'))),
      (list) => list.length > 0,
    );
    const askedRows = new URL(asked.at(-1)).searchParams.get('rows');
    // The viewer writes runs of three or more rows as ranges (3,0-2).
    const listed = askedRows.split(',').flatMap((part) => {
      const run = /^(\d+)-(\d+)$/.exec(part);
      if (!run) return [Number(part)];
      return Array.from({ length: Number(run[2]) - Number(run[1]) + 1 }, (_, i) => Number(run[1]) + i);
    });
    assert.deepEqual(listed, want, `rowmap rows ${askedRows}`);
    await page.locator('[data-testid=compact-toggle]').uncheck();
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('rows checks');
