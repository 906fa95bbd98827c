// End-to-end tests of the timeline's rows (src/views/timeline/row_order.ts,
// row_view.ts) and label column: dragging the column's edge resizes it (the
// mountain strip's plot follows, the URL keeps it); the rows sort by name
// and by time in a state (as /query counts it), filter on names, hide the
// empty ones over the window, pin on a label click; the URL brings it all
// back on reload, and the compact mode's bands hold the same rows; sorted by
// imbalance, the order and the notes equal the loads computed from /query.
// A real `parallax serve` over the demo trace, headless Chromium. With
// --ring (examples/mpi/mpi_ring), the ring with --split is recorded under
// mpirun and served: the communicator filter keeps the rows /query says
// took part in the sub-communicator, also after a reload.
//
//   node e2e/rows.mjs --parallax PARALLAX --trace-dir DIR [--out DIR] [--ring MPI_RING] [--mpirun MPIRUN]
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('rows.mjs', { out: 'e2e-rows-out', ring: '', mpirun: '/usr/bin/mpirun' });
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
  let bySend = []; // the rows by time in `sortState`, most first
  let sortState = '';
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
    // A state whose per-row times order the rows otherwise than recorded,
    // with no two rows alike (recordings differ: which one is not fixed).
    const q = await server.api(
      `/traces/${trace.id}/query?sql=${encodeURIComponent('SELECT state, thread, sum(dur) FROM slices GROUP BY state, thread')}`,
    );
    const byState = new Map();
    for (const [state, r, v] of q.rows) {
      if (!byState.has(state)) byState.set(state, new Map());
      byState.get(state).set(r, v);
    }
    const orderBy = (ns) => [...rows].sort((a, b) => (ns.get(b) ?? 0) - (ns.get(a) ?? 0));
    const distinct = (ns) => new Set(rows.map((r) => ns.get(r) ?? 0)).size === rows.length;
    const candidates = [...byState].filter(([, ns]) => distinct(ns) && orderBy(ns).join() !== rows.join());
    assert.ok(candidates.length > 0, 'some state sorts the demo rows otherwise than recorded');
    const [state, ns] = candidates.find(([name]) => name.startsWith('MPI_')) ?? candidates[0];
    sortState = `state:${state}`;
    const want = orderBy(ns);
    bySend = want;
    await page.locator('[data-testid=rows-sort]').selectOption(sortState);
    await orderIs(want);
    assert.equal(await urlHas('sort', sortState), sortState);
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
    await page.locator('[data-testid=rows-sort]').selectOption(sortState);
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

  await check('sorted by imbalance, the rows go by load (span less time in MPI, as /query counts it), noted against the mean', async () => {
    await page.locator('[data-testid=rows-unpin]').click();
    // The viewer's MPI states: category MPI or named MPI_*.
    const mpiStates = summary.states.filter((st) => st.category === 'MPI' || st.name.startsWith('MPI_')).map((st) => `'${st.name}'`);
    const sql = `SELECT thread, sum(dur) FROM slices WHERE state IN (${mpiStates.join(', ')}) GROUP BY thread`;
    const q = await server.api(`/traces/${trace.id}/query?sql=${encodeURIComponent(sql)}`);
    const mpi = new Map(q.rows.map(([r, v]) => [r, v]));
    const load = (r) => {
      const t = summary.threads[r];
      return t.records > 0 ? Math.max(0, t.end - t.begin - (mpi.get(r) ?? 0)) : 0;
    };
    const want = [...rows].sort((a, b) => load(b) - load(a));
    // Start from a sort whose order differs, so the switch shows.
    const before = [[sortState, bySend], ['host', rows]].find(([, order]) => order.join() !== want.join());
    assert.ok(before, 'some other sort orders the rows otherwise than by load');
    await page.locator('[data-testid=rows-sort]').selectOption(before[0]);
    await orderIs(before[1]);
    await page.locator('[data-testid=rows-sort]').selectOption('imbalance');
    await orderIs(want);
    assert.equal(await urlHas('sort', 'imbalance'), 'imbalance');
    const mean = rows.reduce((a, r) => a + load(r), 0) / rows.length;
    const note = (r) => {
      const pct = Math.round((100 * (load(r) - mean)) / mean);
      return pct > 0 ? `+${pct} %` : pct < 0 ? `−${-pct} %` : '±0 %';
    };
    const notes = want.map((r) => `${r}:${note(r)}`).join(',');
    const sort = page.locator('[data-testid=rows-sort]');
    assert.equal(await until(() => sort.getAttribute('data-row-notes'), (n) => n === notes), notes);
    assert.ok(notes.startsWith(`${want[0]}:+`), `the most loaded row is above the mean: ${notes}`);
    await page.reload();
    await ready();
    await orderIs(want);
    assert.equal(await page.locator('[data-testid=rows-sort]').inputValue(), 'imbalance');
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  // The browser stays for the ring's checks.
  if (page) writeFileSync(join(args.out, 'last.png'), await page.screenshot().catch(() => Buffer.alloc(0)));
  await page?.close();
  await server.stop();
}

// The communicator filter, over the ring run with a sub-communicator (the demo trace has MPI_COMM_WORLD alone).
if (!args.ring || !existsSync(args.mpirun)) {
  console.log(`skipped: the communicator filter needs --ring and ${args.mpirun}`);
} else {
  const plx = join(args.out, 'ring-split.plx');
  rmSync(plx, { force: true });
  rmSync(`${plx}.parts`, { recursive: true, force: true });
  const root = process.getuid?.() === 0 ? ['--allow-run-as-root'] : [];
  const run = spawnSync(args.parallax, ['record', '-o', plx, '--', args.mpirun, ...root, '--oversubscribe', '--mca', 'btl', 'self,vader',
    '-np', '4', args.ring, '--rounds', '20', '--split'], { encoding: 'utf8', timeout: 120000 });
  let ringServer = null;
  let ringPage;
  try {
    assert.equal(run.status, 0, `parallax record of the ring failed: ${run.stdout}${run.stderr}`);
    ringServer = await startServer(args.parallax, [plx]);
    const [trace] = await ringServer.waitAllReady(120000);
    const comms = new Map();
    const sql = 'SELECT comm, thread FROM collectives WHERE comm IS NOT NULL UNION SELECT comm, send_thread FROM messages ' +
      'WHERE comm IS NOT NULL UNION SELECT comm, recv_thread FROM messages WHERE comm IS NOT NULL';
    for (const [comm, row] of (await ringServer.api(`/traces/${trace.id}/query?sql=${encodeURIComponent(sql)}`)).rows) {
      comms.set(comm, [...(comms.get(comm) ?? []), row]);
    }
    const sub = [...comms.keys()].find((c) => c !== 'MPI_COMM_WORLD');
    ringPage = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const noPageErrors = watchPageErrors(ringPage);
    await ringPage.goto(ringServer.url);
    await ringPage.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    const canvas = ringPage.locator('#timeline canvas').first();
    const order = async () => (await canvas.getAttribute('data-rows-order')).split(',').filter((x) => x !== '').map(Number);
    const orderIs = async (want) => assert.deepEqual(await until(order, (o) => o.join() === want.join()), want);
    await check('the communicator filter lists the communicators and keeps the rows of one, as /query says', async () => {
      assert.ok(sub, `the ring run has a sub-communicator: ${[...comms.keys()]}`);
      const want = [...comms.get(sub)].sort((a, b) => a - b);
      const all = (await ringServer.api(`/traces/${trace.id}/summary`)).threads.map((t) => t.index);
      assert.ok(want.length > 0 && want.length < all.length, `${sub} holds some of the rows: ${want}`);
      const select = ringPage.locator('[data-testid=rows-comm]');
      await select.focus();
      const listed = await until(() => select.locator('option').allTextContents(), (o) => o.length === comms.size + 1);
      assert.deepEqual(new Set(listed.slice(1)), new Set(comms.keys()));
      await select.selectOption(sub);
      await orderIs(want);
      const params = () => ringPage.evaluate(() => new URLSearchParams(window.location.search).get('comm'));
      assert.equal(await until(params, (c) => c === sub), sub);
      await ringPage.reload();
      await ringPage.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
      await orderIs(want);
      assert.equal(await select.inputValue(), sub);
      await select.selectOption('MPI_COMM_WORLD');
      await orderIs([...comms.get('MPI_COMM_WORLD')].sort((a, b) => a - b));
      await select.selectOption('');
      await orderIs(all);
    });
    await check('no uncaught errors in the ring page', noPageErrors);
  } catch (e) {
    fail('ring', e);
  } finally {
    if (ringServer) await closeRun(ringPage, browser, ringServer, join(args.out, 'ring.png'));
  }
}
if (browser.isConnected()) await browser.close();
finish('rows checks');
