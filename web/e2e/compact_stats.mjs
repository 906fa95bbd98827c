// End-to-end test of the compact mode's band statistics (src/views/timeline/
// compact_stats.ts) on a synthetic trace of 4096 ranks at 1600 × 1000:
// with every rank on screen (several rows a band), the hover text of an
// aggregated cell says the min, median and max share of its rows' time in
// the cell's state and the rows of the min and max, as /rowmap?stats=1
// gives them (asked again from the page with the viewer's token and decoded
// here); the band-statistic switch (data-testid compact-stat, canvas hook
// data-band-stat) repaints that cell in the state's colour shaded by the
// chosen statistic, changes the drawn pixels, and "dominant" brings the
// state's colour back. A real `parallax serve`, headless Chromium. The
// screen in "min" goes to OUT/compact-stats-min.png.
//
//   node e2e/compact_stats.mjs --writer WRITE_MPI_TRACE --parallax PARALLAX --out DIR
//
// WRITE_MPI_TRACE is bench/write_mpi_trace (it writes the trace into OUT).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, launchBrowser, parseArgs, startServer, until, watchPageErrors } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { writer: '', parallax: '', out: 'e2e-compact-stats-out' });
if (!args.writer || !args.parallax) {
  console.error('usage: compact_stats.mjs --writer WRITE_MPI_TRACE --parallax PARALLAX [--out DIR]');
  process.exit(2);
}
mkdirSync(args.out, { recursive: true });
const RANKS = 4096;
const LABEL_WIDTH = 200;
const RULER_HEIGHT = 24;
// The viewer's /rowmap tiles (src/views/timeline/compact.ts).
const TILE_PX = 512;
const bandBlock = (group) => Math.min(256, Math.max(1, Math.floor(1024 / group)));
// Shares are 65535ths; a band is drawn from 15% of its colour (share 0) to all of it (compact_stats.ts).
const SCALE = 65535;
const MIN_TINT = 0.15;
const NO_STATE = 0xffffffff;
const { check, fail, finish } = checks();

const made = spawnSync(args.writer, ['200000', String(RANKS)], { encoding: 'utf8', env: { ...process.env, PLX_BENCH_DIR: args.out } });
if (made.status !== 0) {
  console.error(`write_mpi_trace failed: ${made.stderr}`);
  process.exit(1);
}
const tracePath = made.stdout.trim().split('\n').pop();

/** The thread rows in the timeline's layout order: hosts as first met, their processes, their threads. */
function layoutRows(summary) {
  const hosts = [];
  for (const p of summary.processes) if (!hosts.includes(p.host)) hosts.push(p.host);
  const threadsOf = new Map();
  for (const t of summary.threads) threadsOf.set(t.process, [...(threadsOf.get(t.process) ?? []), t.index]);
  return hosts.flatMap((h) => summary.processes.filter((p) => p.host === h).flatMap((p) => threadsOf.get(p.index) ?? []));
}

/** `rows` as the API's list, runs written a-b. */
function rowList(rows) {
  const out = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
    out.push(j > i ? `${rows[i]}-${rows[j]}` : String(rows[i]));
    i = j + 1;
  }
  return out.join(',');
}

/** A row's name in the viewer's words: its process, and the thread's name when the process has several. */
function rowName(summary, row) {
  const t = summary.threads[row];
  const p = summary.processes[t.process];
  return p.threads.length > 1 ? `${p.name} ${t.name}` : p.name;
}

/** A share as the viewer writes it: "45%", one decimal below 10. */
function share(v) {
  const pct = (v * 100) / SCALE;
  return `${pct < 10 && pct > 0 ? pct.toFixed(1).replace(/\.0$/, '') : String(Math.round(pct))}%`;
}

/** `rgb` shaded by share `v` over white, as the viewer draws a band statistic. */
const shaded = (rgb, v) => rgb.map((c) => Math.round(255 - (255 - c) * (MIN_TINT + ((1 - MIN_TINT) * v) / SCALE)));
const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

