// End-to-end tests of replay control: a real `parallax serve` over the demo
// trace, driven in headless Chromium through the replay bar and its keys.
// Expected places come from the API (/step, /histogram), never hard-coded.
//
//   node e2e/replay.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// Prints one line per check and exits non-zero when any fails.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until as poll, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('replay.mjs', { out: 'e2e-out' });

const { check, fail, finish } = checks();
/** harness.until with a longer default: a run may take seconds. */
const until = (probe, ok, ms = 10000) => poll(probe, ok, ms);

const server = await startServer(args.parallax, [join(args['trace-dir'], traceFile)]);
const browser = await launchBrowser();
let page;
try {
  const [trace] = await server.waitAllReady(120000);
  const api = (path) => server.api(`/traces/${trace.id}${path}`);
  const summary = await api('/summary');
  const recv = summary.states.find((s) => s.name === 'MPI_Recv');
  assert.ok(recv, 'the demo trace has MPI_Recv');

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true && window.parallax.replay, null, { timeout: 60000 });

  const replay = () => page.evaluate(() => ({
    time: window.parallax.replay.time(),
    ...window.parallax.replay.state(),
  }));
  const idle = () => page.evaluate(() => window.parallax.replay.idle());
  const win = () => page.evaluate(() => window.parallax.timeline.window());
  const selected = () => page.evaluate(() => window.parallax.timeline.selected());
  const jump = async (t) => {
    await page.locator('[data-testid=replay-jump]').fill(String(t));
    await page.locator('[data-testid=replay-jump]').press('Enter');
    await until(replay, (r) => r.time === t, 3000);
    // Keys go to the page, not the field.
    await page.locator('[data-testid=replay-cursor]').click();
  };
  /** The timeline canvas once nothing is loading and two shots agree. */
  const settledShot = async () => {
    await idle();
    const canvas = page.locator('#timeline canvas').first();
    let prev = null;
    for (let i = 0; i < 40; i++) {
      await page.waitForFunction(() => !document.querySelector('.status-loading')?.textContent);
      const shot = await canvas.screenshot();
      if (prev && shot.equals(prev)) return shot;
      prev = shot;
      await page.waitForTimeout(150);
    }
    return prev;
  };

  await check('the replay bar is there; the cursor starts at 0', async () => {
    for (const id of ['replay-play', 'replay-step-forward', 'replay-step-back', 'replay-run-back', 'replay-run-forward',
      'replay-speed', 'replay-jump', 'replay-breakpoint-add', 'replay-trigger-add', 'replay-cursor', 'replay-stopped']) {
      assert.equal(await page.locator(`[data-testid=${id}]`).count(), 1, id);
    }
    assert.equal((await replay()).time, 0);
    assert.equal(await page.locator('[data-testid=program-state]').getAttribute('data-state'), 'finished');
  });

  await check('step forward 5 times then back 5 times returns to the same view state', async () => {
    // Start at the first event after the first MPI_Recv begins (a busy part).
    const sel = await api(`/histogram?state=${recv.index}&method=percentile&percentile=99`);
    const start = Math.floor(sel.selection[0].slice.begin) - 1;
    await jump(start);
    // The events /step gives from there: e0, then five more.
    const events = [await api(`/step?t=${start}&dir=forward`)];
    for (let i = 0; i < 5; i++) events.push(await api(`/step?t=${events[i].time}&dir=forward`));
    assert.ok(events.every((e) => e.found), JSON.stringify(events));
    await page.keyboard.press('.');
    await until(replay, (r) => r.time === events[0].time);
    await idle();
    // A window holding e0 whose right edge e5 passes: the view must turn a page and come back.
    const span = events[5].time - events[0].time;
    assert.ok(span > 0, 'the events are at different times');
    await page.evaluate(([a, b]) => window.parallax.timeline.setWindow(a, b),
                        [events[0].time - span * 0.3, events[0].time + span * 0.6]);
    const before = { time: (await replay()).time, selected: await selected(), window: await win() };
    const shotBefore = await settledShot();
    writeFileSync(join(args.out, 'replay-before.png'), shotBefore);
    for (let i = 1; i <= 5; i++) {
      await page.keyboard.press('.');
      const r = await until(replay, (x) => x.time === events[i].time);
      assert.equal(r.time, events[i].time, `step ${i} goes to the event /step gives`);
      await idle();
    }
    const ahead = await win();
    assert.ok(ahead.from > before.window.to - 1, `the window turned a page: ${JSON.stringify([before.window, ahead])}`);
    assert.ok(Math.abs((ahead.to - ahead.from) - (before.window.to - before.window.from)) < 1, 'and kept its width');
    if (events[5].kind === 'begin' || events[5].kind === 'end') {
      assert.equal(await until(selected, (s) => s === events[5].ref), events[5].ref, 'the slice stepped to is selected');
    }
    for (let i = 4; i >= 0; i--) {
      await page.keyboard.press(',');
      await until(replay, (x) => x.time === events[i].time);
      await idle();
    }
    const after = { time: (await replay()).time, selected: await selected(), window: await win() };
    assert.equal(after.time, before.time);
    assert.equal(after.selected, before.selected);
    assert.ok(Math.abs(after.window.from - before.window.from) < 1e-3 && Math.abs(after.window.to - before.window.to) < 1e-3,
              `the same window: ${JSON.stringify([before.window, after.window])}`);
    const shotAfter = await settledShot();
    writeFileSync(join(args.out, 'replay-after.png'), shotAfter);
    assert.ok(shotAfter.equals(shotBefore), 'the timeline looks the same, pixel for pixel');
  });

  await check('a breakpoint at a clock value stops play exactly there', async () => {
    const bp = Math.round(summary.duration * 0.86) + 7;
    await jump(bp - 15_000_000);
    await page.locator('[data-testid=replay-speed]').selectOption('10000000'); // 10 ms/s
    await page.locator('[data-testid=replay-more] summary').click();
    await page.locator('[data-testid=replay-breakpoint-time]').fill(String(bp));
    await page.locator('[data-testid=replay-breakpoint-add]').click();
    assert.deepEqual(await page.evaluate(() => window.parallax.replay.breakpoints()), [bp]);
    await page.locator('[data-testid=replay-play]').click();
    const r = await until(replay, (x) => !x.playing, 20000);
    assert.equal(r.playing, false, 'play stopped');
    assert.equal(r.time, bp, 'exactly at the breakpoint');
    assert.equal(await page.locator('[data-testid=replay-stopped]').getAttribute('data-kind'), 'breakpoint');
    assert.match(await page.locator('[data-testid=replay-stopped]').innerText(), /breakpoint/);
    // The cursor line is drawn there on the timeline.
    const x = await page.evaluate((t) => window.parallax.timeline.timeToX(t), bp);
    const canvas = page.locator('#timeline canvas').first();
    const box = await canvas.boundingBox();
    const shot = await page.screenshot({ clip: { x: box.x + x - 3, y: box.y + box.height - 12, width: 7, height: 4 } });
    const pink = await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, img.width, img.height).data;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - 0xc2) < 30 && Math.abs(d[i + 1] - 0x18) < 30 && Math.abs(d[i + 2] - 0x5b) < 30) return true;
      }
      return false;
    }, shot.toString('base64'));
    assert.ok(pink, 'the replay cursor line is on the timeline at the breakpoint');
    await page.locator('[data-testid=replay-breakpoint-remove]').click();
    assert.deepEqual(await page.evaluate(() => window.parallax.replay.breakpoints()), []);
  });

  await check('page turns while playing are drawn whole: the next page was asked for ahead', async () => {
    // A 0.5 ms window played at 1 ms/s turns a page every 0.5 s; each frame
    // after a turn must show the new page's tile and mountain answer at once.
    const start = Math.round(summary.duration * 0.3);
    await jump(start);
    await page.evaluate((t) => window.parallax.timeline.setWindow(t, t + 500_000), start);
    await page.locator('[data-testid=replay-speed]').selectOption('1000000');
    await until(() => page.evaluate(() => ({
      tile: document.querySelector('#timeline canvas')?.dataset.tileCovers,
      mountain: document.querySelector('[data-testid=mountain] canvas')?.dataset.covers,
    })), (c) => c.tile === '1' && c.mountain === '1', 10000);
    await page.evaluate(() => {
      const seen = (window.__turns = { tile: 0, mountain: 0, frames: 0 });
      const watch = (el, attr, key) => new MutationObserver(() => {
        if (key === 'tile') seen.frames++;
        if (el.getAttribute(attr) === '0') seen[key]++;
      }).observe(el, { attributes: true, attributeFilter: [attr] });
      watch(document.querySelector('#timeline canvas'), 'data-tile-covers', 'tile');
      watch(document.querySelector('[data-testid=mountain] canvas'), 'data-covers', 'mountain');
    });
    const w0 = await win();
    await page.locator('[data-testid=replay-play]').click();
    await until(win, (w) => w.from >= w0.from + 3 * (w0.to - w0.from) - 1, 15000);
    await page.locator('[data-testid=replay-play]').click();
    await until(replay, (r) => !r.playing, 3000);
    const turns = await page.evaluate(() => window.__turns);
    assert.ok(turns.frames > 10, `frames were drawn while playing (${turns.frames})`);
    assert.equal(turns.tile, 0, `frames drawn without the whole page's tile: ${turns.tile} of ${turns.frames}`);
    assert.equal(turns.mountain, 0, `mountain frames without the page's answer: ${turns.mountain}`);
  });

  await check('a trigger "MPI_Recv longer than X" stops replay where the first such call passes X; its row is scrolled to', async () => {
    // X: the 99th percentile of MPI_Recv; the slices longer than it are the histogram's selection.
    const sel = await api(`/histogram?state=${recv.index}&method=percentile&percentile=99&limit=100000`);
    assert.equal(sel.selection.length, sel.selected, 'the selection lists every slice above the threshold');
    const X = Math.floor(sel.selection[0].limit);
    const longer = sel.selection.filter((a) => a.duration > X);
    assert.ok(longer.length >= 2, `several MPI_Recv calls are longer than ${X} ns`);
    const first = longer.reduce((a, b) => (b.slice.begin < a.slice.begin ? b : a));
    const expected = first.slice.begin + X;
    // Several pass X: the trigger must stop at the earliest, wherever the longest is.
    await jump(Math.max(0, Math.floor(first.slice.begin) - 10_000_000));
    await page.locator('[data-testid=replay-speed]').selectOption('10000000'); // 10 ms/s
    if (!(await page.locator('[data-testid=replay-trigger-add]').isVisible())) {
      await page.locator('[data-testid=replay-more] summary').click();
    }
    await page.locator('[data-testid=replay-trigger-kind]').selectOption('state');
    await page.locator('[data-testid=replay-trigger-state]').selectOption(String(recv.index));
    await page.locator('[data-testid=replay-trigger-threshold]').fill(String(X));
    await page.locator('[data-testid=replay-trigger-add]').click();
    assert.equal(await page.locator('[data-testid=replay-trigger]').count(), 1);
    // The slice's row folded away in its process's group: the stop unfolds and shows it.
    const row = first.slice.row;
    const group = `process:${summary.threads[row].process}`;
    const folded = async () => new URLSearchParams(await page.evaluate(() => window.location.search)).getAll('fold');
    // A click on the process's header (just above its first row) folds it.
    const headerY = (await page.evaluate((r) => window.parallax.timeline.rowY(r), row)) - 10;
    await page.locator('#timeline canvas').first().click({ position: { x: 30, y: headerY } });
    assert.ok((await until(folded, (f) => f.includes(group), 3000)).includes(group), `${group} folded`);
    const rowShown = () => page.evaluate((r) => {
      const y = window.parallax.timeline.rowY(r);
      const h = document.querySelector('#timeline canvas').getBoundingClientRect().height;
      return y >= 24 && y + 10 < h;
    }, row);
    await page.locator('[data-testid=replay-play]').click();
    const r = await until(replay, (x) => !x.playing, 30000);
    assert.equal(r.playing, false, 'play stopped');
    assert.ok(Math.abs(r.time - expected) < 1e-3, `stopped at ${r.time}, expected ${expected} (slice ${first.slice.id})`);
    assert.equal(r.stopped.kind, 'trigger');
    assert.equal(r.event.ref, first.slice.id, 'the event is that slice');
    const text = await page.locator('[data-testid=replay-stopped]').innerText();
    assert.match(text, /stopped by trigger "MPI_Recv longer than/);
    await until(selected, (s) => s === first.slice.id, 5000);
    assert.equal(await selected(), first.slice.id, 'the slice is selected in the timeline');
    const w = await win();
    assert.ok(w.from <= expected && expected <= w.to, 'the timeline shows the cursor');
    assert.ok(!(await until(folded, (f) => !f.includes(group), 5000)).includes(group), `${group} unfolded by the stop`);
    assert.equal(await until(rowShown, (v) => v, 5000), true, `row ${row} of the stop is on screen`);
    writeFileSync(join(args.out, 'replay-trigger.png'), await page.screenshot());
  });

  await check('no uncaught errors in the page', noPageErrors);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'replay-last.png'));
}
finish('replay checks');
