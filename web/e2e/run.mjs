// End-to-end tests of the viewer: a real `parallax serve` on 127.0.0.1 over
// the demo trace, driven in headless Chromium. Pictures are checked by their
// content: the colour on screen (in a real screenshot) where a known slice
// is, and the colours inside the exported PNG and SVG.
//
//   node e2e/run.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it). Prints one line per
// check and exits non-zero when any fails.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, selectSlice, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('run.mjs', { out: 'e2e-out' });

const { check, fail, finish } = checks();

const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b, tol = 12) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

/** Colours at points of a PNG (as bytes), decoded by the browser itself. */
async function pngPixels(page, png, points) {
  return page.evaluate(
    async ({ b64, points }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      return {
        width: img.width,
        height: img.height,
        pixels: points.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3))),
      };
    },
    { b64: png.toString('base64'), points },
  );
}

/** The colour in a real screenshot at a point of the timeline canvas (CSS px). */
async function screenPixel(page, x, y) {
  const box = await page.locator('#timeline canvas').first().boundingBox();
  const shot = await page.screenshot();
  const { pixels } = await pngPixels(page, shot, [[box.x + x, box.y + y]]);
  return pixels[0];
}

/** Where a slice's middle is on the timeline canvas right now. */
async function slicePoint(page, slice) {
  return page.evaluate((s) => {
    const t = window.parallax.timeline;
    const x0 = Math.max(t.timeToX(s.begin), 200);
    const x1 = t.timeToX(s.end);
    return { x: (x0 + x1) / 2, y: t.laneY(s.row, s.depth), width: x1 - x0 };
  }, slice);
}

/**
 * A point of the slice's bar that shows `rgb` on screen. Message arrows may
 * cross the bar anywhere (the demo is recorded afresh for every run; one from
 * far before the window to far after it runs along the whole bar), so try
 * points along it, on its middle line and near its top and bottom edges, for
 * up to 5 s while tiles arrive; x null if none does.
 */
