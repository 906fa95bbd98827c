// End-to-end test of the derived series (src/views/counters/derived*.ts):
// in the Counters view's lines, "Add series…" with time in MPI_* per
// process, a moving average of 3 and the sum over processes; the plotted
// values (the chart's data-derived attribute) equal the /series answer for
// the same window passed through the same filters computed here, for the
// whole trace and after a zoom; removing the series empties the chart.
//
//   node e2e/derived_series.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace; PLX_WEB_DIR picks the built viewer (harness.mjs).
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('derived_series.mjs', { out: 'e2e-derived-series-out' });
const { check, fail, finish } = checks();

/** The filters of the test, written out here: trailing mean of n (NaN skipped), sum over rows. */
const avg = (row, n) => row.map((_, b) => {
  const xs = row.slice(Math.max(0, b - n + 1), b + 1).filter((v) => v !== null && !Number.isNaN(v));
  return xs.length ? xs.reduce((a, v) => a + v, 0) / xs.length : null;
});
const sum = (rows) => rows[0].map((_, b) => rows.reduce((a, r) => a + r[b], 0));
const close = (a, b) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= 1e-6 * Math.max(1, Math.abs(b[i])));

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(60000);
  const api = (path) => server.api(`/traces/${trace.id}${path}`);
  const summary = await api('/summary');
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  const url = new URL(server.url);
  url.searchParams.set('trace', trace.id);
  await page.goto(url.toString());
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });

  const chart = page.locator('[data-testid=derived-chart]');
  const shown = () => chart.evaluate((c) => (c.dataset.derived ? JSON.parse(c.dataset.derived) : null));
  /** What the chart shows once every series has values and covers [from, to]. */
  const settled = (from, to) => until(shown, (d) => d && Math.abs(d.from - Math.max(0, Math.floor(from))) <= 1 && Math.abs(d.to - Math.ceil(to)) <= 1 &&
    d.series.length > 0 && d.series.every((s) => s.values !== null), 15000, 100);
  /** The expected plot: /series for the chart's window, averaged over 3 buckets, summed over the processes. */
  const expected = async (d) => {
    const r = await api(`/series?states=${encodeURIComponent('MPI_*')}&unit=process&from=${d.from}&to=${d.to}&buckets=${d.buckets}`);
    assert.equal(r.values.length, summary.processes.length, 'a row per rank');
    return { raw: r, values: sum(r.values.map((row) => avg(row, 3))) };
  };

  await check('add a series: time in MPI per rank, moving average of 3, sum over processes', async () => {
    await page.locator('button[data-view=counters]').click();
    await page.locator('[data-testid=counters-mode-lines]').click();
    await page.locator('[data-testid=derived-source]').selectOption('sp');
    await page.locator('[data-testid=derived-name]').fill('MPI_*');
    await page.locator('[data-testid=derived-filter]').selectOption('avg');
    await page.locator('[data-testid=derived-arg]').fill('3');
    await page.locator('[data-testid=derived-add-filter]').click();
    await page.locator('[data-testid=derived-filter]').selectOption('rate');
    await page.locator('[data-testid=derived-add-filter]').click();
    await page.locator('[data-testid=derived-chip-1]').click(); // the rate chip removed again
    await page.locator('[data-testid=derived-filter]').selectOption('sum');
    await page.locator('[data-testid=derived-add-filter]').click();
    assert.equal(await page.locator('[data-testid=derived-chips]').innerText(), 'avg 3 ×sum ×');
    await page.locator('[data-testid=derived-add]').click();
    const win = await page.evaluate(() => window.parallax.timeline.window());
    const d = await settled(win.from, win.to);
    assert.ok(d, 'the chart shows the series');
    assert.equal(d.series.length, 1);
    assert.match(d.series[0].title, /MPI_\* → avg 3 → sum$/);
    assert.deepEqual(d.series[0].labels, ['sum']);
    const want = await expected(d);
    assert.ok(want.raw.values.flat().some((v) => v > 0), 'the demo ranks spend time in MPI');
    assert.ok(close(d.series[0].values[0], want.values), `plotted ${JSON.stringify(d.series[0].values[0].slice(0, 8))} vs ${JSON.stringify(want.values.slice(0, 8))}`);
  });

  await check('the series follows a zoom', async () => {
    const from = summary.duration * 0.02, to = summary.duration * 0.4;
    await page.evaluate(([f, t]) => window.parallax.timeline.setWindow(f, t), [from, to]);
    const win = await page.evaluate(() => window.parallax.timeline.window());
    const d = await settled(win.from, win.to);
    assert.ok(d, `the chart follows the window ${JSON.stringify(win)}: ${JSON.stringify(await shown())?.slice(0, 200)}`);
    assert.ok(d.to - d.from < summary.duration * 0.5, 'a narrower window');
    const want = await expected(d);
    assert.ok(new Set(want.values.map((v) => v.toFixed(3))).size > 1, 'the zoomed series is not flat');
    assert.ok(close(d.series[0].values[0], want.values), `zoomed: plotted ${JSON.stringify(d.series[0].values[0].slice(0, 8))} vs ${JSON.stringify(want.values.slice(0, 8))}`);
  });

  await check('the series is in the URL; a reload brings it back, following the window', async () => {
    const params = async () => new URLSearchParams(await page.evaluate(() => window.location.search));
    const text = (await until(params, (u) => (u.get('series') ?? '') !== '', 3000)).get('series');
    assert.ok(text && text.includes('MPI_*'), `series=${text}`);
    await page.reload();
    await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    await page.locator('button[data-view=counters]').click();
    await page.locator('[data-testid=counters-mode-lines]').click();
    const win = await page.evaluate(() => window.parallax.timeline.window());
    const d = await settled(win.from, win.to);
    assert.ok(d && d.series.length === 1, 'the series is back after the reload');
    assert.match(d.series[0].title, /MPI_\* → avg 3 → sum$/);
    const want = await expected(d);
    assert.ok(close(d.series[0].values[0], want.values), 'the same values for the window');
  });

  await check('removing the series empties the chart', async () => {
    await page.locator('[data-testid=derived-remove-0]').click();
    const d = await until(shown, (d) => d && d.series.length === 0, 5000, 100);
    assert.equal(d.series.length, 0);
  });

  await check('no page errors', async () => noPageErrors());
} catch (e) {
  fail('derived series checks', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('derived series checks');
