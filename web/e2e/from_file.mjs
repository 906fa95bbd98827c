// End-to-end test of a trace served from its file: the demo trace served by a
// real `parallax serve --memory 1k` (so it is over the budget and served from
// the file, docs/memory.md), opened in headless Chromium.
//
//   node e2e/from_file.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// Checks: the summary says from_file; the viewer opens with one banner that
// says so (and nothing else in the error list: the panels' 501 answers are not
// reported); the timeline draws slices in their legend colours, whole and
// zoomed in; tiles answer as the API says; the index with the timeline
// summary is written in --index-dir and read on the next start.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { checks, demoTraceArgs, launchBrowser, startServer, until } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('from_file.mjs', { out: 'e2e-out/from-file' });
const out = resolve(args.out);
const indexDir = join(out, 'index');
rmSync(indexDir, { recursive: true, force: true });
mkdirSync(indexDir, { recursive: true });
const trace = join(args['trace-dir'], traceFile);
const serveArgs = ['--memory', '1k', '--index-dir', indexDir];

const { check, fail, finish } = checks();
const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b, tol = 12) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

/** Distinct colours of the timeline canvas on a grid of its rows area. */
async function canvasColours(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('#timeline canvas');
    const ctx = canvas.getContext('2d');
    const seen = [];
    for (let y = 40; y < canvas.height; y += 6)
      for (let x = Math.round(canvas.width * 0.2); x < canvas.width; x += 9) {
        const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
        seen.push([r, g, b]);
      }
    return seen;
  });
}

let server = await startServer(args.parallax, [trace], serveArgs);
const browser = await launchBrowser();
try {
  const [entry] = await server.waitAllReady(120000);
  const summary = await server.api(`/traces/${entry.id}/summary`);

  await check('the summary says the trace is served from its file', async () => {
    assert.equal(summary.from_file, true);
    assert.ok(summary.threads.length > 0 && summary.slices > 0, JSON.stringify(summary).slice(0, 300));
    const ask = (path) => fetch(`${server.origin}/api/v1/traces/${entry.id}/${path}`,
                                { headers: { Authorization: `Bearer ${server.token}` } });
    const replay = await ask('at?t=0');
    assert.equal(replay.status, 501);
    assert.match((await replay.json()).error, /served from its file/);
    // The analyses come after the timeline: 503 with Retry-After until made.
    let waits = await ask('waits');
    for (let i = 0; i < 600 && waits.status === 503; ++i) {
      assert.equal(waits.headers.get('retry-after'), '1');
      await new Promise((r) => setTimeout(r, 100));
      waits = await ask('waits');
    }
    assert.equal(waits.status, 200);
    assert.ok('total' in (await waits.json()));
  });

  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));

  await check('the viewer opens with one banner saying so, and nothing else wrong', async () => {
    await page.goto(server.url);
    await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    // Panels that ask what the file cannot tell get 501s; give them time.
    await page.waitForTimeout(1500);
    const errors = await page.evaluate(() => window.parallax.errors());
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /served from its file/);
    assert.deepEqual(pageErrors, []);
  });

  // The colours the viewer draws (recorded, else its palette's).
  const legend = (await page.evaluate(() => window.parallax.stateColors())).map(hexToRgb);
  const stateColoured = (colours) => colours.filter((c) => legend.some((l) => near(c, l))).length;

  await check('the timeline draws slices in their legend colours, whole and zoomed in', async () => {
    const whole = await until(() => canvasColours(page), (c) => stateColoured(c) > 50, 10000);
    assert.ok(stateColoured(whole) > 50, `state-coloured points: ${stateColoured(whole)}`);
    const canvas = page.locator('#timeline canvas').first();
    await canvas.click({ position: { x: 600, y: 10 } });
    const win = () => page.evaluate(() => window.parallax.timeline.window());
    const w0 = await win();
    for (let i = 0; i < 12; ++i) await page.keyboard.press('w');
    const w1 = await until(win, (w) => w.to - w.from < (w0.to - w0.from) / 4);
    assert.ok(w1.to - w1.from < (w0.to - w0.from) / 4, JSON.stringify([w0, w1]));
    const zoomed = await until(() => canvasColours(page), (c) => stateColoured(c) > 50, 10000);
    assert.ok(stateColoured(zoomed) > 50, `zoomed in: state-coloured points: ${stateColoured(zoomed)}`);
  });

  await check('the next start reads the timeline summary from the index', async () => {
    const indexes = readdirSync(indexDir).filter((f) => f.endsWith('.plxi'));
    assert.equal(indexes.length, 1);
    const written = statSync(join(indexDir, indexes[0])).mtimeMs;
    server.proc.kill('SIGINT');
    await new Promise((r) => server.proc.on('exit', r));
    server = await startServer(args.parallax, [trace], serveArgs);
    await server.waitAllReady(60000);
    // Read, not written again (a rebuilt summary would be kept anew).
    assert.ok(!server.log.some((l) => l.includes('warning')), server.log.join('\n'));
    assert.equal(statSync(join(indexDir, indexes[0])).mtimeMs, written);
    const again = await server.api(`/traces/${entry.id}/summary`);
    assert.deepEqual(again.threads.map((t) => t.max_depth), summary.threads.map((t) => t.max_depth));
  });
} catch (e) {
  fail('from-file end-to-end run', e);
} finally {
  await browser.close();
  server.proc.kill('SIGINT');
}
finish('from-file end-to-end checks');
