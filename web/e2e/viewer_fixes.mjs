// End-to-end tests of viewer fixes that unit tests alone covered: a search
// match shown in the window's own width, the result list folded off the
// timeline (src/widgets/search.ts); exported pictures with a caption naming
// the trace, the time range and the states (src/widgets/export_caption.ts);
// the diagnostics lists ranked by cost, with their totals, trivial findings
// without a warning sign (src/views/diagnostics, src/analysis/finding_severity.h);
// the "?" help's row keys (src/widgets/help.ts); ruler, mountain axis and
// pointer times printed as finely as the zoom needs (src/base/format.ts).
// What web/e2e/legibility.mjs and linked_events.mjs assert already (details
// begin/end, shift+wheel, the other help keys, "Late senders (200 of N)") is
// not repeated. A real `parallax serve` over the demo trace, headless Chromium.
//
//   node e2e/viewer_fixes.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it); PLX_WEB_DIR picks
// the built viewer to serve (harness.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('viewer_fixes.mjs', { out: 'e2e-viewer-fixes-out' });
const { check, fail, finish } = checks();

const UNIT_NS = { s: 1e9, ms: 1e6, 'µs': 1e3, ns: 1 };
/** '10.0015 ms' → [10001500, 'ms']; the origin label '0' → [0, '']. */
function parseTime(text) {
  if (text.trim() === '0') return [0, ''];
  const m = text.trim().match(/^(-?[\d.]+) (s|ms|µs|ns)$/);
  assert.ok(m, `a time with a unit: ${JSON.stringify(text)}`);
  return [Number(m[1]) * UNIT_NS[m[2]], m[2]];
}
const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b, tol = 12) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

/**
 * Records every canvas fillText (text, x, y, the canvas's class, a running
 * number), installed before the page's own scripts: what the timeline's ruler
 * and the mountain strip print is read from there.
 */
