// End-to-end tests of what the viewer tells in words and takes as keys: the
// details of a short slice give its begin and end precisely enough to differ
// (src/base/format.ts); "?" shows the keys (src/widgets/help.ts); shift+wheel
// pans (src/views/timeline/input.ts); a diagnostics list cut at the limit
// says of how many (src/views/diagnostics); the matrix's mode buttons show
// which is on (aria-pressed, styled in src/app/style.css); states that differ
// get colours that differ (src/views/paradigm/palette.ts); hovering a slice
// tells what it is (src/views/timeline/hover.ts).
// A real `parallax serve` over the demo trace, headless Chromium.
//
//   node e2e/legibility.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it); PLX_WEB_DIR picks
// the built viewer to serve (harness.mjs).
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, selectSlice, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('legibility.mjs', { out: 'e2e-legibility-out' });

const { check, fail, finish } = checks();
const UNIT_NS = { s: 1e9, ms: 1e6, 'µs': 1e3, ns: 1 };

/** '1.500820650 s' → 1500820650 (ns). */
function parseShown(text) {
  const m = text.trim().match(/^(-?[\d.]+) (s|ms|µs|ns)$/);
  assert.ok(m, `a time with a unit: ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT_NS[m[2]];
}

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(120000);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  const canvas = page.locator('#timeline canvas').first();

  await check('the details of a short slice show begin and end to the ns, and they differ', async () => {
    // The shortest MPI slice that is not instantaneous: its begin and end lie
    // microseconds apart at tens of milliseconds into the trace.
    const found = await server.api(`/traces/${trace.id}/search?q=MPI&limit=5000`);
    const slices = found.slices.filter((s) => s.end > s.begin);
    assert.ok(slices.length > 0, 'the demo trace has MPI slices');
    const s = slices.reduce((a, b) => (b.end - b.begin < a.end - a.begin ? b : a));
    const duration = s.end - s.begin;
    assert.ok(duration < 100_000, `a slice under 100 µs (${duration} ns)`);
    await page.evaluate(([from, to]) => window.parallax.timeline.setWindow(from, to),
                        [s.begin - duration, s.end + duration]);
    const beginText = () => page.evaluate(
      () => document.querySelector('[data-testid=details] dd[data-field=begin]')?.textContent ?? '');
    const selected = await selectSlice(page, s);
    assert.equal(selected, s.id, 'the short slice is selected');
    await until(beginText, (n) => n !== '', 3000);
    const field = (f) => page.locator(`[data-testid=details] dd[data-field=${f}]`).innerText();
    const [begin, end] = [await field('begin'), await field('end')];
    assert.notEqual(begin, end, 'begin and end differ');
    // Shown to the ns: each reads back as the slice's own time.
    assert.ok(Math.abs(parseShown(begin) - s.begin) < 0.5, `begin ${begin} is ${s.begin} ns`);
    assert.ok(Math.abs(parseShown(end) - s.end) < 0.5, `end ${end} is ${s.end} ns`);
    assert.equal(begin.split(' ')[1], end.split(' ')[1], 'in one unit');
  });

  await check('hovering a slice shows a tooltip: its state, duration, begin and end as the details give them', async () => {
    // The slice selected above, under the pointer at its middle.
    const sel = await page.evaluate(() => window.parallax.timeline.selected());
    const d = await server.api(`/traces/${trace.id}/details?kind=slice&id=${sel}`);
    const p = await page.evaluate((s) => {
      const t = window.parallax.timeline;
      return { x: (t.timeToX(s.begin) + t.timeToX(s.end)) / 2, y: t.laneY(s.row, s.depth) };
    }, d);
    await canvas.hover({ position: p });
    const tip = page.locator('[data-testid=timeline-tooltip]');
    assert.ok(await until(() => tip.isVisible(), (v) => v, 3000), 'the tooltip shows');
    const lines = (await canvas.getAttribute('data-hover')).split('\n');
    assert.equal(lines[0].split(' · ')[0], d.name, 'the state');
    const [begin, end] = lines[1].split(' – ');
    const field = (f) => page.locator(`[data-testid=details] dd[data-field=${f}]`).innerText();
    assert.equal(begin, await field('begin'), 'begin as in the details');
    assert.equal(end, await field('end'), 'end as in the details');
    assert.ok(Math.abs(parseShown(lines[0].split(' · ')[1]) - (d.end - d.begin)) <= Math.max(1, (d.end - d.begin) * 1e-3),
      `duration ${lines[0]} is ${d.end - d.begin} ns`);
    assert.equal(await tip.innerText(), lines.join('\n'), 'the tooltip shows those lines');
    // Off the bars (the label column's edge of the ruler), it goes away.
    await canvas.hover({ position: { x: 300, y: 5 } });
    await until(() => tip.isVisible(), (v) => !v, 3000);
    assert.equal(await tip.isVisible(), false, 'hidden over nothing');
    assert.equal(await canvas.getAttribute('data-hover'), '');
  });

  await check('? shows the keys and gestures; Escape or ? closes it, keeping the selection', async () => {
    const help = page.locator('[data-testid=help]');
    const selected = await page.evaluate(() => window.parallax.timeline.selected());
    assert.ok(selected >= 0, 'a slice is selected (the check before)');
    assert.equal(await help.isVisible(), false, 'closed at first');
    await page.keyboard.press('?');
    await help.waitFor({ state: 'visible', timeout: 3000 });
    const text = await help.innerText();
    for (const k of ['W / S', 'A / D', 'Shift+wheel', 'Alt+drag', 'Space', 'Escape']) {
      assert.ok(text.includes(k), `the help lists ${k}`);
    }
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden', timeout: 3000 });
    assert.equal(await page.evaluate(() => window.parallax.timeline.selected()), selected,
                 'the Escape that closed the help left the selection');
    await page.keyboard.press('?');
    await help.waitFor({ state: 'visible', timeout: 3000 });
    await page.keyboard.press('?');
    await help.waitFor({ state: 'hidden', timeout: 3000 });
    await page.locator('[data-testid=help-button]').click();
    await help.waitFor({ state: 'visible', timeout: 3000 });
    await page.locator('[data-testid=help-close]').click();
    await help.waitFor({ state: 'hidden', timeout: 3000 });
  });

  await check('shift+wheel pans the timeline sideways, keeping the zoom', async () => {
    const win = () => page.evaluate(() => window.parallax.timeline.window());
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + 700, box.y + 150);
    const w0 = await win();
    await page.keyboard.down('Shift');
    await page.mouse.wheel(0, 200);
    await page.keyboard.up('Shift');
    const w1 = await until(win, (w) => w.from !== w0.from);
    assert.ok(w1.from > w0.from, `shift+wheel down pans to later times: ${JSON.stringify([w0, w1])}`);
    assert.ok(Math.abs((w1.to - w1.from) - (w0.to - w0.from)) <= (w0.to - w0.from) * 1e-6, 'the width is kept');
  });

  await check('a diagnostics list cut at the limit says of how many: Late senders (200 of N)', async () => {
    // The totals as the API gives them: /diagnostics lists the 200 longest
    // waits of all kinds, /waits counts them all (and lists them all here).
    const d = await server.api(`/traces/${trace.id}/diagnostics?limit=200`);
    const listed = d.findings.filter((f) => f.kind === 'late-sender').length;
    const { total } = await server.api(`/traces/${trace.id}/waits?limit=0`);
    const all = await server.api(`/traces/${trace.id}/waits?limit=${total.count}`);
    const lateSenders = all.longest.filter((w) => w.kind === 'late-sender').length;
    assert.ok(lateSenders > listed, `the demo has more late senders (${lateSenders}) than listed (${listed})`);
    await page.locator('button[data-view=diagnostics]').click();
    const group = page.locator('[data-testid=finding-group][data-kind=late-sender]');
    await group.waitFor({ timeout: 20000 });
    const title = await group.locator('[data-testid=finding-group-title]').innerText();
    assert.ok(title.endsWith(`Late senders (${listed} of ${lateSenders})`), `heading: ${JSON.stringify(title)}`);
    assert.equal(await group.getAttribute('data-cut'), 'true');
    assert.equal(await group.locator('[data-testid=finding]').count(), listed);
  });

  await check('the matrix mode buttons show which kind and metric are on', async () => {
    await page.locator('button[data-view=matrix]').click();
    // The matrix of the zoomed window the checks above left (it may hold no message).
    await page.locator('[data-testid=panel][data-scope]:not([data-pending])').waitFor({ timeout: 10000 });
    const look = (id) => page.locator(`[data-testid=${id}]`).evaluate((b) => {
      const s = getComputedStyle(b);
      return { pressed: b.getAttribute('aria-pressed'), background: s.backgroundColor, border: s.borderTopColor };
    });
    const differs = (a, b) => a.background !== b.background && a.border !== b.border;
    assert.equal((await look('kind-messages')).pressed, 'true');
    assert.equal((await look('kind-rma')).pressed, 'false');
    assert.ok(differs(await look('kind-messages'), await look('kind-rma')), 'the chosen kind looks different');
    await page.locator('[data-testid=metric-bytes]').click();
    const [bytes, count] = [await look('metric-bytes'), await look('metric-count')];
    assert.equal(bytes.pressed, 'true');
    assert.equal(count.pressed, 'false');
    assert.ok(differs(bytes, count), `the chosen metric looks different: ${JSON.stringify([bytes, count])}`);
    await page.locator('[data-testid=metric-count]').click();
    assert.equal((await look('metric-count')).pressed, 'true');
    assert.equal((await look('metric-bytes')).background, count.background, 'unchosen again, it looks as before');
  });

  await check('states that differ look different: the legend swatches and the drawn colours', async () => {
    // MPI_Init, MPI_Comm_*, MPI_Finalize and the recorder's state once shared one grey.
    const legend = await page.$$eval('[data-testid=legend] li[data-state]', (items) =>
      items.map((li) => ({ name: li.dataset.state, color: li.querySelector('input[type=color]').value })));
    const drawn = await page.evaluate(() => window.parallax.stateColors());
    const summary = await page.evaluate(() => window.parallax.summary);
    assert.ok(legend.length >= 6, `the demo has ${legend.length} states`);
    for (const l of legend) assert.equal(l.color, drawn[summary.states.find((s) => s.name === l.name).index], l.name);
    const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    for (let i = 0; i < legend.length; i++)
      for (let j = i + 1; j < legend.length; j++) {
        const d = Math.hypot(...rgb(legend[i].color).map((v, k) => v - rgb(legend[j].color)[k]));
        assert.ok(d > 40, `${legend[i].name} ${legend[i].color} and ${legend[j].name} ${legend[j].color} differ by only ${d.toFixed(0)}`);
      }
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('legibility checks');
