// End-to-end test of the timeline's waits overlay (src/views/timeline/
// waits_overlay*.ts): the toolbar's "waits" toggle turns it on; the canvas's
// hooks (data-waits-shown, -matched, -window) then give the answer of
// /waits-window asked with the window and rows they name, which is the
// window on screen, again after the window moves; the pixels where a wait
// is drawn, and its row's imbalance strip in the label column, differ from
// the overlay-off frame, and come back when it is turned off.
// A real `parallax serve` over the demo trace, headless Chromium.
//
//   node e2e/waits_overlay.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it); PLX_WEB_DIR picks
// the built viewer to serve (harness.mjs). The screenshot with the overlay
// on goes to OUT/waits-overlay.png.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('waits_overlay.mjs', { out: 'e2e-waits-overlay-out' });
const { check, fail, finish } = checks();
const STRIP_WIDTH = 40; // waits_overlay_paint.ts

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
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
  const toggle = page.locator('[data-testid=overlay-waits]');
  const hooks = () => canvas.evaluate((c) => ({
    shown: c.dataset.waitsShown, matched: c.dataset.waitsMatched, window: c.dataset.waitsWindow, covers: c.dataset.tileCovers,
  }));
  const frames = () => page.evaluate(() => window.parallax.timeline.frames());
  const shown = () => page.evaluate(() => window.parallax.timeline.window());
  const setWindow = (from, to) => page.evaluate(([f, t]) => window.parallax.timeline.setWindow(f, t), [from, to]);
  /** The canvas's pixels at CSS points, as [r, g, b]. */
  const pixels = (points) => canvas.evaluate((c, pts) => {
    const dpr = c.width / c.clientWidth;
    const ctx = c.getContext('2d');
    return pts.map(([x, y]) => [...ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data.slice(0, 3)]);
  }, points);
  /** Waits until the timeline drew its tile for the window and two more frames. */
  const settled = async () => {
    await until(hooks, (h) => h.covers === '1', 15000);
    const f = await frames();
    await until(frames, (n) => n >= f + 2, 3000, 30);
    await page.waitForTimeout(100);
  };
  /** The hooks once they name the window on screen; the window shown. */
  const hooksFor = async () => {
    const want = await shown();
    const key = (w) => `${Math.floor(w.from)},${Math.ceil(w.to)},`;
    const h = await until(hooks, (h) => h.shown !== undefined && (h.window ?? '').startsWith(key(want)), 15000);
    assert.ok((h.window ?? '').startsWith(key(want)), `the hooks name the window ${JSON.stringify(want)}: ${JSON.stringify(h)}`);
    return h;
  };
  /** /waits-window for the window and rows a data-waits-window names. */
  const answerFor = (hookWindow) => {
    const [from, to, rows] = hookWindow.split(',');
    const q = new URLSearchParams({ from, to, limit: '2000' });
    if (rows !== '*') q.set('rows', rows.split(' ').join(','));
    return api(`/waits-window?${q}`);
  };

  // The longest wait whose row is on screen, shown over a good part of the plot.
  const whole = await api('/waits-window?limit=200');
  assert.ok(whole.matched > 0, 'the demo trace has waits');
  const onScreen = await page.evaluate((ws) => ws.map((w) => window.parallax.timeline.rowY(w.row)), whole.waits);
  const wait = whole.waits.find((w, i) => onScreen[i] > 40 && onScreen[i] < 800 && w.end - w.begin > 0);
  assert.ok(wait, 'a wait on a row on screen');
  const span = wait.end - wait.begin;
  await setWindow(wait.begin - span, wait.end + span);
  await settled();
  const at = await page.evaluate((w) => {
    const t = window.parallax.timeline;
    return { x: (Math.max(t.timeToX(w.begin), 200) + t.timeToX(w.end)) / 2, y: t.laneY(w.row, w.slice.depth), top: t.rowY(w.row) };
  }, wait);
  const label = 200 - STRIP_WIDTH - 4 + STRIP_WIDTH / 2;
  // Points across the wait's band (the hatching leaves some untouched) and in its strip.
  const bandPoints = [-6, -3, 0, 3, 6].map((dx) => [at.x + dx, at.y + 4]).concat([[at.x, at.y], [at.x + 1, at.y - 3]]);
  const stripPoints = [[label, at.top + 9], [label - 10, at.top + 9]];
  const off = await pixels([...bandPoints, ...stripPoints]);
  const hooksOff = await hooks();

  await check('off: no hooks and nothing asked', async () => {
    assert.equal(hooksOff.shown, undefined);
  });

  await toggle.check();
  let h = await hooksFor();
  await settled();

  await check('on: the hooks give /waits-window of the window on screen', async () => {
    const a = await answerFor(h.window);
    assert.equal(Number(h.shown), a.waits.length, `shown ${h.shown} vs ${a.waits.length}`);
    assert.equal(Number(h.matched), a.matched);
    assert.ok(a.waits.some((w) => w.row === wait.row && w.begin === wait.begin && w.end === wait.end), 'the wait chosen is among them');
  });

  await check('on: the wait and its strip are drawn over the frame without the overlay', async () => {
    const on = await pixels([...bandPoints, ...stripPoints]);
    const changed = (i) => on[i].some((v, k) => Math.abs(v - off[i][k]) > 10);
    const band = bandPoints.map((_, i) => i).filter(changed);
    assert.ok(band.length >= bandPoints.length - 2, `band pixels changed at ${band.length} of ${bandPoints.length}: ${JSON.stringify({ off, on })}`);
    const strip = stripPoints.map((_, i) => i + bandPoints.length).filter(changed);
    assert.ok(strip.length >= 1, `strip pixels changed: ${JSON.stringify({ off, on })}`);
    writeFileSync(join(args.out, 'waits-overlay.png'), await page.screenshot());
  });

  await check('moving the window asks again: the hooks follow it', async () => {
    const before = h.window;
    const info = await api('/summary');
    await setWindow(info.duration / 2, info.duration);
    h = await hooksFor();
    assert.notEqual(h.window, before);
    const a = await answerFor(h.window);
    assert.equal(Number(h.shown), a.waits.length);
    assert.equal(Number(h.matched), a.matched);
    assert.ok(a.matched > 0, 'the second half of the run has waits');
  });

  await check('off again: the hooks go, and the frame is as before', async () => {
    await setWindow(wait.begin - span, wait.end + span);
    await toggle.uncheck();
    await settled();
    assert.equal((await hooks()).shown, undefined);
    const again = await pixels([...bandPoints, ...stripPoints]);
    assert.deepEqual(again, off);
  });

  await check('no page errors', noPageErrors);
} catch (e) {
  fail('waits overlay', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'final.png'));
}
finish('waits overlay checks');
