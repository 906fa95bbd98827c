// End-to-end test of the logical-time and counter views: a real `parallax
// serve` on 127.0.0.1, headless Chromium, pictures checked by their pixels.
//
//   node e2e/counters_lamport.mjs --parallax PARALLAX --trace-dir DIR [--out DIR] [--web-dir DIR]
//
// DIR holds the demo trace (scripts/demo-trace). It has messages but no
// counters, so the test derives a second trace from it with the parallax CLI:
// convert to Chrome JSON, add per-thread counters computed from the trace's
// own messages ("messages sent", "messages received", "bytes sent", running
// totals at each send or receive), convert back to .plx. The server serves
// both. Checks:
//  - Logical time: after zooming the timeline in, the view draws exactly as
//    many arrows as /lamport returns for the timeline's window, and the arrows
//    are on screen where the API's clocks and rows put them (dark pixels at
//    each arrow's middle and inside its head).
//  - Counters: the lights matrix's cell colours at two cursor positions (moved
//    with the replay bar's jump box) are the /at values through the scale of
//    docs/views.md (linear over the metric's [min, max], RdYlBu stops).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('counters_lamport.mjs', { out: 'e2e-out', 'web-dir': '' });
const { check, fail, finish } = checks();

// The scale of docs/views.md: RdYlBu reversed, linear over [min, max].
const STOPS = ['#313695', '#4575b4', '#abd9e9', '#ffffbf', '#fdae61', '#d73027', '#a50026'];
const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
function light(min, max, v) {
  if (v === undefined) return hexToRgb('#f2f2f2');
  const t = max > min ? Math.min(1, Math.max(0, (v - min) / (max - min))) : 0;
  const pos = t * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(pos));
  const a = hexToRgb(STOPS[i]);
  const b = hexToRgb(STOPS[i + 1]);
  return a.map((c, k) => Math.round(c + (b[k] - c) * (pos - i)));
}
const near = (a, b, tol) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

/** The demo trace with counters derived from its messages, as a new .plx. */
function traceWithCounters(demo) {
  const json = join(args.out, 'demo.json');
  const out = join(args.out, 'counters.plx');
  execFileSync(args.parallax, ['convert', '--force', demo, json], { stdio: ['ignore', 'ignore', 'inherit'] });
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  const events = doc.traceEvents;
  const flows = events.filter((e) => e.ph === 's' || e.ph === 'f').sort((a, b) => a.ts - b.ts);
  const totals = new Map();
  const bump = (key, by) => {
    const v = (totals.get(key) ?? 0) + by;
    totals.set(key, v);
    return v;
  };
  for (const e of flows) {
    const who = `${e.pid}/${e.tid}`;
    if (e.ph === 's') {
      events.push({ ph: 'C', pid: e.pid, tid: e.tid, ts: e.ts, name: 'messages sent', args: { value: bump(`${who} sent`, 1) } });
      events.push({ ph: 'C', pid: e.pid, tid: e.tid, ts: e.ts, name: 'bytes sent', args: { value: bump(`${who} bytes`, e.args?.bytes ?? 0) } });
    } else {
      events.push({ ph: 'C', pid: e.pid, tid: e.tid, ts: e.ts, name: 'messages received', args: { value: bump(`${who} recv`, 1) } });
    }
  }
  writeFileSync(json, JSON.stringify(doc));
  execFileSync(args.parallax, ['convert', '--force', json, out], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Times of the sends and receives in trace time (ns): ts is in µs from the trace begin.
  return { file: out, times: flows.map((e) => Math.round(e.ts * 1000)) };
}

/** The value at share `q` (0..1) of a sorted list. */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * Colours at CSS-pixel points of an element's screenshot (taken at the page's
 * device scale); with `radius` > 0 the darkest pixel (by its brightest channel)
 * of the square of that many CSS pixels around each point instead.
 */
async function elementPixels(page, locator, points, radius = 0) {
  const shot = await locator.screenshot();
  const box = await locator.boundingBox();
  return page.evaluate(
    async ({ b64, points, width, radius }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const k = img.width / width;
      const r = Math.round(radius * k);
      return points.map(([x, y]) => {
        const [px, py] = [Math.round(x * k), Math.round(y * k)];
        if (r === 0) return Array.from(ctx.getImageData(px, py, 1, 1).data.slice(0, 3));
        const d = ctx.getImageData(px - r, py - r, 2 * r + 1, 2 * r + 1).data;
        let best = [255, 255, 255];
        for (let i = 0; i < d.length; i += 4) {
          if (Math.max(d[i], d[i + 1], d[i + 2]) < Math.max(...best)) best = [d[i], d[i + 1], d[i + 2]];
        }
        return best;
      });
    },
    { b64: shot.toString('base64'), points, width: box.width, radius },
  );
}

