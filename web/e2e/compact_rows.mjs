// End-to-end tests of the timeline's compact mode (src/views/timeline/
// compact*.ts) on a synthetic trace of 16,384 ranks at 1600 × 1000: the C
// key shows every rank on one screen (data-rows-shown 16384, several rows a
// pixel row), the top and bottom bands are painted in the colour of the
// state /rowmap gives for their cells (asked again from the page with the
// viewer's token and decoded here), a ctrl-drag over bands selects their
// rows, every /rowmap the page asked answered
// 200, the wheel zooms with every rank kept, 8 px rows show about a height's
// worth and scroll, C again gives the normal timeline, a folded host shows
// the state most of its ranks are in (folded_strips.ts), and a copied URL
// opens in compact mode. A real `parallax serve`, headless Chromium.
//
//   node e2e/compact_rows.mjs --writer WRITE_MPI_TRACE --parallax PARALLAX --out DIR [--docs-images DIR]
//
// WRITE_MPI_TRACE is bench/write_mpi_trace (it writes the trace into OUT
// once, about a second). PLX_WEB_DIR picks the built viewer to serve
// (harness.mjs). The screenshot of all ranks goes to OUT/compact-16384.png,
// and with --docs-images (e.g. ../docs/images) there too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, launchBrowser, parseArgs, startServer, until, watchPageErrors } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { writer: '', parallax: '', out: 'e2e-compact-rows-out', 'docs-images': '' });
if (!args.writer || !args.parallax) {
  console.error('usage: compact_rows.mjs --writer WRITE_MPI_TRACE --parallax PARALLAX [--out DIR] [--docs-images DIR]');
  process.exit(2);
}
mkdirSync(args.out, { recursive: true });
const RANKS = 16384;
const LABEL_WIDTH = 200;
const RULER_HEIGHT = 24;
// The viewer's /rowmap tiles (src/views/timeline/compact.ts): 512 px by the
// bands of about 1024 rows.
const TILE_PX = 512;
const bandBlock = (group) => Math.min(256, Math.max(1, Math.floor(1024 / group)));
const { check, fail, finish } = checks();