async function colouredPoint(page, slice, rgb) {
  const fractions = [0.5, 0.3, 0.7, 0.15, 0.85, 0.4, 0.6, 0.25, 0.75];
  const deadline = Date.now() + 5000;
  for (;;) {
    const span = await slicePoint(page, slice);
    const lane = await page.evaluate((s) => {
      const t = window.parallax.timeline;
      return t.laneY(s.row, s.depth + 1) - t.laneY(s.row, s.depth);
    }, slice);
    const box = await page.locator('#timeline canvas').first().boundingBox();
    const points = [];
    for (const edge of [0, -1, 1])
      for (const f of fractions)
        points.push([span.x - span.width / 2 + f * span.width, span.y + edge * Math.max(0, lane / 2 - 2)]);
    const { pixels } = await pngPixels(page, await page.screenshot(), points.map(([x, y]) => [box.x + x, box.y + y]));
    const i = pixels.findIndex((c) => near(c, rgb));
    if (i >= 0) return { x: points[i][0], y: points[i][1], pixels };
    if (Date.now() > deadline) return { x: null, y: span.y, pixels };
    await new Promise((r) => setTimeout(r, 100));
  }
}

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(120000);
  const summary = await server.api(`/traces/${trace.id}/summary`);
  const stateByName = new Map(summary.states.map((s) => [s.name, s]));
  // The state every rank of the demo spends its waiting in.
  const recv = stateByName.get('MPI_Recv');
  assert.ok(recv, `the demo trace has MPI_Recv (states: ${[...stateByName.keys()]})`);

  await check('requests without the token are refused (401), with it served', async () => {
    for (const path of ['/', '/api/v1/traces', `/api/v1/traces/${trace.id}/summary`]) {
      assert.equal((await server.fetchWithout(path)).status, 401, path);
    }
    const bad = await fetch(`${server.origin}/api/v1/traces/${trace.id}/tile?rows=zz&from=0&to=1&width=9`,
                            { headers: { Authorization: `Bearer ${server.token}` } });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /parameter 'rows'/);
    assert.equal((await server.api('/traces')).traces.length, 1);
  });

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);

  await check('the demo trace opens: rows, legend, first tiles drawn, no errors', async () => {
    await page.goto(server.url);
    await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    // The colours the viewer draws: recorded ones, else its palette's.
    const drawn = await page.evaluate(() => window.parallax.stateColors());
    for (const s of summary.states) s.color = drawn[s.index];
    assert.ok(summary.states.every((s) => /^#[0-9a-f]{6}$/.test(s.color)), JSON.stringify(drawn));
    assert.equal(await page.locator('[data-testid=legend] [data-state="MPI_Recv"]').count(), 1);
    assert.deepEqual(await page.evaluate(() => window.parallax.errors()), []);
    const w = await page.evaluate(() => window.parallax.timeline.window());
    assert.ok(w.from <= 0 && w.to >= summary.duration * 0.99, JSON.stringify(w));
    assert.equal(await page.locator('[data-testid=progress]:visible').count(), 0);
  });

  await check('zoom with W and the wheel, pan with D and by dragging', async () => {
    const win = () => page.evaluate(() => window.parallax.timeline.window());
    const canvas = page.locator('#timeline canvas').first();
    const box = await canvas.boundingBox();
    await canvas.click({ position: { x: 600, y: 10 } });  // focus; on the ruler, selects nothing
    const width = (w) => w.to - w.from;
    const w0 = await win();
    await page.keyboard.press('w');
    const w1 = await until(win, (w) => width(w) < width(w0) * 0.95);
    assert.ok(width(w1) < width(w0) * 0.95, `W zooms in: ${JSON.stringify([w0, w1])}`);
    await page.mouse.move(box.x + 700, box.y + 100);
    await page.mouse.wheel(0, -400);
    const w2 = await until(win, (w) => width(w) < width(w1) * 0.95);
    assert.ok(width(w2) < width(w1) * 0.95, `the wheel zooms in: ${JSON.stringify([w1, w2])}`);
    await page.keyboard.press('d');
    const w3 = await until(win, (w) => w.from > w2.from);
    assert.ok(w3.from > w2.from, `D pans right: ${JSON.stringify([w2, w3])}`);
    await page.mouse.move(box.x + 700, box.y + 300);
    await page.mouse.down();
    await page.mouse.move(box.x + 900, box.y + 300, { steps: 5 });
    await page.mouse.up();
    const w4 = await until(win, (w) => w.from < w3.from);
    assert.ok(w4.from < w3.from, `dragging right pans left: ${JSON.stringify([w3, w4])}`);
    assert.ok(Math.abs((w4.to - w4.from) - (w3.to - w3.from)) < (w3.to - w3.from) * 0.01, 'a pan keeps the width');
  });

  // The histogram's selection: the longest MPI_Recv calls of the whole trace
  // (the tab covers the zoomed window, so the timeline shows all of it first).
  let expected = null;
  let target = null;  // a selected slice, shown after the jump
  let barPoint = null;  // a point of its bar that shows its colour on screen

  await check('histogram of MPI_Recv: p99 selects slices and they blink in the timeline', async () => {
    await page.evaluate(() => window.parallax.timeline.setWindow(0, 1e18));
    await page.locator('[data-view=histogram]').click();
    await page.locator('select[data-testid=state]').selectOption(String(recv.index));
    const panel = page.locator('[data-testid=panel]');
    const scope = await until(() => panel.evaluate((el) => ({ ...el.dataset })), (d) => d.scope === 'trace' && d.pending === undefined, 15000);
    assert.equal(scope.scope, 'trace', `the tab covers the whole trace: ${JSON.stringify(scope)}`);
    expected = await server.api(`/traces/${trace.id}/histogram?state=${recv.index}&method=percentile&percentile=99`);
    await page.locator('[data-testid=select-p99]').click();
    await page.waitForFunction((n) => window.parallax.timeline.highlighted().length === n,
                               expected.selection.length, { timeout: 20000 });
    const highlighted = await page.evaluate(() => window.parallax.timeline.highlighted());
    assert.ok(highlighted.length > 0, 'something is selected');
    assert.deepEqual([...highlighted].sort((a, b) => a - b),
                     expected.selection.map((a) => a.slice.id).sort((a, b) => a - b));
    // The bins slider refetches with the new count.
    const slider = page.locator('input[data-testid=bins]');
    await slider.fill('7');
    await page.waitForFunction(() => document.querySelector('[data-testid=bins-value]')?.textContent?.includes('7'));

    // Jump to the longest selected slice from the list, then watch it blink.
    await page.locator('[data-testid=selected-slice]').first().click();
    target = expected.selection[0].slice;
    await page.waitForFunction((id) => window.parallax.timeline.selected() === id, target.id, { timeout: 10000 });
    const p = await until(() => slicePoint(page, target), (q) => q.width >= 4);
    assert.ok(p.width >= 4, `the jump shows the slice ${p.width.toFixed(1)} px wide`);
    // Blinking: over up to 3 s of screenshots, the bar shows two colours.
    const distinct = new Set();
    for (let i = 0; i < 24 && distinct.size < 2; i++) {
      distinct.add((await screenPixel(page, p.x, p.y)).join(','));
      await page.waitForTimeout(110);
    }
    assert.ok(distinct.size >= 2, `the highlighted bar changes colour over time: ${[...distinct]}`);
    writeFileSync(join(args.out, 'highlight.png'), await page.screenshot());
  });

  await check('a slice shows its state colour; clicking it shows its details', async () => {
    // Leaving the histogram clears its highlight, so the bar has its own colour.
    await page.locator('[data-view=stats]').click();
    await page.waitForFunction(() => window.parallax.timeline.highlighted().length === 0);
    const p = await colouredPoint(page, target, hexToRgb(recv.color));
    assert.ok(p.x !== null, `the bar shows MPI_Recv's ${recv.color} somewhere: ${p.pixels.join(' ')}`);
    barPoint = p;
    const details = page.locator('[data-testid=details]');
    const name = () => page.evaluate(
      () => document.querySelector('[data-testid=details] dd[data-field=name]')?.textContent ?? '');
    const canvas = page.locator('#timeline canvas').first();
    const canvasBox = await canvas.boundingBox();
    // A click on empty space below the rows clears the details first.
    const clear = async () => {
      await canvas.click({ position: { x: 600, y: canvasBox.height - 3 } });
      assert.equal(await until(name, (n) => !n, 1500), '', 'the details are cleared');
    };
    assert.equal(await selectSlice(page, target, clear), target.id, 'the slice is selected');
    const shown = await until(name, (n) => n === 'MPI_Recv', 3000);
    assert.equal(shown, 'MPI_Recv', 'the details panel names the clicked state');
    const text = await details.innerText();
    assert.match(text, /duration/i);
    assert.match(text, /rank \d/);
  });

  await check('hiding a state in the legend removes its bars; showing it brings them back', async () => {
    const p = barPoint;
    const box = page.locator('[data-testid=legend] [data-state="MPI_Recv"] input[type=checkbox]');
    const pixel = () => screenPixel(page, p.x, p.y);
    const isRecv = (c) => near(c, hexToRgb(recv.color));
    await box.uncheck();
    const hidden = await until(pixel, (c) => !isRecv(c));
    assert.ok(!isRecv(hidden), `hidden: pixel ${hidden} is no longer ${recv.color}`);
    await box.check();
    assert.ok(isRecv(await until(pixel, isRecv)), 'shown again');
  });

  await check('export the timeline as PNG and SVG: the slice is in both', async () => {
    const p = barPoint;
    await page.locator('#timeline canvas').first().click({ position: { x: 600, y: 10 } });
    const [png] = await Promise.all([page.waitForEvent('download'),
                                     page.locator('[data-testid=export-png]').click()]);
    const pngPath = join(args.out, png.suggestedFilename());
    await png.saveAs(pngPath);
    const bytes = readFileSync(pngPath);
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
    const canvasBox = await page.locator('#timeline canvas').first().boundingBox();
    const decoded = await pngPixels(page, bytes, []);
    // The PNG is drawn at a larger scale than the screen: find the slice there.
    const scale = decoded.width / canvasBox.width;
    const { pixels } = await pngPixels(page, bytes, [[p.x * scale, p.y * scale]]);
    assert.ok(near(pixels[0], hexToRgb(recv.color)), `PNG pixel ${pixels[0]} at the slice is ${recv.color}`);

    const [svg] = await Promise.all([page.waitForEvent('download'),
                                     page.locator('[data-testid=export-svg]').click()]);
    const svgPath = join(args.out, svg.suggestedFilename());
    await svg.saveAs(svgPath);
    const text = readFileSync(svgPath, 'utf8');
    assert.match(text, /^<\?xml|^<svg/);
    assert.ok(text.includes(recv.color) || text.includes(recv.color.toUpperCase()),
              `the SVG fills something with ${recv.color}`);
    // Rendered by the browser, the SVG shows the slice in its colour too.
    const shown = await page.evaluate(async (svgText) => {
      const img = new Image();
      img.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(svgText)))}`;
      await img.decode();
      return { width: img.width, height: img.height };
    }, text);
    assert.ok(shown.width > 100 && shown.height > 50, JSON.stringify(shown));
  });

  await check('the communication matrix shows messages between ranks', async () => {
    const matrix = await server.api(`/traces/${trace.id}/matrix`);
    assert.ok(matrix.total_count > 0);
    await page.locator('[data-view=matrix]').click();
    const chart = page.locator('[data-testid=matrix-chart]');
    await chart.waitFor({ timeout: 10000 });
    const colourCount = async () => {
      const shot = await chart.screenshot();
      const box = await chart.boundingBox();
      const points = [];
      for (let y = 0; y < box.height; y += 4) for (let x = 0; x < box.width; x += 4) points.push([x, y]);
      const { pixels } = await pngPixels(page, shot, points);
      return new Set(pixels.map((c) => c.join(',')));
    };
    const colours = await until(colourCount, (c) => c.size >= 4);
    assert.ok(colours.size >= 4, `the heatmap has several colours (${colours.size})`);
    // Exporting the matrix gives its own picture.
    await chart.click();
    const [png] = await Promise.all([page.waitForEvent('download'),
                                     page.locator('[data-testid=export-png]').click()]);
    assert.match(png.suggestedFilename(), /matrix/);
  });

  await check('diagnostics entries jump to their place in the timeline', async () => {
    await page.locator('[data-view=diagnostics]').click();
    const finding = page.locator('[data-testid=finding][data-kind=late-sender]').first();
    await finding.waitFor({ timeout: 10000 });
    const before = await page.evaluate(() => window.parallax.timeline.window());
    await finding.click();
    const after = await until(() => page.evaluate(() => window.parallax.timeline.window()),
                              (w) => w.from !== before.from || w.to !== before.to);
    assert.notDeepEqual(after, before);
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish();
