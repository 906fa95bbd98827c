// End-to-end tests of saved views (src/app/view_url.ts, view_sync.ts,
// named_views.ts) and trace switching (src/widgets/trace_picker.ts): the page
// URL follows the view (window, selection, tab, hidden states, folded
// groups); reloading it, or opening it in a fresh browser, shows the same
// view; a named view is saved, opened and deleted; the top bar's picker
// lists the served traces and opens another, also from a URL naming a trace
// not served.
// A real `parallax serve` over the demo trace and a copy of it, headless Chromium.
//
//   node e2e/saved_views.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it); PLX_WEB_DIR picks
// the built viewer to serve (harness.mjs).
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, selectSlice, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('saved_views.mjs', { out: 'e2e-saved-views-out' });
const { check, fail, finish } = checks();

// A second trace to switch to: the demo trace under another name.
const copy = join(args.out, 'second.plx');
copyFileSync(join(args['trace-dir'], traceFile), copy);
const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile), copy]);
const browser = await launchBrowser();
let page;
try {
  const traces = await server.waitAllReady(120000);
  assert.equal(traces.length, 2, 'two traces served');
  const [first, second] = traces;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  const ready = () => page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  await page.goto(server.url);
  await ready();
  const canvas = page.locator('#timeline canvas').first();
  const query = () => page.evaluate(() => window.location.search);
  const win = () => page.evaluate(() => window.parallax.timeline.window());
  const selected = () => page.evaluate(() => window.parallax.timeline.selected());
  const summary = await server.api(`/traces/${first.id}/summary`);

  /** What the view looks like, as the page shows it. */
  const viewNow = () => page.evaluate(() => ({
    window: window.parallax.timeline.window(),
    selected: window.parallax.timeline.selected(),
    tab: document.querySelector('[data-testid=tabs] .selected')?.getAttribute('data-view'),
    hidden: [...document.querySelectorAll('[data-testid=legend] [data-state]')]
      .filter((li) => !li.querySelector('input[type=checkbox]').checked).map((li) => li.getAttribute('data-state')),
    rowYs: window.parallax.summary.threads.map((t) => window.parallax.timeline.rowY(t.index)),
    trace: document.querySelector('[data-testid=trace-name]').textContent,
  }));

  await check('the trace picker lists both traces, the first chosen', async () => {
    const picker = page.locator('[data-testid=trace-picker]');
    assert.equal(await picker.isVisible(), true);
    assert.deepEqual(await picker.locator('option').evaluateAll((os) => os.map((o) => o.value)), [first.id, second.id]);
    assert.equal(await picker.inputValue(), first.id);
    assert.equal(new URLSearchParams(await until(query, (q) => q.includes('trace='))).get('trace'), first.id);
  });

  let saved; // the view and its URL
  await check('the URL follows the window, selection, tab, hidden states and folded groups', async () => {
    // A slice in the middle of the trace, zoomed to and clicked.
    const found = await server.api(`/traces/${first.id}/search?q=MPI_Recv&limit=5000`);
    const s = found.slices.filter((x) => x.end - x.begin > 20000)[10];
    const span = s.end - s.begin;
    await page.evaluate(([a, b]) => window.parallax.timeline.setWindow(a, b), [s.begin - span, s.end + span]);
    assert.equal(await selectSlice(page, s), s.id, 'the slice is selected');
    // The Statistics tab, MPI_Send hidden, the last process folded.
    await page.locator('button[data-view=stats]').click();
    await page.locator('[data-testid=legend] [data-state="MPI_Send"] input[type=checkbox]').uncheck();
    const lastProcess = summary.processes.at(-1);
    const headerY = await page.evaluate((row) => window.parallax.timeline.rowY(row) - 8, lastProcess.threads[0]);
    await canvas.click({ position: { x: 40, y: headerY } });
    const url = await until(query, (q) => {
      const u = new URLSearchParams(q);
      return u.get('sel') === `s${s.id}` && u.get('tab') === 'stats' && u.getAll('hide').includes('MPI_Send') &&
        u.getAll('fold').includes(`process:${lastProcess.index}`);
    }, 3000);
    const u = new URLSearchParams(url);
    const w = await win();
    assert.equal(u.get('trace'), first.id);
    assert.equal(Number(u.get('from')), Math.floor(w.from));
    assert.equal(Number(u.get('to')), Math.ceil(w.to));
    assert.equal(u.get('sel'), `s${s.id}`, url);
    assert.ok(u.get('token'), 'the token stays');
    saved = { url, view: await viewNow() };
    assert.deepEqual(saved.view.hidden, ['MPI_Send']);
  });

  const sameView = (got, want) => {
    assert.ok(Math.abs(got.window.from - want.window.from) <= 1 && Math.abs(got.window.to - want.window.to) <= 1,
              `window ${JSON.stringify(got.window)} ~ ${JSON.stringify(want.window)}`);
    assert.equal(got.selected, want.selected, 'selection');
    assert.equal(got.tab, want.tab, 'tab');
    assert.deepEqual(got.hidden, want.hidden, 'hidden states');
    assert.deepEqual(got.rowYs, want.rowYs, 'rows (folded groups)');
    assert.equal(got.trace, want.trace, 'trace');
  };

  await check('reloading the page shows the same view', async () => {
    await page.reload();
    await ready();
    const got = await until(viewNow, (v) => v.selected === saved.view.selected, 5000);
    sameView(got, saved.view);
  });

  await check('the copied URL opens the same view in a fresh browser (no saved state)', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const other = await fresh.newPage();
    await other.goto(`${server.origin}/${saved.url}`);
    await other.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    const swap = page;
    page = other;
    try {
      const got = await until(viewNow, (v) => v.selected === saved.view.selected, 5000);
      sameView(got, saved.view);
    } finally {
      page = swap;
      await fresh.close();
    }
  });

  await check('a selected message is in the URL too', async () => {
    const all = await server.api(`/traces/${first.id}/lamport?limit=100`);
    const m = all.messages[5];
    const u = new URLSearchParams(saved.url);
    u.set('sel', `m${m.id}`);
    await page.goto(`${server.origin}/?${u}`);
    await ready();
    const got = await until(() => page.evaluate(() => window.parallax.timeline.selectedMessage()), (x) => x !== null, 5000);
    assert.equal(got?.id, m.id);
    const q = await until(query, (x) => new URLSearchParams(x).get('sel') === `m${m.id}`, 3000);
    assert.equal(new URLSearchParams(q).get('sel'), `m${m.id}`, 'the message stays in the URL');
  });

  await check('a named view is saved, listed after a reload, opened, and deleted', async () => {
    await page.goto(`${server.origin}/${saved.url}`);
    await ready();
    await until(selected, (id) => id === saved.view.selected, 5000);
    await page.locator('[data-testid=views-button]').click();
    await page.locator('[data-testid=views-name]').fill('the slow receive');
    await page.locator('[data-testid=views-save]').click();
    // Elsewhere: the whole trace, nothing selected, another tab, all states shown.
    await page.keyboard.press('Escape');
    await page.locator('button[data-view=diagnostics]').click();
    await page.locator('[data-testid=legend] [data-state="MPI_Send"] input[type=checkbox]').check();
    await page.keyboard.press('f');
    await until(query, (q) => new URLSearchParams(q).get('tab') === 'diagnostics' && !new URLSearchParams(q).has('sel'), 3000);
    await page.reload();
    await ready();
    assert.notEqual((await viewNow()).tab, saved.view.tab, 'the page shows another view now');
    await page.locator('[data-testid=views-button]').click();
    const item = page.locator('[data-testid=views-item][data-name="the slow receive"]');
    await item.waitFor({ timeout: 3000 });
    await item.click();
    const got = await until(viewNow, (v) => v.selected === saved.view.selected, 5000);
    sameView(got, saved.view);
    const u = new URLSearchParams(await until(query, (q) => new URLSearchParams(q).get('sel') === `s${saved.view.selected}`, 3000));
    assert.equal(u.get('tab'), saved.view.tab, 'the URL follows the opened view');
    await page.locator('[data-testid=views-button]').click();
    await page.locator('[data-testid=views-remove][data-name="the slow receive"]').click();
    assert.equal(await page.locator('[data-testid=views-item]').count(), 0, 'deleted');
    await page.reload();
    await ready();
    await page.locator('[data-testid=views-button]').click();
    assert.equal(await page.locator('[data-testid=views-item]').count(), 0, 'still deleted after a reload');
  });

  await check('a URL naming a trace not served says so and offers the served ones', async () => {
    const u = new URLSearchParams(await query());
    u.set('trace', 'no-such-trace');
    await page.goto(`${server.origin}/?${u}`);
    const picker = page.locator('[data-testid=trace-picker]');
    await picker.waitFor({ state: 'visible', timeout: 10000 });
    const errors = await page.evaluate(() => window.parallax.errors());
    assert.ok(errors.some((e) => e.includes("'no-such-trace' is not served")), JSON.stringify(errors));
    assert.deepEqual(await picker.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['', first.id, second.id]);
    await picker.selectOption(first.id);
    await page.waitForURL((x) => x.searchParams.get('trace') === first.id, { timeout: 10000 });
    await ready();
    assert.equal(await page.locator('[data-testid=trace-name]').textContent(), first.name);
  });

  await check('picking the other trace opens it with the whole trace shown', async () => {
    await page.locator('[data-testid=trace-picker]').selectOption(second.id);
    await page.waitForURL((u) => u.searchParams.get('trace') === second.id, { timeout: 10000 });
    await ready();
    assert.equal(await page.locator('[data-testid=trace-name]').textContent(), second.name);
    assert.equal(await page.locator('[data-testid=trace-picker]').inputValue(), second.id);
    const s2 = await server.api(`/traces/${second.id}/summary`);
    const w = await win();
    assert.ok(w.from <= 0 && w.to >= s2.duration, `the whole trace: ${JSON.stringify(w)}`);
    assert.equal(await selected(), -1, 'nothing selected');
    const u = new URLSearchParams(await query());
    assert.ok(u.get('token'), 'the token stays');
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('saved-views checks');