const server = await startServer(args.parallax, [tracePath]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(300000);
  const summary = await server.api(`/traces/${trace.id}/summary`);
  assert.equal(summary.threads.length, RANKS, 'a row per rank');
  const order = layoutRows(summary);
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 120000 });
  const canvas = page.locator('#timeline canvas').first();
  const hooks = () => canvas.evaluate((c) => ({ ...c.dataset, width: c.clientWidth, height: c.clientHeight }));
  async function settled(ok = () => true, ms = 60000) {
    const d = await until(hooks, (d) => d.compact === '1' && d.rowmapPending === '0' && ok(d), ms, 100);
    assert.ok(d.compact === '1' && d.rowmapPending === '0' && ok(d), `compact mode with every tile in: ${JSON.stringify(d)}`);
    return d;
  }
  const pixel = (x, y) => canvas.evaluate((c, [x, y]) => {
    const dpr = c.width / c.clientWidth;
    return [...c.getContext('2d').getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data.slice(0, 3)];
  }, [x, y]);
  /** Keeps the plot's pixels in the page (`keep`), or counts those that differ from the kept ones. */
  const plotPixels = (keep) => canvas.evaluate((c, [x, y, keep]) => {
    const dpr = c.width / c.clientWidth;
    const [x0, y0] = [Math.floor(x * dpr), Math.floor(y * dpr)];
    const px = c.getContext('2d').getImageData(x0, y0, c.width - x0, c.height - y0).data;
    const kept = window.keptPlot;
    if (keep) {
      window.keptPlot = px;
      return { count: px.length / 4, changed: 0 };
    }
    let changed = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] !== kept[i] || px[i + 1] !== kept[i + 1] || px[i + 2] !== kept[i + 2]) changed++;
    return { count: px.length / 4, changed };
  }, [LABEL_WIDTH, RULER_HEIGHT, keep]);

  /**
   * The /rowmap tile with stats the viewer draws at plot column `col` of
   * `band`, asked again from the page, and the cell's index in it.
   */
  const answers = new Map(); // query → bytes
  async function tileAt(col, band, d) {
    const group = Number(d.rowsGroup);
    const bands = Math.ceil(RANKS / group);
    const plotWidth = d.width - LABEL_WIDTH;
    const w = await page.evaluate(() => window.parallax.timeline.window());
    const t = w.from + ((col + 0.5) * (w.to - w.from)) / plotWidth;
    const res = Math.pow(2, Math.floor(Math.log2((w.to - w.from) / plotWidth)));
    const span = res * TILE_PX;
    const ti = Math.floor(t / span);
    const px = Math.min(TILE_PX - 1, Math.floor((t - ti * span) / res));
    const block = Math.floor(band / bandBlock(group)) * bandBlock(group);
    const n = Math.min(bandBlock(group), bands - block);
    const rows = rowList(order.slice(block * group, Math.min(RANKS, (block + n) * group)));
    const q = `rows=${rows}&from=${ti * span}&to=${(ti + 1) * span}&width=${TILE_PX}&group=${group}&stats=1`;
    if (!answers.has(q)) {
      const bytes = await page.evaluate(async ([path, token]) => {
        const res = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
        if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
        return [...new Uint8Array(await res.arrayBuffer())];
      }, [`/api/v1/traces/${trace.id}/rowmap?${q}`, server.token]);
      answers.set(q, Uint8Array.from(bytes));
    }
    const bytes = answers.get(q);
    const v = new DataView(bytes.buffer);
    assert.equal(v.getUint32(0, true), 0x524c5850, 'a row map (magic)');
    assert.deepEqual([v.getUint32(24, true), v.getUint32(28, true), v.getUint32(32, true)], [TILE_PX, n, group], 'width, bands, group');
    const count = TILE_PX * n;
    assert.equal(bytes.length, 40 + count * 8 + count * 16, 'header, cells, then a RowmapStat per cell');
    const cell = (band - block) * TILE_PX + px;
    const c = 40 + cell * 8;
    const s = 40 + count * 8 + cell * 16;
    return {
      key: `${ti}|${block}|${px}`,
      state: v.getUint32(c, true), rows: v.getUint16(c + 4, true), busy: v.getUint16(c + 6, true),
      minRow: v.getUint32(s, true), maxRow: v.getUint32(s + 4, true),
      min: v.getUint16(s + 8, true), median: v.getUint16(s + 10, true), max: v.getUint16(s + 12, true),
    };
  }

  let target = null; // the cell compared: plot column, band, /rowmap's answer, canvas x and y

  await check('every rank on one screen, several rows a band, drawn by the dominant state', async () => {
    await page.mouse.move(800, 500);
    await page.keyboard.press('c');
    const d = await settled((d) => d.rowsShown === String(RANKS));
    assert.ok(Number(d.rowsGroup) >= 2, `several rows a band: ${d.rowsGroup}`);
    assert.equal(d.bandStat, 'dominant', 'data-band-stat');
  });

  await check('the hover text of an aggregated cell gives the min, median and max of /rowmap?stats=1', async () => {
    const d = await settled();
    const group = Number(d.rowsGroup);
    const bands = Math.ceil(RANKS / group);
    const bandHeight = Math.max(1, Math.floor((d.height - RULER_HEIGHT) / bands));
    const plotWidth = d.width - LABEL_WIDTH;
    // A cell whose rows spread: its min share well under its max.
    search: for (const band of [Math.floor(bands / 3), Math.floor(bands / 2), 7]) {
      for (let col = Math.floor(plotWidth * 0.1); col < plotWidth * 0.9; col += 37) {
        const cell = await tileAt(col, band, d);
        if (cell.state !== NO_STATE && cell.max - cell.min > SCALE / 4 && cell.min < SCALE) {
          target = { col, band, cell, x: LABEL_WIDTH + col + 0.5, y: RULER_HEIGHT + band * bandHeight + bandHeight / 2 };
          break search;
        }
      }
    }
    assert.ok(target, 'a cell whose rows spend unequal shares of it in its state');
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + target.x, box.y + target.y);
    const h = await until(hooks, (h) => h.hover && !h.hover.endsWith('loading'), 5000);
    const { cell, band } = target;
    const first = order[band * group];
    const last = order[Math.min(RANKS, (band + 1) * group) - 1];
    const n = Math.min(RANKS, (band + 1) * group) - band * group;
    const name = summary.states[cell.state].name;
    const want =
      `${rowName(summary, first)} – ${rowName(summary, last)} (${n} rows): ${cell.rows} of ${n} rows in ${name}, ${cell.busy} busy; ` +
      `min ${share(cell.min)} (${rowName(summary, cell.minRow)}) · median ${share(cell.median)} · ` +
      `max ${share(cell.max)} (${rowName(summary, cell.maxRow)})`;
    assert.equal(h.hover, want, 'data-hover');
    // The rows named are of the band.
    const ofBand = order.slice(band * group, band * group + n);
    assert.ok(ofBand.includes(cell.minRow) && ofBand.includes(cell.maxRow), 'min and max rows in the band');
  });

  await check('the band-statistic switch repaints the cell shaded by the chosen statistic', async () => {
    assert.ok(target, 'a cell was found');
    const { cell, band } = target;
    const stateName = summary.states[cell.state].name;
    const rgb = hexToRgb(await page.locator(`li[data-state="${stateName}"] input[type=color]`).inputValue());
    // The pointer off the plot, so its hover box covers nothing compared.
    await page.mouse.move(5, 5);
    const d = await settled();
    const bands = Math.ceil(RANKS / Number(d.rowsGroup));
    const bandHeight = Math.max(1, Math.floor((d.height - RULER_HEIGHT) / bands));
    const y = RULER_HEIGHT + band * bandHeight;
    assert.deepEqual(await pixel(target.x, y), rgb, `dominant: ${stateName}'s colour`);
    await plotPixels(true);
    const select = page.getByTestId('compact-stat');
    for (const stat of ['min', 'median', 'max']) {
      await select.selectOption(stat);
      await settled((h) => h.bandStat === stat);
      await page.waitForTimeout(100);
      assert.deepEqual(await pixel(target.x, y), shaded(rgb, cell[stat]), `${stat}: ${stateName}'s colour shaded by ${share(cell[stat])}`);
    }
    await select.selectOption('min');
    await settled((h) => h.bandStat === 'min');
    await page.waitForTimeout(100);
    const { count, changed } = await plotPixels(false);
    writeFileSync(join(args.out, 'compact-stats-min.png'), await page.screenshot());
    assert.ok(changed > count / 20, `min repaints much of the plot: ${changed} of ${count} px changed`);
    await select.selectOption('dominant');
    await settled((h) => h.bandStat === 'dominant');
    await page.waitForTimeout(100);
    assert.deepEqual(await pixel(target.x, y), rgb, 'dominant again');
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('compact band statistics checks');