function recordCanvasText() {
  const log = [];
  let seq = 0;
  window.__plxTexts = { log, seq: () => seq };
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    log.push({ seq: ++seq, canvas: this.canvas.className, text: String(text), x, y });
    if (log.length > 50000) log.splice(0, 25000);
    return fillText.call(this, text, x, y, ...rest);
  };
}

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(120000);
  const api = (path) => server.api(`/traces/${trace.id}${path}`);
  const summary = await api('/summary');
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  await page.addInitScript(recordCanvasText);
  const noPageErrors = watchPageErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  const canvas = page.locator('#timeline canvas').first();
  const win = () => page.evaluate(() => window.parallax.timeline.window());
  const setWindow = async (from, to) => {
    await page.evaluate(([a, b]) => window.parallax.timeline.setWindow(a, b), [from, to]);
    await until(win, (w) => Math.abs(w.from - from) < 1 && Math.abs(w.to - to) < 1, 3000);
  };
  const selected = () => page.evaluate(() => window.parallax.timeline.selected());
  // The middle of the run's messaging (the MPI farm spends most of its time in MPI_Init first).
  const sends = (await api('/search?q=MPI_Send&limit=10000')).slices;
  assert.ok(sends.length > 10, 'the demo trace has MPI_Send slices');
  const busy = sends[Math.floor(sends.length / 2)].begin;

  await check('search: a match is shown in the same window width, centred, selected, the list folded off the timeline', async () => {
    const input = page.locator('[data-testid=search] input');
    const list = page.locator('[data-testid=search-results]');
    const q = 'MPI_Recv';
    const found = await api(`/search?q=${q}&limit=100`); // what the box asks for (LIMIT in search.ts)
    const width = 2_000_000; // 2 ms: every receive of the demo but the longest fits in half of it
    const fits = (s) => s.end - s.begin <= width / 4 && s.begin > width && s.end < summary.duration - width;
    const i = found.slices.findIndex((s, k) => k > 0 && fits(s) && found.slices[k + 1] && fits(found.slices[k + 1]));
    assert.ok(i > 0, 'the demo has receives that fit the window, away from its ends');
    await setWindow(summary.duration / 2, summary.duration / 2 + width);
    await input.fill(q);
    await list.waitFor({ state: 'visible', timeout: 5000 });
    assert.equal(await list.locator('button.search-hit').count(), found.slices.length, 'the list holds the matches');

    /** The window shows `s` centred at the width `w`; `s` is selected, on screen, not covered by the list. */
    const shows = async (s, w, what) => {
      const mid = (s.begin + s.end) / 2;
      const got = await until(win, (x) => Math.abs((x.from + x.to) / 2 - mid) < 1 && Math.abs(x.to - x.from - w) <= w * 1e-6 + 1);
      assert.ok(Math.abs(got.to - got.from - w) <= w * 1e-6 + 1, `${what}: the width ${w} is kept: ${JSON.stringify(got)}`);
      assert.ok(Math.abs((got.from + got.to) / 2 - mid) < 1, `${what}: centred on the match at ${mid}: ${JSON.stringify(got)}`);
      assert.equal(await until(selected, (id) => id === s.id), s.id, `${what}: the match is selected`);
      const box = await canvas.boundingBox();
      const listBox = (await list.isVisible()) ? await list.boundingBox() : null;
      const labels = Number(await canvas.getAttribute('data-label-width'));
      // The plot: right of the label column, below the ruler (its top 20 px).
      const overlaps = listBox && listBox.x < box.x + box.width && listBox.x + listBox.width > box.x + labels &&
        listBox.y < box.y + box.height && listBox.y + listBox.height > box.y + 20;
      assert.ok(!overlaps, `${what}: the result list ${JSON.stringify(listBox)} covers the timeline's plot ${JSON.stringify(box)}`);
      const p = await page.evaluate((s) => {
        const t = window.parallax.timeline;
        return { x: (t.timeToX(s.begin) + t.timeToX(s.end)) / 2, y: t.laneY(s.row, s.depth) };
      }, s);
      const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.className, [box.x + p.x, box.y + p.y]);
      assert.equal(hit, 'timeline-canvas', `${what}: the match's bar at (${p.x}, ${p.y}) is not covered`);
    };

    // A click in the list.
    await list.locator(`button[data-slice="${found.slices[i].id}"]`).click();
    await shows(found.slices[i], width, 'clicked');
    assert.equal(await page.locator('[data-testid=search-count]').innerText(), `${i + 1} of ${found.total}`);
    // Enter: the next match, still the same width.
    await input.press('Enter');
    await shows(found.slices[i + 1], width, 'Enter');
    assert.equal(await page.locator('[data-testid=search-count]').innerText(), `${i + 2} of ${found.total}`);
    // A match longer than half the window zooms out (never in) to 10 times its length.
    const long = found.slices.reduce((a, b) => (b.end - b.begin > a.end - a.begin ? b : a));
    const li = found.slices.indexOf(long);
    const narrow = (long.end - long.begin) / 4;
    await setWindow(long.begin, long.begin + narrow);
    await input.press('ArrowDown');
    await list.waitFor({ state: 'visible', timeout: 3000 });
    await list.locator(`button[data-slice="${long.id}"]`).click();
    const span = long.end - long.begin;
    if (long.begin - 4.5 * span > 0 && long.end + 4.5 * span < summary.duration) {
      await shows(long, 10 * span, `the long match ${li}`);
    } else {
      // Near an end of the trace the window is clamped: it still zooms out.
      const w = await until(win, (x) => x.to - x.from > narrow * 2);
      assert.ok(w.to - w.from > narrow * 2, `the long match ${li} zooms out: ${JSON.stringify(w)}`);
    }
  });

  /** Clicks the toolbar's button `id` and returns the downloaded file's bytes and name. */
  const download = async (id) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-testid=${id}]`).click()]);
    const path = join(args.out, d.suggestedFilename());
    await d.saveAs(path);
    return { bytes: readFileSync(path), name: d.suggestedFilename() };
  };
  /** The <text> and <rect> elements of an SVG, with their coordinates, parsed by the browser. */
  const svgParts = (text) => page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const root = doc.documentElement;
    const num = (e, a) => Number(e.getAttribute(a));
    return {
      width: num(root, 'width'),
      height: num(root, 'height'),
      texts: [...doc.querySelectorAll('text')].map((e) => ({ x: num(e, 'x'), y: num(e, 'y'), text: e.textContent })),
      rects: [...doc.querySelectorAll('rect')].map((e) => ({
        x: num(e, 'x'), y: num(e, 'y'), width: num(e, 'width'), height: num(e, 'height'),
        fill: (e.getAttribute('fill') ?? '').toLowerCase(),
      })),
    };
  }, text);

  await check('an exported timeline has a caption: the trace, the window, the legend of the states shown', async () => {
    // 400 µs amid the messaging: MPI_Send and MPI_Recv slices, a pixel under half a µs.
    const from = busy - 200_000;
    const to = busy + 200_000;
    await setWindow(from, to);
    await page.keyboard.press('Escape');
    const colors = await page.evaluate(() => window.parallax.stateColors());
    const stats = await api(`/stats?from=${from}&to=${to}`);
    const present = new Set(stats.rows.filter((s) => s.count > 0).map((s) => s.name));
    assert.ok(present.has('MPI_Recv') && present.has('MPI_Send'), `states in the window: ${[...present]}`);
    const box = await canvas.boundingBox();
    const viewHeight = Math.ceil(box.height);

    const caption = async () => {
      await canvas.click({ position: { x: box.width - 30, y: box.height - 5 } }); // the timeline is the view exported
      const { bytes, name } = await download('export-svg');
      assert.match(name, /\.svg$/);
      const svg = await svgParts(bytes.toString('utf8'));
      assert.ok(svg.height > viewHeight, `the SVG (${svg.height} high) is taller than the timeline (${viewHeight})`);
      const texts = svg.texts.filter((t) => t.y >= viewHeight).map((t) => t.text);
      const swatches = svg.rects.filter((r) => r.y >= viewHeight && r.fill.startsWith('#') && r.width === r.height && r.width < 20);
      return { svg, texts, swatches };
    };
    const { svg, texts, swatches } = await caption();
    assert.equal(texts[0], summary.name, `the caption begins with the trace's name: ${JSON.stringify(texts)}`);
    const range = texts.find((t) => / – .*\(.+\)$/.test(t));
    assert.ok(range, `the caption gives the time range: ${JSON.stringify(texts)}`);
    const m = range.match(/^(.+) – (.+) \((.+)\)$/);
    const w = await win();
    const resolution = Math.pow(10, Math.floor(Math.log10((w.to - w.from) / 1000)));
    assert.ok(Math.abs(parseTime(m[1])[0] - w.from) <= resolution, `from ${m[1]} is ${w.from}`);
    assert.ok(Math.abs(parseTime(m[2])[0] - w.to) <= resolution, `to ${m[2]} is ${w.to}`);
    assert.ok(Math.abs(parseTime(m[3])[0] - (w.to - w.from)) <= (w.to - w.from) * 1e-3, `duration ${m[3]}`);
    // The legend: the states drawn in the window, each beside a swatch of its colour.
    const named = texts.filter((t) => t !== summary.name && t !== range);
    for (const s of present) assert.ok(named.includes(s), `the caption names ${s}: ${JSON.stringify(named)}`);
    for (const n of named) {
      const state = summary.states.find((s) => s.name === n);
      assert.ok(state, `${n} is a state of the trace`);
      const label = svg.texts.find((t) => t.y >= viewHeight && t.text === n);
      const swatch = swatches.find((r) => Math.abs(r.y - label.y) <= 3 && r.x < label.x && label.x - r.x < 20);
      assert.ok(swatch, `${n} has a swatch beside it`);
      assert.equal(swatch.fill, colors[state.index], `${n}'s swatch has its colour`);
    }

    // Hidden in the legend, a state leaves the caption.
    const box0 = page.locator('[data-testid=legend] [data-state="MPI_Send"] input[type=checkbox]');
    await box0.uncheck();
    try {
      const hidden = await caption();
      assert.ok(!hidden.texts.includes('MPI_Send'), `MPI_Send hidden is not in the caption: ${JSON.stringify(hidden.texts)}`);
      assert.ok(hidden.texts.includes('MPI_Recv'));
    } finally {
      await box0.check();
    }

    // The PNG: the view at 2x and the caption below it, with the swatches' colours.
    const { bytes } = await download('export-png');
    const points = swatches.map((r) => [(r.x + r.width / 2) * 2, (r.y + r.height / 2) * 2]);
    const png = await page.evaluate(async ({ b64, points, top }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      [c.width, c.height] = [img.width, img.height];
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const strip = ctx.getImageData(0, top, img.width, img.height - top).data;
      let inked = 0;
      for (let i = 0; i < strip.length; i += 4) if (strip[i] < 200 || strip[i + 1] < 200 || strip[i + 2] < 200) inked++;
      return {
        width: img.width, height: img.height, inked,
        pixels: points.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3))),
      };
    }, { b64: bytes.toString('base64'), points, top: viewHeight * 2 + 2 });
    assert.equal(png.height, svg.height * 2, `the PNG is the SVG's picture at 2x: ${png.height} vs ${svg.height}`);
    assert.ok(png.height > viewHeight * 2 + 30, `the PNG (${png.height} px) has a caption below the view (${viewHeight * 2} px)`);
    assert.ok(png.inked > 500, `the caption's pixels are not blank (${png.inked} inked)`);
    swatches.forEach((r, k) => assert.ok(near(png.pixels[k], hexToRgb(r.fill)), `PNG swatch ${k}: ${png.pixels[k]} is ${r.fill}`));
  });

  await check('diagnostics: findings ranked by cost, headings with their count or total, trivial ones without a warning', async () => {
    const d = await api('/diagnostics?limit=200'); // the limit the panel asks with (DIAGNOSTICS_LIMIT)
    const anomalies = await api('/anomalies?limit=0');
    const { total } = await api('/waits?limit=0');
    const waits = await api(`/waits?limit=${total.count}`);
    const totals = { anomaly: anomalies.total };
    for (const w of waits.longest) totals[w.kind] = (totals[w.kind] ?? 0) + 1;
    // finding_severity.h: a warning costs at least 10 µs and a thousandth of the run.
    const bar = Math.max(10_000, summary.duration / 1000);
    const costed = new Set(['late-sender', 'late-receiver', 'collective', 'anomaly', 'imbalance']);

    await page.locator('button[data-view=diagnostics]').click();
    await page.locator('[data-testid=finding-group]').first().waitFor({ timeout: 20000 });
    const groups = await page.$$eval('[data-testid=finding-group]', (sections) => sections.map((g) => ({
      kind: g.dataset.kind,
      heading: g.querySelector('[data-testid=finding-group-title]').textContent,
      findings: [...g.querySelectorAll('[data-testid=finding]')].map((f) => ({
        cost: Number(f.dataset.cost), severity: f.dataset.severity, icon: f.querySelector('.severity-icon').textContent,
      })),
    })));
    // A group per kind listed, and per kind whose every finding the limit cut.
    const kinds = [...new Set([...d.findings.map((f) => f.kind), ...Object.keys(totals).filter((k) => totals[k] > 0)])];
    assert.deepEqual(groups.map((g) => g.kind).sort(), kinds.sort(), 'a group per kind found');
    let trivial = 0;
    for (const g of groups) {
      const mine = d.findings.filter((f) => f.kind === g.kind);
      const want = mine.map((f) => f.cost).sort((a, b) => b - a);
      assert.deepEqual(g.findings.map((f) => f.cost), want, `${g.kind}: the API's findings, costliest first`);
      // The heading's count: "(N)" or, cut at the limit, "(N of M)" with the API's total.
      const m = g.heading.match(/\((\d[\d,]*)(?: of (\d[\d,]*))?\)$/);
      assert.ok(m, `${g.kind}: a count ends the heading: ${JSON.stringify(g.heading)}`);
      assert.equal(Number(m[1].replace(/,/g, '')), mine.length, `${g.kind}: ${g.heading} counts the listed`);
      const all = totals[g.kind];
      if (all !== undefined && all > mine.length) {
        assert.equal(Number((m[2] ?? '').replace(/,/g, '')), all, `${g.kind}: ${g.heading} gives the total ${all}`);
      } else {
        assert.equal(m[2], undefined, `${g.kind}: ${g.heading}: a whole list gives no total`);
      }
      if (!costed.has(g.kind)) continue;
      for (const f of g.findings) {
        const warn = f.cost >= bar;
        if (!warn) trivial++;
        assert.equal(f.icon === '⚠', warn, `${g.kind} costing ${f.cost} ns (bar ${bar}) shows ${f.icon}`);
        assert.equal(f.severity, warn ? 'warning' : 'info');
      }
      if (g.findings.every((f) => f.cost < bar)) assert.ok(!g.heading.includes('⚠'), `${g.heading}: no sign for trivial findings`);
    }
    assert.ok(trivial > 0, 'the demo has findings below the bar');
    console.log(`# ${groups.map((g) => g.heading.trim()).join('; ')}; ${trivial} findings under ${bar} ns`);
    // The groups: errors, then warnings, then the rest, each by what its findings cost together.
    const rank = { error: 0, warning: 1, info: 2 };
    const worst = (kind) => {
      const ranks = d.findings.filter((f) => f.kind === kind).map((f) => rank[f.severity] ?? 3);
      return ranks.length ? Math.min(...ranks) : rank.info; // a group of none cut counts as info
    };
    const cost = (kind) => d.findings.filter((f) => f.kind === kind).reduce((a, f) => a + f.cost, 0);
    for (let k = 1; k < groups.length; k++) {
      const [a, b] = [groups[k - 1].kind, groups[k].kind];
      assert.ok(worst(a) < worst(b) || (worst(a) === worst(b) && cost(a) >= cost(b)),
                `${a} (severity ${worst(a)}, ${cost(a)} ns) before ${b} (severity ${worst(b)}, ${cost(b)} ns)`);
    }
  });

  await check('? lists pinning a row and dragging the label edge; Escape closes it', async () => {
    // The other keys (W/S, A/D, shift+wheel, ] [ P) and shift+wheel panning: legibility.mjs, linked_events.mjs.
    await page.evaluate(() => document.activeElement?.blur()); // no text field takes the key
    const help = page.locator('[data-testid=help]');
    await page.keyboard.press('?');
    await help.waitFor({ state: 'visible', timeout: 3000 });
    try {
      const entries = await help.locator('dt').allInnerTexts();
      const what = await help.locator('dd').allInnerTexts();
      const entry = (k) => what[entries.indexOf(k)] ?? '';
      assert.match(entry('Click a thread label'), /pin the row/);
      assert.match(entry("Drag the label column's edge"), /wider or narrower/);
      assert.match(entry('Wheel'), /zoom/);
      assert.match(entry('Shift+wheel, horizontal wheel'), /pan/);
    } finally {
      await page.keyboard.press('Escape');
    }
    await help.waitFor({ state: 'hidden', timeout: 3000 });
  });

  await check('ruler, mountain axis and pointer time print as finely as a window of a few µs needs', async () => {
    // Five µs amid the messaging: times of nine digits whose last ones differ.
    const from = busy + 123;
    await setWindow(from, from + 5000);
    const { from: first, to: last } = await win();
    const box = await canvas.boundingBox();
    // What the newest frame of a canvas printed: the texts after its last
    // `start` text (the timeline's ruler begins with "5 µs shown", the
    // mountain strip with its "threads" axis title).
    const lastFrame = (cls, start) => page.evaluate(([cls, start]) => {
      const mine = window.__plxTexts.log.filter((t) => t.canvas === cls);
      let i = mine.length - 1;
      while (i >= 0 && !new RegExp(start).test(mine[i].text)) i--;
      return i < 0 ? [] : mine.slice(i);
    }, [cls, start]);
    const inWindow = (labels) => labels.length >= 3 && labels.every((l) => {
      const v = /^[\d.]+ (s|ms|µs|ns)$/.test(l.text) ? parseTime(l.text)[0] : NaN;
      return v >= first - 1 && v <= last + 1;
    });
    await page.mouse.move(box.x + 400, box.y + box.height - 5);
    // The ruler's labels (in its top 24 px, right of the label column) and the
    // mountain's time axis (the lowest texts, below its plot).
    const labelWidth = Number(await canvas.getAttribute('data-label-width'));
    const rulerLabels = async () => (await lastFrame('timeline-canvas', ' shown$')).filter((t) => t.y < 24 && t.x > labelWidth);
    const mountainLabels = async () => {
      const frame = await lastFrame('chart-canvas', '^(threads|processes)$');
      const y = Math.max(...frame.map((t) => t.y));
      return frame.filter((t) => t.y === y);
    };
    const ruler = await until(rulerLabels, inWindow);
    const mountain = await until(mountainLabels, inWindow);
    const readAxis = (labels, what) => {
      const parsed = labels.map((l) => parseTime(l.text));
      assert.equal(new Set(labels.map((l) => l.text)).size, labels.length, `${what}: labels differ: ${labels.map((l) => l.text)}`);
      for (const [v] of parsed) assert.ok(v >= first - 1 && v <= last + 1, `${what}: ${v} lies in the window [${first}, ${last}]`);
      const steps = parsed.slice(1).map(([v], k) => v - parsed[k][0]);
      assert.ok(steps.every((s) => Math.abs(s - steps[0]) < 0.5 && s > 0), `${what}: evenly spaced: ${labels.map((l) => l.text)}`);
      return parsed[0][1];
    };
    const rulerUnit = readAxis(ruler, 'ruler');
    // Each ruler label reads as the time where it is drawn (3 px right of its tick).
    for (const l of ruler) {
      const x = await page.evaluate((t) => window.parallax.timeline.timeToX(t), parseTime(l.text)[0]);
      assert.ok(Math.abs(x + 3 - l.x) <= 1.5, `ruler label ${l.text} at x ${l.x} is the time at ${x + 3}`);
    }
    const mountainUnit = readAxis(mountain, 'mountain axis');
    assert.equal(mountainUnit, rulerUnit,
                 `the ruler (${ruler.map((l) => l.text)}) and the mountain axis (${mountain.map((l) => l.text)}) use one unit`);
    // On one time axis: the same ticks.
    assert.deepEqual(mountain.map((l) => l.text), ruler.map((l) => l.text), 'the mountain axis has the ruler\'s ticks');

    // The pointer's time at two places 10 px apart: they differ as the times do, each read back.
    const pointer = page.locator('[data-testid=status-pointer]');
    const at = [];
    for (const x of [400, 410]) {
      await page.mouse.move(box.x + x, box.y + box.height - 5);
      const t = await page.evaluate((x) => window.parallax.timeline.xToTime(x), x);
      const text = await until(() => pointer.innerText(), (s) => s.startsWith('at ') && Math.abs(parseTime(s.slice(3))[0] - t) <= 5);
      assert.ok(Math.abs(parseTime(text.slice(3))[0] - t) <= 5, `pointer ${text} at x ${x} is ${t}`);
      assert.equal(parseTime(text.slice(3))[1], rulerUnit, 'the pointer in the ruler\'s unit');
      at.push(text);
    }
    assert.notEqual(at[0], at[1], `10 px apart the pointer times differ: ${at}`);
    const list = (labels) => labels.map((l) => l.text).join(', ');
    console.log(`# ruler ${list(ruler)}; mountain ${list(mountain)}; pointer ${at.join(', ')}`);
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('viewer fixes checks');
