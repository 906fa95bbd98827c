// End-to-end test of the CPUs and Loops tabs: a real OpenMP program
// (tests/omp/programs/omp_program.c, built here with clang -fopenmp=libomp)
// recorded by `parallax record` with PLX_SCHED=1, served by a real
// `parallax serve` on 127.0.0.1, both tabs opened in headless Chromium and
// what they draw checked by its pixels against the server's answers and the
// program's own log of the chunks each thread ran.
//
//   node e2e/threads_views.mjs --parallax PARALLAX [--cc CLANG] [--out DIR] [--web-dir DIR]
//
// Exits 77 (ctest: skipped) with a message when no clang with libomp builds
// the program. Checks:
//  - CPUs: one bar per /cpus span of the timeline window, each where the
//    span's times and CPU put it and in the colour its thread has in the
//    legend; legend swatches drawn in those colours, one distinct colour and
//    one label (process / thread) per thread; migrations shown; hover names
//    the thread and CPU; a click zooms the timeline to the span.
//  - Loops: for the static and the dynamic loop, as many blocks as /loops
//    chunks, each over its iterations in the legend colour of its thread
//    number; the chunks and per-thread sums equal the program's log; static
//    times drawn estimated (lighter, hatched, with the note), dynamic ones
//    solid; hover shows a chunk's iterations and thread.
//  - Animation: one node per thread of the one process.
//  - CPUs of the same program recorded without PLX_SCHED=1: the empty state.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { checks, launchBrowser, parseArgs, startServer, until, watchPageErrors } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { parallax: '', cc: 'clang', out: 'e2e-out/threads-views', 'web-dir': '' });
if (!args.parallax) {
  console.error('usage: threads_views.mjs --parallax PARALLAX [--cc CLANG] [--out DIR] [--web-dir DIR]');
  process.exit(2);
}
const out = resolve(args.out);
mkdirSync(out, { recursive: true });
const source = resolve(dirname(fileURLToPath(import.meta.url)), '../../tests/omp/programs/omp_program.c');

// The program, as tests/omp/CMakeLists.txt builds it.
const program = join(out, 'omp_program');
const cc = spawnSync(args.cc, ['-fopenmp=libomp', '-O1', '-g', '-Wall', '-Wextra', '-Werror', '-o', program, source], { encoding: 'utf8' });
if (cc.error || cc.status !== 0) {
  console.log(`skipped: no clang with libomp (${args.cc} -fopenmp=libomp; Debian clang and libomp-dev): ${cc.error?.message ?? cc.stderr.trim().split('\n')[0]}`);
  process.exit(77);
}

// Recorded with the CPU samples on.
const trace = join(out, 'omp.plx');
const logFile = join(out, 'omp.log');
execFileSync(args.parallax, ['record', '-o', trace, '--', program, logFile], {
  env: { ...process.env, PLX_SCHED: '1', OMP_NUM_THREADS: '4' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
// And once without them, for the CPU tab's empty state.
const plain = join(out, 'omp_nosched.plx');
const env = { ...process.env, OMP_NUM_THREADS: '4' };
delete env.PLX_SCHED;
execFileSync(args.parallax, ['record', '-o', plain, '--', program, join(out, 'omp_nosched.log')], { env, stdio: ['ignore', 'inherit', 'inherit'] });

/** The program's log: chunks per loop ("chunk <loop> <thread num> <first> <last>"). */
function readLog() {
  const chunks = new Map();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    const m = line.match(/^chunk (\d+) (\d+) (\d+) (\d+)$/);
    if (!m) continue;
    const [loop, threadNum, first, last] = m.slice(1).map(Number);
    if (!chunks.has(loop)) chunks.set(loop, []);
    chunks.get(loop).push({ threadNum, first, last });
  }
  return chunks;
}
const logged = readLog();
assert.equal(logged.size, 2, 'the program logged its two loops');

const { check, fail, finish } = checks();
const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b, tol = 4) => a.every((v, i) => Math.abs(v - b[i]) <= tol);
const key = (c) => `${c.threadNum}:${c.first}-${c.last}`;
/** loops_paint.ts estimatedFill: 60 % towards white. */
const lighter = (rgb) => rgb.map((c) => Math.round(c + (255 - c) * 0.6));

/** Colours at CSS-pixel points of an element's screenshot (taken at the page's device scale). */
async function elementPixels(page, locator, points) {
  const shot = await locator.screenshot();
  const box = await locator.boundingBox();
  return page.evaluate(
    async ({ b64, points, width }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const k = img.width / width;
      return points.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data.slice(0, 3)));
    },
    { b64: shot.toString('base64'), points, width: box.width },
  );
}