const made = spawnSync(args.writer, ['400000', String(RANKS)], { encoding: 'utf8', env: { ...process.env, PLX_BENCH_DIR: args.out } });
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
  // Every /rowmap the page asks: its status and how long it took.
  const rowmaps = [];
  const record = (req, failed) => {
    if (!req.url().includes('/rowmap?')) return;
    const t = req.timing();
    rowmaps.push({ url: req.url(), failed, ms: t.responseEnd, status: null, req });
  };
  page.on('requestfinished', (req) => record(req, false));
  page.on('requestfailed', (req) => record(req, true));
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 120000 });
  const canvas = page.locator('#timeline canvas').first();
  const hooks = () => canvas.evaluate((c) => ({ ...c.dataset, width: c.clientWidth, height: c.clientHeight }));
  /** The hooks once the compact mode has every tile it asked for and `ok` holds; fails if that does not come. */
  async function settled(ok = () => true, ms = 60000) {
    const d = await until(hooks, (d) => d.compact === '1' && d.rowmapPending === '0' && ok(d), ms, 100);
    assert.ok(d.compact === '1' && d.rowmapPending === '0' && ok(d), `compact mode with every tile in: ${JSON.stringify(d)}`);
    return d;
  }

  await check('the C key shows every rank on one screen, several rows a pixel row', async () => {
    await page.mouse.move(800, 500);
    await page.keyboard.press('c');
    const d = await settled((d) => d.rowsShown === String(RANKS));
    assert.equal(d.compact, '1', 'data-compact');
    assert.equal(d.rowsShown, String(RANKS), `every rank shown: ${JSON.stringify(d)}`);
    assert.ok(Number(d.rowsGroup) >= 2, `several rows a band: ${d.rowsGroup}`);
    assert.equal(d.rowmapPending, '0');
    const shot = await page.screenshot();
    writeFileSync(join(args.out, 'compact-16384.png'), shot);
    if (args['docs-images']) {
      mkdirSync(args['docs-images'], { recursive: true });
      writeFileSync(join(args['docs-images'], 'compact-16384.png'), shot);
    }
  });

  /**
   * The state /rowmap gives for the cell the viewer draws at plot column
   * `col` in `band`: the same tile asked again from the page, decoded here.
   */
  async function stateAt(col, band) {
    const d = await hooks();
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
    const q = `rows=${rows}&from=${ti * span}&to=${(ti + 1) * span}&width=${TILE_PX}&group=${group}`;
    const bytes = await page.evaluate(async ([path, token, cell]) => {
      const res = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
      const buf = await res.arrayBuffer();
      // The header (40 bytes) and the one cell (8 bytes).
      return [...new Uint8Array(buf, 0, 40), ...new Uint8Array(buf, 40 + cell * 8, 8)];
    }, [`/api/v1/traces/${trace.id}/rowmap?${q}`, server.token, (band - block) * TILE_PX + px]);
    const v = new DataView(Uint8Array.from(bytes).buffer);
    assert.equal(v.getUint32(0, true), 0x524c5850, 'a row map (magic)');
    assert.deepEqual([v.getUint32(24, true), v.getUint32(28, true), v.getUint32(32, true)], [TILE_PX, n, group], 'width, bands, group');
    return { state: v.getUint32(40, true), rows: v.getUint16(44, true), busy: v.getUint16(46, true) };
  }

  /** The canvas pixel at CSS (x, y), as [r, g, b]. */
  const pixel = (x, y) => canvas.evaluate((c, [x, y]) => {
    const dpr = c.width / c.clientWidth;
    return [...c.getContext('2d').getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data.slice(0, 3)];
  }, [x, y]);

  const stateColor = async (state) => {
    const name = summary.states[state].name;
    return { name, rgb: hexToRgb(await page.locator(`li[data-state="${name}"] input[type=color]`).inputValue()) };
  };

  await check('the top and the bottom band (the last ranks) show the colour of the state /rowmap gives there', async () => {
    const d = await settled();
    const group = Number(d.rowsGroup);
    const bands = Math.ceil(RANKS / group);
    const bandHeight = Math.max(1, Math.floor((d.height - RULER_HEIGHT) / bands));
    const plotWidth = d.width - LABEL_WIDTH;
    for (const [what, band] of [['top', 0], ['bottom', bands - 1]]) {
      const y = RULER_HEIGHT + band * bandHeight;
      // Columns across the plot where the band has a slice.
      let compared = 0;
      for (let col = Math.floor(plotWidth * 0.05); col < plotWidth && compared < 5; col += Math.floor(plotWidth / 23)) {
        const cell = await stateAt(col, band);
        const px = await pixel(LABEL_WIDTH + col, y);
        if (cell.state === 0xffffffff) {
          assert.deepEqual(px, [255, 255, 255], `${what} band, column ${col}: no slice, background`);
          continue;
        }
        const { name, rgb } = await stateColor(cell.state);
        assert.notDeepEqual(px, [255, 255, 255], `${what} band, column ${col}: not background`);
        assert.deepEqual(px, rgb, `${what} band, column ${col}: ${name} (${cell.rows} of ${group} rows, ${cell.busy} busy)`);
        compared++;
      }
      assert.ok(compared >= 3, `${what} band: states compared at ${compared} columns`);
    }
  });

  await check('a ctrl-drag over bands selects their rows and the time range', async () => {
    const d = await settled();
    const group = Number(d.rowsGroup);
    const bands = Math.ceil(RANKS / group);
    const bandHeight = Math.max(1, Math.floor((d.height - RULER_HEIGHT) / bands));
    const box = await canvas.boundingBox();
    // From the middle of band 2 to the middle of band 5, over a fifth of the plot.
    const y0 = RULER_HEIGHT + 2.5 * bandHeight;
    const y1 = RULER_HEIGHT + 5.5 * bandHeight;
    const [x0, x1] = [LABEL_WIDTH + 300, LABEL_WIDTH + 300 + (d.width - LABEL_WIDTH) / 5];
    await page.mouse.move(box.x + x0, box.y + y0);
    await page.keyboard.down('Control');
    await page.mouse.down();
    await page.mouse.move(box.x + x1, box.y + y1, { steps: 8 });
    await page.mouse.up();
    await page.keyboard.up('Control');
    const a = await until(() => page.evaluate(() => window.parallax.timeline.area()), (a) => a !== null, 3000);
    assert.ok(a, 'an area is selected');
    const expected = order.slice(2 * group, 6 * group).sort((p, q) => p - q);
    assert.deepEqual(a.rows, expected, `the rows of bands 2 to 5 (${a.rows.length} rows)`);
    const t = await page.evaluate(([x0, x1]) => [window.parallax.timeline.xToTime(x0), window.parallax.timeline.xToTime(x1)], [x0, x1]);
    assert.ok(Math.abs(a.from - t[0]) <= (t[1] - t[0]) / 50 && Math.abs(a.to - t[1]) <= (t[1] - t[0]) / 50, `the times dragged: ${JSON.stringify(a)}`);
    await page.keyboard.press('Escape');
    assert.equal(await until(() => page.evaluate(() => window.parallax.timeline.area()), (a) => a === null, 3000), null, 'Escape clears it');
  });

  await check('the wheel zooms in with every rank kept, asking new row maps', async () => {
    const before = rowmaps.length;
    const w0 = await page.evaluate(() => window.parallax.timeline.window());
    await page.mouse.move(LABEL_WIDTH + 600, 400);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
    const w = await until(() => page.evaluate(() => window.parallax.timeline.window()), (w) => w.to - w.from < (w0.to - w0.from) * 0.5, 5000);
    assert.ok(w.to - w.from < (w0.to - w0.from) * 0.5, `zoomed in: ${JSON.stringify(w)} from ${JSON.stringify(w0)}`);
    const d = await settled();
    assert.equal(d.rowsShown, String(RANKS), 'every rank still shown');
    assert.ok(rowmaps.length > before, `new /rowmap requests (${rowmaps.length - before})`);
    // How long painting every rank takes (told, not asserted): a few more frames with every tile in.
    const ms = [];
    for (let i = 0; i < 5; i++) {
      await page.mouse.move(LABEL_WIDTH + 500 + 20 * i, 300);
      await page.waitForTimeout(50);
      ms.push(await page.evaluate(() => window.parallax.timeline.lastFrameMs()));
    }
    console.log(`# compact frames of ${d.width} x ${d.height} px: ${ms.map((m) => m.toFixed(1)).join(', ')} ms`);
  });

  await check('8 px rows show a screen height of rows, and scrolling changes which', async () => {
    await page.locator('[data-testid=compact-rows]').selectOption('8');
    const d = await settled((d) => d.rowsGroup === '1');
    const expected = (d.height - RULER_HEIGHT) / 8;
    assert.ok(Math.abs(Number(d.rowsShown) - expected) <= 2, `rows shown ${d.rowsShown}, about ${expected}`);
    assert.equal(d.rowsFirst, String(order[0]), 'from the first row');
    await page.mouse.move(100, 500);
    await page.mouse.wheel(0, 8000);
    const s = await settled((x) => x.rowsFirst !== d.rowsFirst);
    assert.ok(Number(order.indexOf(Number(s.rowsFirst))) >= 900, `scrolled about 1000 rows: now from row ${s.rowsFirst}`);
    assert.ok(Math.abs(Number(s.rowsShown) - expected) <= 2, `still a screen of rows: ${s.rowsShown}`);
    // The hover words name the band's row and its state.
    await page.mouse.move(LABEL_WIDTH + 400, 300);
    const h = await until(hooks, (x) => (x.hover ?? '').length > 0, 3000);
    assert.match(h.hover, /^rank \d+: /, `hover words: ${JSON.stringify(h.hover)}`);
  });

  await check('C again gives the normal timeline', async () => {
    await page.keyboard.press('c');
    const d = await until(hooks, (d) => d.compact === undefined, 5000);
    assert.equal(d.compact, undefined, 'no data-compact');
    assert.equal(d.rowsGroup, '1');
    assert.ok(Number(d.rowsShown) > 0 && Number(d.rowsShown) < 200, `the normal rows on screen: ${d.rowsShown}`);
  });

  await check('a folded host shows the state most of its ranks are in, as /rowmap of all its rows gives', async () => {
    await page.evaluate(() => window.parallax.timeline.setWindow(0, 1e18));
    // A click on the host's header (the first line under the ruler) folds it.
    const box = await canvas.boundingBox();
    await page.mouse.click(box.x + 60, box.y + RULER_HEIGHT + 10);
    const d = await until(hooks, (x) => x.rowsShown === String(RANKS), 5000);
    assert.equal(d.rowsShown, String(RANKS), 'the folded host stands for every rank');
    const w = await page.evaluate(() => window.parallax.timeline.window());
    const plotWidth = d.width - LABEL_WIDTH;
    const res = Math.pow(2, Math.floor(Math.log2((w.to - w.from) / plotWidth)));
    const span = res * TILE_PX;
    // The strip sits inside the header (20 px, under the ruler), 4 px in;
    // messages between the folded ranks are drawn along its middle.
    const y = RULER_HEIGHT + 5;
    let compared = 0;
    for (let col = Math.floor(plotWidth * 0.05); col < plotWidth * 0.95 && compared < 6; col += Math.floor(plotWidth / 13)) {
      const t = w.from + ((col + 0.5) * (w.to - w.from)) / plotWidth;
      const ti = Math.floor(t / span);
      const px = Math.min(TILE_PX - 1, Math.floor((t - ti * span) / res));
      const q = `rows=0-${RANKS - 1}&from=${ti * span}&to=${(ti + 1) * span}&width=${TILE_PX}&group=${RANKS}`;
      const state = await page.evaluate(async ([path, token, cell]) => {
        const res = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
        if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
        return new DataView(await res.arrayBuffer()).getUint32(40 + cell * 8, true);
      }, [`/api/v1/traces/${trace.id}/rowmap?${q}`, server.token, px]);
      if (state === 0xffffffff) continue;
      const { name, rgb } = await stateColor(state);
      const got = await until(() => pixel(LABEL_WIDTH + col, y), (p) => p.join() === rgb.join(), 5000);
      assert.deepEqual(got, rgb, `column ${col}: ${name}`);
      compared++;
    }
    assert.ok(compared >= 4, `states compared at ${compared} columns`);
    await page.mouse.click(box.x + 60, box.y + RULER_HEIGHT + 10); // unfolded again
  });

  await check('a copied URL in compact mode (the toolbar toggle) opens in compact mode', async () => {
    await page.locator('[data-testid=compact-rows]').selectOption('fit');
    await page.locator('[data-testid=compact-toggle]').uncheck();
    await until(hooks, (d) => d.compact === undefined, 5000);
    await page.locator('[data-testid=compact-toggle]').check();
    await settled((d) => d.rowsShown === String(RANKS));
    const url = await until(() => page.url(), (u) => new URL(u).searchParams.get('compact') === 'fit', 3000);
    assert.equal(new URL(url).searchParams.get('compact'), 'fit', `the URL says so: ${url}`);
    const again = await context.newPage();
    await again.goto(url);
    await again.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 120000 });
    const c2 = again.locator('#timeline canvas').first();
    const d = await until(() => c2.evaluate((c) => ({ ...c.dataset })), (d) => d.compact === '1' && d.rowmapPending === '0', 60000);
    assert.equal(d.compact, '1', 'compact mode');
    assert.equal(d.rowsShown, String(RANKS), 'every rank');
    assert.equal(await again.locator('[data-testid=compact-toggle]').isChecked(), true, 'the toolbar says so');
    await again.close();
  });

  await check('every /rowmap the page asked answered 200', async () => {
    assert.ok(rowmaps.length > 0, 'some were asked');
    for (const r of rowmaps) r.status = r.failed ? 'failed' : (await r.req.response())?.status() ?? null;
    const bad = rowmaps.filter((r) => r.status !== 200);
    assert.deepEqual(bad.map((r) => `${r.status} ${r.url.slice(0, 200)}`), [], 'all 200');
    const slow = [...rowmaps].sort((a, b) => b.ms - a.ms).slice(0, 3);
    const median = [...rowmaps].map((r) => r.ms).sort((a, b) => a - b)[Math.floor(rowmaps.length / 2)];
    console.log(`# ${rowmaps.length} /rowmap requests, median ${median.toFixed(0)} ms, slowest:`);
    for (const r of slow) console.log(`#   ${r.ms.toFixed(0)} ms ${decodeURIComponent(r.url.replace(/^.*\?/, '')).slice(0, 160)}`);
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('compact mode checks');