/** The darkest pixel's brightest channel within 2 CSS px of each point. */
async function darkest(page, locator, points) {
  return (await elementPixels(page, locator, points, 2)).map((c) => Math.max(...c));
}

async function openTrace(page, url, id) {
  await page.goto(`${url}&trace=${encodeURIComponent(id)}`);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
}

async function jumpCursor(page, t) {
  const box = page.locator('[data-testid=replay-jump]');
  assert.equal(await box.count(), 1, 'the replay bar has its jump box');
  await box.fill(String(t));
  await box.press('Enter');
  await page.waitForFunction((t) => window.parallax.replay?.time() === t, t, { timeout: 10000 });
}

const demo = join(args['trace-dir'], traceFile);
const derived = traceWithCounters(demo);
const server = await startServer(args.parallax, [demo, derived.file], args['web-dir'] ? ['--web-dir', args['web-dir']] : []);
const browser = await launchBrowser();
let page;
try {
  const traces = await server.waitAllReady(120000);
  const demoId = traces.find((t) => t.name === traceFile).id;
  const countersId = traces.find((t) => t.name === 'counters.plx').id;
  // Twice the pixels: a one-pixel line covers whole device pixels.
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 2 });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);

  await check('logical time: one arrow per /lamport message of the timeline window, at the clocks the API reports', async () => {
    await openTrace(page, server.url, demoId);
    // Zoom the timeline to a short stretch of the message traffic (a few dozen
    // messages, so arrows lie apart) by dragging on its ruler, again while the
    // stretch is still narrow on screen.
    const full = await page.evaluate(() => window.parallax.timeline.window());
    const [t1, t2] = [quantile(derived.times, 0.1), quantile(derived.times, 0.13)];
    const ruler = await page.locator('#timeline canvas').first().boundingBox();
    const timelineWindow = () => page.evaluate(() => window.parallax.timeline.window());
    let win = full;
    for (let i = 0; i < 3 && win.to - win.from > 2 * (t2 - t1); i++) {
      const before = win;
      const margin = (before.to - before.from) * 0.01;
      const [a, b] = await page.evaluate(([a, b]) => [window.parallax.timeline.timeToX(a), window.parallax.timeline.timeToX(b)],
                                         [Math.max(before.from, t1 - margin), Math.min(before.to, t2 + margin)]);
      await page.mouse.move(ruler.x + a, ruler.y + 10);
      await page.mouse.down();
      await page.mouse.move(ruler.x + Math.max(b, a + 30), ruler.y + 10, { steps: 8 });
      await page.mouse.up();
      win = await until(timelineWindow, (w) => w.to - w.from < (before.to - before.from) * 0.9);
    }
    assert.ok(win.from <= t1 && win.to >= t2 && win.to - win.from < (full.to - full.from) * 0.2,
              `zoomed in: ${JSON.stringify({ full, win, t1, t2 })}`);
    await page.locator('[data-view=lamport]').click();
    const chart = page.locator('[data-testid=lamport-chart]');
    await chart.waitFor({ timeout: 10000 });
    const data = () => chart.evaluate((c) => ({ ...c.dataset }));
    const shown = await until(data, (d) => Number(d.from) === win.from && Number(d.to) === win.to && d.arrows !== undefined, 15000);
    assert.equal(Number(shown.from), win.from, `the view shows the timeline window ${JSON.stringify([shown, win])}`);
    const api = await server.api(`/traces/${demoId}/lamport?from=${win.from}&to=${win.to}`);
    assert.equal(api.truncated, false);
    assert.ok(api.messages.length > 10, `messages in the window: ${api.messages.length}`);
    assert.equal(Number(shown.arrows), api.messages.length, 'arrows drawn = messages of /lamport');
    // Positions from the API's clocks and the view's axis (its clock range and the row anchors).
    const rows = JSON.parse(shown.rows);
    const [c0, c1, px, pw] = [shown.clockFrom, shown.clockTo, shown.plotX, shown.plotW].map(Number);
    assert.ok(c0 <= api.min_clock && c1 >= api.max_clock, `the fitted axis ${c0}..${c1} holds ${api.min_clock}..${api.max_clock}`);
    const x = (c) => px + ((c - c0) / (c1 - c0)) * pw;
    const step = Math.max(1, Math.floor(api.messages.length / 12));
    const sample = api.messages.filter((m, i) => i % step === 0 && m.send_row !== m.recv_row);
    const points = [];
    for (const m of sample) {
      const [x1, y1, x2, y2] = [x(m.send_clock), rows[m.send_row], x(m.recv_clock), rows[m.recv_row]];
      const len = Math.hypot(x2 - x1, y2 - y1);
      points.push([(x1 + x2) / 2, (y1 + y2) / 2]);  // the middle of the line
      if (len > 12) points.push([x2 - ((x2 - x1) / len) * 3, y2 - ((y2 - y1) / len) * 3]);  // inside the head
    }
    await page.mouse.move(5, 5);  // no hover highlight
    writeFileSync(join(args.out, 'lamport.png'), await chart.screenshot());
    const dark = await darkest(page, chart, points);
    // Arrows are #111111; bars, labels and background are all brighter than 100.
    const off = points.filter((_, i) => dark[i] > 70);
    assert.deepEqual(off, [], `every arrow point is dark (brightest channel <= 70): ${dark.join(',')}`);
    // Control: the same points moved 9 px down are not all dark (the check can tell).
    const moved = await darkest(page, chart, points.map(([a, b]) => [a + 9, b + 9]));
    assert.ok(moved.filter((v) => v > 70).length > points.length / 2, `moved points: ${moved.join(',')}`);
  });

  await check('counters: the lights matrix shows the /at values through the documented scale, following the cursor', async () => {
    await openTrace(page, server.url, countersId);
    const summary = await server.api(`/traces/${countersId}/summary`);
    assert.ok(summary.counters.length >= 6, `counter tracks: ${summary.counters.length}`);
    // Metrics in order of first appearance, each over its tracks' whole range; one unit per process.
    const metrics = [];
    for (const c of summary.counters) {
      let m = metrics.find((x) => x.name === c.name);
      if (!m) metrics.push((m = { name: c.name, min: c.min, max: c.max }));
      m.min = Math.min(m.min, c.min);
      m.max = Math.max(m.max, c.max);
    }
    // Rows: a process, or each of its threads when it has counters on several (docs/views.md).
    const processOf = (c) => summary.threads[c.thread].process;
    const threadsOf = new Map();
    for (const c of summary.counters) threadsOf.set(processOf(c), new Set([...(threadsOf.get(processOf(c)) ?? []), c.thread]));
    const units = [];
    for (const p of [...threadsOf.keys()].sort((a, b) => a - b)) {
      const threads = [...threadsOf.get(p)].sort((a, b) => a - b);
      if (threads.length === 1) units.push(`${p}`);
      else for (const t of threads) units.push(`${p}:${t}`);
    }
    const unitOf = (c) => (units.includes(`${processOf(c)}`) ? units.indexOf(`${processOf(c)}`) : units.indexOf(`${processOf(c)}:${c.thread}`));
    await page.locator('[data-view=counters]').click();
    const chart = page.locator('[data-testid=counters-chart]');
    await chart.waitFor({ timeout: 10000 });
    // Two moments within the traffic, when the counters have values.
    for (const t of [quantile(derived.times, 0.3), quantile(derived.times, 0.75)]) {
      await jumpCursor(page, t);
      const d = await until(() => chart.evaluate((c) => ({ ...c.dataset })), (x) => Number(x.time) === t, 10000);
      assert.equal(Number(d.time), t, 'the lights show the cursor time');
      const at = await server.api(`/traces/${countersId}/at?t=${t}&limit=0`);
      const value = new Map(at.counters.map((c) => [c.track, c.value]));
      const [left, top, w, h] = [d.left, d.top, d.cellW, d.cellH].map(Number);
      const cells = [];
      for (const c of summary.counters) {
        const u = unitOf(c);
        const m = metrics.findIndex((x) => x.name === c.name);
        cells.push({ track: c.index, point: [left + m * w + 3, top + u * h + 3], want: light(metrics[m].min, metrics[m].max, value.get(c.index)) });
      }
      assert.ok(new Set(cells.map((c) => c.want.join())).size >= 3, 'the cells differ (a meaningful picture)');
      await page.mouse.move(5, 5);
      const got = await elementPixels(page, chart, cells.map((c) => c.point));
      const wrong = [];
      cells.forEach((c, i) => {
        if (!near(got[i], c.want, 3)) wrong.push({ track: c.track, want: c.want, got: got[i] });
      });
      assert.deepEqual(wrong, [], `cells at ${t} ns`);
    }
    writeFileSync(join(args.out, 'lights.png'), await chart.screenshot());
    // The other two sub-views draw something and export.
    await page.locator('[data-testid=counters-mode-bars]').click();
    await page.locator('[data-testid=counters-mode-lines]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=counters-chart]')?.dataset.mode === 'lines');
    writeFileSync(join(args.out, 'lines.png'), await chart.screenshot());
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  if (page) writeFileSync(join(args.out, 'counters_lamport_last.png'), await page.screenshot().catch(() => Buffer.alloc(0)));
  await browser.close();
  await server.stop();
}
finish('logical-time and counter checks');