/** The lanes cpus_layout.ts gives the spans of each CPU (first free lane in begin order, at most 4). */
function lanesOf(spans) {
  const lane = new Array(spans.length).fill(0);
  const byCpu = new Map();
  spans.forEach((s, i) => byCpu.set(s.cpu, [...(byCpu.get(s.cpu) ?? []), i]));
  for (const idx of byCpu.values()) {
    idx.sort((a, b) => spans[a].begin - spans[b].begin || a - b);
    const ends = [];
    for (const i of idx) {
      let k = ends.findIndex((e) => e <= spans[i].begin);
      if (k < 0 && ends.length < 4) k = ends.push(-Infinity) - 1;
      if (k < 0) k = ends.indexOf(Math.min(...ends));
      ends[k] = Math.max(ends[k], spans[i].end);
      lane[i] = k;
    }
  }
  return lane;
}

const server = await startServer(args.parallax, [trace, plain], args['web-dir'] ? ['--web-dir', args['web-dir']] : []);
const browser = await launchBrowser();
let page;
try {
  const traces = await server.waitAllReady(120000);
  const id = traces.find((t) => t.name === 'omp.plx').id;
  const plainId = traces.find((t) => t.name === 'omp_nosched.plx').id;
  const summary = await server.api(`/traces/${id}/summary`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 2 });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  await page.goto(`${server.url}&trace=${encodeURIComponent(id)}`);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  const timelineWindow = () => page.evaluate(() => window.parallax.timeline.window());

  await check('CPUs: one bar per /cpus span, where its times and CPU put it, in its thread\'s legend colour', async () => {
    assert.ok(summary.counters.some((c) => c.name === 'cpu'), 'PLX_SCHED=1 recorded `cpu` counters');
    await page.locator('[data-view=cpus]').click();
    const chart = page.locator('[data-testid=cpus-chart]');
    await chart.waitFor({ timeout: 10000 });
    const win = await timelineWindow();
    const d = await until(() => chart.evaluate((c) => ({ ...c.dataset })), (x) => Number(x.from) === win.from && Number(x.to) === win.to && x.bars !== undefined, 15000);
    const api = await server.api(`/traces/${id}/cpus?from=${win.from}&to=${win.to}`);
    assert.equal(api.has_data, true);
    assert.equal(api.truncated, false);
    assert.ok(api.spans.length >= 4, `spans: ${api.spans.length}`);
    assert.equal(Number(d.bars), api.spans.length, 'bars drawn = /cpus spans');
    assert.deepEqual(Object.keys(JSON.parse(d.rows)).map(Number), api.cpus, 'one row per CPU of the trace');
    const infoText = await page.locator('[data-testid=cpus-info]').textContent();
    assert.ok(infoText.includes(`${api.migrations} migration`), `migrations shown: ${infoText}`);
    // The legend: every thread of the spans once, labelled "process / thread", distinct colours.
    const legend = JSON.parse(d.legend);
    const rows = [...new Set(api.spans.map((s) => s.row))].sort((a, b) => a - b);
    assert.deepEqual(legend.map((l) => l.row), rows);
    // "process / thread", with " (tid N)" where two would read the same.
    const plain = (row) => `${summary.processes[summary.threads[row].process].name} / ${summary.threads[row].name}`;
    for (const l of legend) {
      const twins = legend.filter((m) => plain(m.row) === plain(l.row)).length;
      assert.equal(l.label, twins > 1 ? `${plain(l.row)} (tid ${summary.threads[l.row].tid})` : plain(l.row));
    }
    assert.equal(new Set(legend.map((l) => l.label)).size, legend.length, 'a distinct label per thread');
    assert.equal(new Set(legend.map((l) => l.color)).size, legend.length, 'a colour per thread');
    const colorOf = new Map(legend.map((l) => [l.row, l.color]));
    // Bars: x from the span's times on the window, y from its CPU row and lane.
    const [px, pw] = [Number(d.plotX), Number(d.plotW)];
    const tx = (t) => px + ((t - win.from) / (win.to - win.from)) * pw;
    const rowBox = JSON.parse(d.rows);
    const lane = lanesOf(api.spans);
    const bars = api.spans.map((s, i) => {
      const [top, h, lanes] = rowBox[s.cpu];
      const lh = (h - (lanes - 1)) / lanes;
      const x0 = Math.max(px, tx(s.begin));
      const x1 = Math.min(px + pw, tx(s.end));
      return { span: s, x: (x0 + x1) / 2, x0, x1, y: top + lane[i] * (lh + 1) + lh / 2, w: x1 - x0, color: colorOf.get(s.row) };
    });
    // Bars at least 6 px wide: their middle and 1.5 px inside each end (so a
    // bar drawn shifted or scaled fails), away from the replay cursor's line.
    const cursorX = tx(await page.evaluate(() => window.parallax.replay.time()));
    const wide = bars.filter((b) => b.w >= 6);
    assert.ok(wide.length >= 2, `bars at least 6 px wide: ${wide.length}`);
    const inBars = wide.flatMap((b) => [b.x, b.x0 + 1.5, b.x1 - 1.5].filter((x) => Math.abs(x - cursorX) > 3).map((x) => ({ p: [x, b.y], color: b.color })));
    await page.mouse.move(5, 5);
    writeFileSync(join(out, 'cpus.png'), await chart.screenshot());
    const points = [...inBars.map((b) => b.p), ...legend.map((l) => [l.x + 6, l.y + l.h / 2])];
    const got = await elementPixels(page, chart, points);
    const want = [...inBars.map((b) => b.color), ...legend.map((l) => l.color)].map(hexToRgb);
    const wrong = points.map((p, i) => ({ p, want: want[i], got: got[i] })).filter((x) => !near(x.got, x.want));
    assert.deepEqual(wrong, [], 'bars (middle and both ends) and legend swatches in the thread colours');
    // Hover names thread and CPU; a click zooms the timeline to the span.
    const b = wide[0];
    const box = await chart.boundingBox();
    await page.mouse.move(box.x + b.x, box.y + b.y);
    const tip = page.locator('[data-testid=cpus-tooltip]');
    await tip.waitFor({ state: 'visible', timeout: 5000 });
    const text = await tip.textContent();
    assert.ok(text.includes(legend.find((l) => l.row === b.span.row).label) && text.includes(`CPU ${b.span.cpu}`), `tooltip: ${text}`);
    await page.mouse.click(box.x + b.x, box.y + b.y);
    const after = await until(timelineWindow, (w) => w.from !== win.from || w.to !== win.to);
    assert.ok(after.from <= b.span.begin && after.to >= b.span.end, `the timeline shows the span: ${JSON.stringify({ after, span: b.span })}`);
  });

  await check('Loops: blocks = /loops chunks, in the legend colour of their thread number, as the program logged them', async () => {
    await page.evaluate((d) => window.parallax.timeline.setWindow(0, d), summary.duration);
    await page.locator('[data-view=loops]').click();
    const list = page.locator('[data-testid=loops-list]');
    await list.waitFor({ timeout: 10000 });
    const win = await timelineWindow();
    const all = await server.api(`/traces/${id}/loops?from=${win.from}&to=${win.to}`);
    const staticLoop = all.loops.find((l) => l.schedule === 'static');
    const dynamicLoop = all.loops.find((l) => l.schedule === 'dynamic');
    assert.ok(staticLoop && dynamicLoop, `a static and a dynamic loop: ${JSON.stringify(all.loops)}`);
    assert.equal(await page.locator('[data-testid^=loops-row-]').count(), all.loops.length, 'one list row per loop');
    const chart = page.locator('[data-testid=loops-chart]');
    for (const [loop, logIndex] of [[staticLoop, 0], [dynamicLoop, 1]]) {
      await page.locator(`[data-testid=loops-row-${loop.id}]`).click();
      const d = await until(() => chart.evaluate((c) => ({ ...c.dataset })), (x) => Number(x.loop) === loop.id, 10000);
      assert.equal(Number(d.loop), loop.id, `loop ${loop.id} drawn`);
      const { chunks } = await server.api(`/traces/${id}/loops?from=${win.from}&to=${win.to}&loop=${loop.id}`);
      assert.equal(chunks.length, loop.chunks);
      assert.equal(Number(d.blocks), chunks.length, 'one block per chunk');
      // The chunks are those the program ran.
      const mine = logged.get(logIndex);
      assert.deepEqual(chunks.map((c) => key({ threadNum: c.thread_num, ...c })).sort(), mine.map(key).sort(), `loop ${logIndex}: chunks as logged`);
      // Per-thread sums as logged.
      const sums = await page.locator('[data-testid=loops-thread]').evaluateAll((rs) => rs.map((r) => ({ ...r.dataset })));
      for (const s of sums) {
        const of = mine.filter((c) => c.threadNum === Number(s.threadNum));
        assert.equal(Number(s.chunks), of.length, `thread ${s.threadNum} chunks`);
        assert.equal(Number(s.iterations), of.reduce((n, c) => n + c.last - c.first + 1, 0), `thread ${s.threadNum} iterations`);
      }
      assert.deepEqual(sums.map((s) => Number(s.threadNum)).sort(), [...new Set(mine.map((c) => c.threadNum))].sort());
      // Legend: each thread number once, distinct colours.
      const legend = JSON.parse(d.legend);
      assert.deepEqual(legend.map((l) => l.threadNum).sort(), [...new Set(chunks.map((c) => c.thread_num))].sort());
      assert.equal(new Set(legend.map((l) => l.color)).size, legend.length);
      const colorOf = new Map(legend.map((l) => [l.threadNum, l.color]));
      // Blocks: x from the iterations, in the colour of the thread number; swatches too.
      const [px, pw, first, last, iy, ih] = ['plotX', 'plotW', 'first', 'last', 'iterY', 'iterH'].map((k) => Number(d[k]));
      assert.deepEqual([first, last], [loop.first, loop.last]);
      const ix = (i) => px + ((i - first) / (last + 1 - first)) * pw;
      const mid = chunks.map((c) => [(ix(c.first) + ix(c.last + 1)) / 2, iy + ih / 2]);
      const swatches = legend.map((l) => [l.x + 6, l.y + l.h / 2]);
      await page.mouse.move(5, 5);
      writeFileSync(join(out, `loop-${loop.schedule}.png`), await chart.screenshot());
      const got = await elementPixels(page, chart, [...mid, ...swatches]);
      const want = [...chunks.map((c) => colorOf.get(c.thread_num)), ...legend.map((l) => l.color)].map(hexToRgb);
      const wrong = got.map((g, i) => ({ i, want: want[i], got: g })).filter((x) => !near(x.got, x.want));
      assert.deepEqual(wrong, [], 'block middles and swatches in the thread-number colours');
      // Times: static estimated (lighter and hatched, with the note), dynamic measured (solid).
      const estimated = loop.schedule === 'static';
      assert.equal(Number(d.estimated), estimated ? chunks.length : 0);
      assert.equal(await page.locator('[data-testid=loops-estimated]').isVisible(), estimated);
      assert.ok(chunks.every((c) => c.estimated === estimated), 'the server marks static times estimated');
      const lanes = new Map(JSON.parse(d.lanes).map((l) => [l.row, l]));
      const tx = (t) => px + ((t - loop.begin) / (loop.end - loop.begin)) * pw;
      // The thread whose chunks reach widest: every half pixel across the
      // middle of its lane from its first chunk's begin to its last's end.
      const extent = new Map();
      for (const ch of chunks) {
        const e = extent.get(ch.row) ?? { row: ch.row, threadNum: ch.thread_num, begin: ch.begin, end: ch.end };
        extent.set(ch.row, { ...e, begin: Math.min(e.begin, ch.begin), end: Math.max(e.end, ch.end) });
      }
      const c = [...extent.values()].reduce((a, b) => (b.end - b.begin > a.end - a.begin ? b : a));
      const lane = lanes.get(c.row);
      const [x0, x1] = [tx(c.begin), tx(c.end)];
      assert.ok(x1 - x0 > 8, `the widest thread's chunks span ${x1 - x0} px`);
      const along = [];
      for (let x = x0 + 1; x < x1 - 2; x += 0.5) along.push([x, lane.y + lane.h / 2]);
      const px2 = await elementPixels(page, chart, along);
      const solid = hexToRgb(colorOf.get(c.threadNum));
      const light = px2.filter((p) => near(p, lighter(solid), 6)).length;
      const full = px2.filter((p) => near(p, solid, 40)).length;
      if (estimated) {
        // The lighter fill with hatch lines in the thread colour across it.
        assert.ok(light >= along.length / 3 && full >= 2, `estimated: ${light} light and ${full} hatch of ${along.length} pixels`);
      } else {
        // Solid, apart from the 1 px gaps between chunks (their edges blend).
        assert.ok(light < along.length * 0.05 && full >= along.length * 0.8, `measured: ${full} solid, ${light} light of ${along.length} pixels`);
      }
      // Hover: a chunk's iterations and thread.
      const box = await chart.boundingBox();
      const h = chunks[Math.floor(chunks.length / 2)];
      await page.mouse.move(box.x + (ix(h.first) + ix(h.last + 1)) / 2, box.y + iy + ih / 2);
      const tip = page.locator('[data-testid=loops-tooltip]');
      await tip.waitFor({ state: 'visible', timeout: 5000 });
      const text = await tip.textContent();
      assert.ok(text.startsWith(`thread ${h.thread_num} `) && text.includes(`iterations ${h.first}–${h.last}`), `tooltip: ${text}`);
    }
  });

  await check('Animation: a one-process threaded run gets one node per thread, not one node', async () => {
    assert.equal(summary.processes.length, 1);
    assert.ok(summary.threads.length >= 4, `OMP_NUM_THREADS=4: ${summary.threads.length} threads`);
    await page.locator('[data-view=animation]').click();
    await page.waitForFunction(() => window.parallax.animation?.atTime() !== null, null, { timeout: 10000 });
    const nodes = await page.evaluate(() => window.parallax.animation.nodes());
    assert.equal(nodes.length, summary.threads.length);
    assert.equal(await page.inputValue('[data-testid=animation-modules]'), 'row');
  });

  await check('CPUs: a trace recorded without PLX_SCHED=1 says so', async () => {
    const api = await server.api(`/traces/${plainId}/cpus`);
    assert.equal(api.has_data, false);
    await page.goto(`${server.url}&trace=${encodeURIComponent(plainId)}`);
    await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    await page.locator('[data-view=cpus]').click();
    const empty = page.locator('[data-testid=cpus-empty]');
    await empty.waitFor({ state: 'visible', timeout: 10000 });
    assert.equal(await empty.textContent(), 'no CPU data: record with PLX_SCHED=1');
    assert.equal(await page.locator('[data-testid=cpus-chart]').isVisible(), false);
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  if (page) writeFileSync(join(out, 'threads_views_last.png'), await page.screenshot().catch(() => Buffer.alloc(0)));
  await browser.close();
  await server.stop();
}
finish('CPU and loop view checks');
