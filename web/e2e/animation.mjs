// End-to-end test of the animation view: a real `parallax serve` over the demo
// trace, headless Chromium. Moves the replay cursor, reads the canvas's pixels
// at the node centres and compares them with the state colours of what /at
// reports at that moment; checks a message in flight is drawn between its
// nodes; loads examples/setups/ring-8.json through the file input and
// switches layouts.
//
//   node e2e/animation.mjs --parallax PARALLAX --trace-dir DIR [--web-dir DIR]
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { checks, demoTraceArgs, launchBrowser, startServer, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('animation.mjs', { 'web-dir': '' });
const setups = resolve(dirname(fileURLToPath(import.meta.url)), '../../examples/setups');

const NONE = '#d9d9d9'; // setup_model.ts DEFAULT_NONE: a node whose module has no state
const MESSAGE = '#1f3b73'; // paint_dynamic.ts MESSAGE_COLOR

const { check, finish } = checks();

const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b, tol = 10) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)],
                                 args['web-dir'] ? ['--web-dir', args['web-dir']] : []);
const browser = await launchBrowser();
try {
  const [trace] = await server.waitAllReady(120000);
  const summary = await server.api(`/traces/${trace.id}/summary`);
  // The colours the viewer draws (recorded, else its palette's): read once the page is up.
  let stateColor = new Map();
  const at = (t) => server.api(`/traces/${trace.id}/at?t=${t}`);
  /** The colour a node showing `rows` has: the state most of them are in (ties: the earlier row). */
  const expected = (states, rows) => {
    const count = new Map();
    for (const r of rows) if (states[r] >= 0) count.set(states[r], (count.get(states[r]) ?? 0) + 1);
    let best = -1;
    let n = 0;
    for (const r of rows) if (states[r] >= 0 && count.get(states[r]) > n) [best, n] = [states[r], count.get(states[r])];
    return best < 0 ? NONE : stateColor.get(best);
  };
  const rowsOfRank = (rank) => summary.processes.find((p) => p.rank === rank)?.threads ?? [];

  // Moments where the ranks are in different states, found through /at itself.
  const moments = [];
  for (let i = 1; i < 40 && moments.length < 4; i++) {
    const t = Math.round((summary.duration * i) / 40);
    const a = await at(t);
    if (new Set(a.states).size >= 2) moments.push(t);
  }
  assert.ok(moments.length >= 2, 'the demo trace has moments with ranks in different states');

  const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  const noPageErrors = watchPageErrors(page);

  /** Moves the cursor and waits until the view drew the /at answer for it. */
  const seek = async (t) => {
    await page.evaluate((t) => window.parallax.animation.seek(t), t);
    await page.waitForFunction((t) => window.parallax.animation.atTime() === t, t, { timeout: 10000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  };
  /** Canvas pixels at CSS points of the animation canvas. */
  const pixels = (points) =>
    page.evaluate((points) => {
      const c = document.querySelector('[data-testid=animation-canvas]');
      const dpr = c.width / c.getBoundingClientRect().width;
      const ctx = c.getContext('2d');
      return points.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data.slice(0, 3)));
    }, points);
  const nodes = () => page.evaluate(() => window.parallax.animation.nodes());
  /** Checks every node's centre pixel against the colour /at implies for its ranks. */
  const checkColors = async (t, rowsOfNode) => {
    await seek(t);
    const a = await at(t);
    const ns = await nodes();
    const got = await pixels(ns.map((n) => [n.x, n.y]));
    ns.forEach((n, i) => {
      const want = expected(a.states, rowsOfNode(i));
      assert.ok(near(got[i], hexToRgb(want)), `t=${t} node ${n.id}: pixel ${got[i]} is not ${want} (${hexToRgb(want)})`);
    });
    return ns.length;
  };
  const setMessages = (on) =>
    page.evaluate((on) => {
      const box = document.querySelector('[data-testid=animation-messages]');
      if (box.checked !== on) box.click();
    }, on);
  const chooseLayout = (value) => page.selectOption('[data-testid=animation-layout]', value);

  await check('the Animation tab opens with one node per process (ring)', async () => {
    await page.goto(server.url);
    await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    stateColor = new Map((await page.evaluate(() => window.parallax.stateColors())).map((c, i) => [i, c]));
    await page.click('[data-view=animation]');
    await page.waitForFunction(() => window.parallax.animation?.atTime() !== null, null, { timeout: 10000 });
    assert.equal((await nodes()).length, summary.processes.length);
    assert.equal(await page.inputValue('[data-testid=animation-layout]'), 'builtin:ring');
  });

  await check('node colours at the cursor are the states /at reports', async () => {
    await setMessages(false); // arrows could sit on a node centre
    for (const t of moments) await checkColors(t, (i) => summary.processes[i].threads);
  });

  await check('the time slider moves the app cursor', async () => {
    const t = moments[1];
    await page.evaluate((t) => {
      const s = document.querySelector('[data-testid=animation-time]');
      s.value = String(t);
      s.dispatchEvent(new Event('input'));
    }, t);
    await page.waitForFunction((t) => window.parallax.animation.atTime() === t, t, { timeout: 10000 });
    assert.equal(await page.evaluate(() => window.parallax.animation.time()), t);
  });

  await check('a message in flight is drawn between its sender and receiver', async () => {
    await setMessages(true);
    // a message between two ranks, in the middle of its flight
    let found = null;
    for (let i = 1; i < 200 && !found; i++) {
      const a = await at(Math.round((summary.duration * i) / 200));
      found = a.in_flight.find((m) => m.recv_time > m.send_time + 2 && m.recv_row >= 0 && m.recv_row !== m.send_row);
    }
    assert.ok(found, 'the demo trace has messages in flight');
    const t = Math.round((found.send_time + found.recv_time) / 2);
    await seek(t);
    const ns = await nodes();
    const nodeOf = (row) => summary.processes.findIndex((p) => p.threads.includes(row));
    const a = ns[nodeOf(found.send_row)];
    const b = ns[nodeOf(found.recv_row)];
    const f = (t - found.send_time) / (found.recv_time - found.send_time);
    const [px] = await pixels([[a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f]]);
    assert.ok(near(px, hexToRgb(MESSAGE), 40), `pixel ${px} at the message is not ${MESSAGE}`);
    const info = await page.evaluate(() => window.parallax.animation.stats());
    assert.ok(info.frames > 0 && info.answers > 0);
  });

  await check('ring-8.json loads through the file input; ranks 0..3 coloured, 4..7 inactive', async () => {
    await setMessages(false);
    await page.setInputFiles('[data-testid=animation-file]', join(setups, 'ring-8.json'));
    await page.waitForFunction(() => window.parallax.animation.nodes().length === 8, null, { timeout: 10000 });
    assert.equal(await page.inputValue('[data-testid=animation-layout]'), 'setup:0');
    assert.match(await page.textContent('[data-testid=view-message]'), /loaded ring-8\.json: 8 nodes/);
    await checkColors(moments[0], (i) => rowsOfRank(i));
    const bad = join(setups, 'make_mesh.py'); // not JSON: refused with one line
    await page.setInputFiles('[data-testid=animation-file]', bad);
    await page.waitForSelector('[data-testid=view-error]');
    assert.match(await page.textContent('[data-testid=view-error]'), /^make_mesh\.py: not valid JSON/);
    assert.equal((await nodes()).length, 8);
  });

  await check('layouts switch at any time: mesh, tree, hypercube, back to the setup', async () => {
    for (const layout of ['builtin:mesh', 'builtin:tree', 'builtin:hypercube']) {
      await chooseLayout(layout);
      assert.equal((await nodes()).length, summary.processes.length, layout);
      await checkColors(moments[moments.length - 1], (i) => summary.processes[i].threads);
    }
    await page.selectOption('[data-testid=animation-modules]', 'row');
    assert.equal((await nodes()).length, summary.threads.length);
    await checkColors(moments[0], (i) => [i]);
    await page.selectOption('[data-testid=animation-modules]', 'process');
    await chooseLayout('setup:0');
    assert.equal((await nodes()).length, 8);
  });

  await check('hover names a node; click jumps the timeline to its row at the cursor', async () => {
    const t = moments[0];
    await seek(t);
    const n = (await nodes())[1];
    const box = await page.locator('[data-testid=animation-canvas]').boundingBox();
    await page.mouse.move(box.x + n.x, box.y + n.y);
    await page.waitForSelector('[data-testid=animation-tooltip]:not([hidden])');
    assert.match(await page.textContent('[data-testid=animation-tooltip]'), /^rank 1 · rank 1: |^rank 1: /);
    await page.mouse.click(box.x + n.x, box.y + n.y);
    await page.waitForFunction((t) => {
      const w = window.parallax.timeline.window();
      return w.from <= t && t <= w.to;
    }, t, { timeout: 5000 });
  });

  await check('no errors in the page', noPageErrors);
} finally {
  await browser.close();
  await server.stop();
}

finish('animation checks');
