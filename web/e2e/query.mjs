// End-to-end tests of the Query tab (src/views/query/): a statement's rows in
// the table equal /query's and, for the time per state, /stats'; a bad
// statement's error in one red line; a clicked row selects its slice in the
// timeline and the details; the result's slices pinned as the highlight and
// unpinned; a slow statement cancelled on the server, the tab usable again.
// A real `parallax serve` over the demo trace, headless Chromium.
//
//   node e2e/query.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it); PLX_WEB_DIR picks
// the built viewer to serve (harness.mjs).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('query.mjs', { out: 'e2e-query-out' });
const { check, fail, finish } = checks();

const STATES_SQL = 'SELECT state, count(*) AS n, sum(dur) AS total FROM slices GROUP BY state ORDER BY total DESC';
const SLOW_RECEIVES_SQL = `SELECT s.id, s.rank, s.dur, m.send_rank AS sender, m.tag, m.bytes, m.latency
FROM slices s JOIN messages m ON m.recv_slice = s.id
WHERE s.state = 'MPI_Recv'
ORDER BY s.dur DESC, s.id LIMIT 10`;
const ENDLESS_SQL = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n) SELECT count(*) FROM n';

/** A cell as the tab prints it (query_format.ts formatCell): integers whole, NULL a dash. */
const cellText = (v) => (v === null ? '—' : typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(6).replace(/0+$/, '').replace(/\.$/, '') : String(v));

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(120000);
  const api = (path) => server.api(`/traces/${trace.id}${path}`);
  const sqlApi = (sql) => api(`/query?sql=${encodeURIComponent(sql)}`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  const selected = () => page.evaluate(() => window.parallax.timeline.selected());
  const highlighted = () => page.evaluate(() => window.parallax.timeline.highlighted());
  const info = page.locator('[data-testid=query-info]');
  const runButton = page.locator('[data-testid=query-run]');
  const cancelButton = page.locator('[data-testid=query-cancel]');
  const pin = page.locator('[data-testid=query-pin]');
  const errorLine = page.locator('[data-testid=panel] [data-testid=view-error]');

  /** The table as the page shows it: header and cell texts. */
  const table = () => page.evaluate(() => {
    const t = document.querySelector('[data-testid=query-table]');
    if (!t) return null;
    return {
      head: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
      slices: [...t.querySelectorAll('tbody tr')].map((tr) => tr.dataset.slice ?? null),
    };
  });

  /** Types `sql` and runs it with Ctrl+Enter (`viaButton`: the Run button); resolves when the run ended. */
  async function run(sql, viaButton = false) {
    const area = page.locator('[data-testid=query-sql]');
    await area.fill(sql);
    const before = requests.filter((u) => u.includes('/query?')).length;
    if (viaButton) await runButton.click();
    else await area.press('Control+Enter');
    await until(() => requests.filter((u) => u.includes('/query?')).length, (n) => n > before, 5000);
    await page.waitForFunction(() => {
      const b = document.querySelector('[data-testid=query-run]');
      return b && !b.disabled;
    }, null, { timeout: 20000 });
  }

  await check('the Query tab runs the time per state: its rows equal /query and /stats', async () => {
    await page.locator('button[data-view=query]').click();
    await page.locator('[data-testid=query-sql]').waitFor({ timeout: 5000 });
    await run(STATES_SQL, true);
    const shown = await until(table, (t) => t !== null && t.rows.length > 0, 5000);
    assert.ok(shown, 'a table is shown');
    const want = await sqlApi(STATES_SQL);
    assert.deepEqual(shown.head, want.columns);
    assert.deepEqual(shown.rows, want.rows.map((r) => r.map(cellText)));
    assert.match(await info.innerText(), new RegExp(`^${want.rows.length} rows in [\\d.]+ ms$`));
    const stats = await api('/stats');
    const fromStats = stats.rows.filter((r) => r.count > 0).map((r) => [r.name, String(r.count), String(r.total)]);
    const key = (r) => r[0];
    assert.deepEqual([...shown.rows].sort((a, b) => key(a).localeCompare(key(b))), fromStats.sort((a, b) => key(a).localeCompare(key(b))),
                     'count and total per state equal /stats');
    // Numbers are right-aligned, text is not.
    const align = await page.evaluate(() => [...document.querySelectorAll('[data-testid=query-table] tbody tr:first-child td')].map((td) => getComputedStyle(td).textAlign));
    assert.deepEqual(align.slice(1), ['right', 'right']);
    assert.notEqual(align[0], 'right');
    writeFileSync(join(args.out, 'states.png'), await page.screenshot());
  });

  await check('the SQL (in localStorage) and the result stay across tab switches', async () => {
    await page.locator('button[data-view=stats]').click();
    await page.locator('[data-testid=stats-table]').waitFor({ timeout: 5000 });
    await page.locator('button[data-view=query]').click();
    assert.equal(await page.locator('[data-testid=query-sql]').inputValue(), STATES_SQL);
    assert.ok((await table())?.rows.length > 0, 'the result is shown again');
    assert.equal(await page.evaluate(() => localStorage.getItem('parallax.query.sql')), STATES_SQL);
  });

  await check('a bad statement shows the server\'s one-line error in red, and no page error', async () => {
    // Typed key by key: the timeline's and the replay bar's keys (w a s d, space, . ,) stay out of it.
    const area = page.locator('[data-testid=query-sql]');
    const view = () => page.evaluate(() => ({ window: window.parallax.timeline.window(), playing: window.parallax.replay.state().playing, cursor: window.parallax.replay.time() }));
    const before = await view();
    await area.fill('');
    await area.pressSequentially('SELECT nope FROM slices ');
    await area.press('Backspace');
    assert.equal(await area.inputValue(), 'SELECT nope FROM slices');
    assert.deepEqual(await view(), before, 'typing moved neither the window nor the replay cursor');
    await run('SELECT nope FROM slices');
    await errorLine.waitFor({ timeout: 5000 });
    assert.equal(await errorLine.innerText(), 'query: no such column: nope');
    assert.equal(await errorLine.evaluate((e) => getComputedStyle(e).color), 'rgb(198, 40, 40)');
    assert.equal(await table(), null, 'no table under the error');
    // The user's SQL is the panel's to answer: the page's error banner
    // (engine/client.ts) stays out of it.
    assert.equal(await page.locator('[data-testid=error] li').count(), 0, 'no error banner');
  });

  let receives;
  await check('clicking a row of the 10 slowest receives selects its slice in the timeline and the details', async () => {
    await page.locator('[data-testid=query-examples]').selectOption('slow-receives');
    assert.equal(await page.locator('[data-testid=query-sql]').inputValue(), SLOW_RECEIVES_SQL);
    await run(SLOW_RECEIVES_SQL, true);
    receives = await sqlApi(SLOW_RECEIVES_SQL);
    assert.deepEqual(receives.slice_columns, [0], 'the id column holds slice ids');
    const shown = await until(table, (t) => t !== null && t.rows.length === receives.rows.length, 5000);
    assert.deepEqual(shown.rows, receives.rows.map((r) => r.map(cellText)));
    const id = receives.rows[0][0];
    assert.equal(shown.slices[0], String(id));
    await page.locator('[data-testid=query-row]').first().locator('td').nth(2).click();
    assert.equal(await until(selected, (s) => s === id, 5000), id, 'the row\'s slice is selected');
    assert.equal(await page.locator('[data-testid=query-row]').first().getAttribute('aria-selected'), 'true');
    const details = page.locator('[data-testid=details]');
    await page.waitForFunction((id) => {
      const d = document.querySelector('[data-testid=details]');
      return d?.dataset.state === 'shown' && d.dataset.kind === 'slice' && d.textContent.includes('MPI_Recv');
    }, id, { timeout: 5000 });
    assert.ok((await details.innerText()).includes('MPI_Recv'));
    const d = await api(`/details?kind=slice&id=${id}`);
    const w = await page.evaluate(() => window.parallax.timeline.window());
    assert.ok(w.from <= d.begin && d.end <= w.to, `the slice [${d.begin}, ${d.end}] is in the window ${JSON.stringify(w)}`);
    assert.ok(w.to - w.from < 10 * (d.end - d.begin) + 1e6, 'zoomed to the slice');
    writeFileSync(join(args.out, 'slow-receives.png'), await page.screenshot());
  });

  await check("Pin as highlight blinks the result's slices; pressing again or a new run clears it", async () => {
    const ids = receives.rows.map((r) => r[0]).sort((a, b) => a - b);
    await pin.click();
    const got = await until(highlighted, (h) => h.length === ids.length, 5000);
    assert.deepEqual([...got].sort((a, b) => a - b), ids);
    assert.equal(await pin.getAttribute('aria-pressed'), 'true');
    await pin.click();
    assert.deepEqual(await until(highlighted, (h) => h.length === 0, 3000), []);
    assert.equal(await pin.getAttribute('aria-pressed'), 'false');
    await pin.click();
    await until(highlighted, (h) => h.length === ids.length, 5000);
    await run(SLOW_RECEIVES_SQL);
    assert.deepEqual(await until(highlighted, (h) => h.length === 0, 3000), [], 'a new run clears the pin');
  });

  await check('Cancel stops a slow statement on the server: "query: cancelled", and the tab runs again', async () => {
    const area = page.locator('[data-testid=query-sql]');
    await area.fill(ENDLESS_SQL);
    await runButton.click();
    await cancelButton.waitFor({ state: 'visible', timeout: 5000 });
    assert.equal(await runButton.isDisabled(), true, 'Run is disabled while it runs');
    const runUrl = await until(() => requests.findLast((u) => u.includes('/query?')), (u) => u?.includes('WITH%20RECURSIVE'), 5000);
    const runId = new URL(runUrl).searchParams.get('id');
    assert.ok(runId, 'the run is named');
    await page.waitForTimeout(300); // let it start on the server
    const t0 = Date.now();
    await cancelButton.click();
    await errorLine.waitFor({ timeout: 5000 });
    assert.equal(await errorLine.innerText(), 'query: cancelled');
    assert.equal(await runButton.isDisabled(), false, 'Run is usable again');
    assert.equal(await cancelButton.isVisible(), false);
    const cancels = await until(() => requests.filter((u) => u.includes('/query-cancel?')), (c) => c.length > 0, 3000);
    assert.ok(cancels.length > 0, 'a /query-cancel was sent');
    assert.equal(new URL(cancels[0]).searchParams.get('id'), runId, '/query-cancel names the run');
    // The server is free again well before the statement's 10 s limit.
    await run('SELECT 1 AS one', true);
    const shown = await until(table, (t) => t?.rows.length === 1, 5000);
    assert.deepEqual(shown?.rows, [['1']]);
    const took = Date.now() - t0;
    assert.ok(took < 5000, `the next statement answered ${took} ms after the cancel`);
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('query checks');
