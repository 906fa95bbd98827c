// End-to-end tests of following a program's flow (src/engine/links.ts,
// src/views/timeline/flow.ts, src/app/linked_details.ts): a clicked arrow is
// selected with both ends marked, the details link to its send and receive
// slices, a slice's details list its messages, its wait state and whether it
// lies on the critical path, and the keys ] [ P walk messages on a row.
// A real `parallax serve` over the demo trace, headless Chromium.
//
//   node e2e/linked_events.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR holds the demo trace (scripts/demo-trace writes it); PLX_WEB_DIR picks
// the built viewer to serve (harness.mjs).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, selectSlice, startServer, until, watchPageErrors } from './harness.mjs';

const { args, traceFile } = demoTraceArgs('linked_events.mjs', { out: 'e2e-linked-events-out' });
const { check, fail, finish } = checks();

/** The selected message's colour (src/views/timeline/message_mark.ts). */
const MESSAGE_RGB = [0x15, 0x65, 0xc0];

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
  const summary = await api('/summary');
  const all = await api(`/lamport?limit=100000`);
  const selectedMessage = () => page.evaluate(() => window.parallax.timeline.selectedMessage());
  const selectedSlice = () => page.evaluate(() => window.parallax.timeline.selected());
  const win = () => page.evaluate(() => window.parallax.timeline.window());

  // A message between two rows that takes a while: its arrow is easy to hit.
  const message = all.messages
    .filter((m) => m.send_row !== m.recv_row && m.recv_time - m.send_time > 2000)
    .sort((a, b) => (b.recv_time - b.send_time) - (a.recv_time - a.send_time))[Math.floor(all.messages.length / 10)];
  assert.ok(message, 'the demo trace has messages between rows');

  /** Shows [from, to], clicks the arrow of `m` at its middle until it is selected (a merged arrow zooms in). */
  async function clickArrow(m) {
    const span = m.recv_time - m.send_time;
    await page.evaluate(([a, b]) => window.parallax.timeline.setWindow(a, b), [m.send_time - span, m.recv_time + span]);
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Escape');
      const p = await page.evaluate((m) => {
        const t = window.parallax.timeline;
        const y = (t.laneY(m.send_row, 0) + t.laneY(m.recv_row, 0)) / 2;
        return { x: t.timeToX((m.send_time + m.recv_time) / 2), y };
      }, m);
      await page.waitForTimeout(300); // the tile of the window
      await canvas.click({ position: p });
      const sel = await until(selectedMessage, (s) => s !== null, 1500);
      if (sel) return sel;
    }
    return null;
  }

  /** The canvas pixel at (x, y) CSS px, as [r, g, b]. */
  const pixel = (x, y) => page.evaluate(([x, y]) => {
    const c = document.querySelector('#timeline canvas');
    const d = c.getContext('2d').getImageData(Math.round(x * devicePixelRatio), Math.round(y * devicePixelRatio), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, [x, y]);
  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 12);
  /** Whether a pixel within one of (x, y) has the colour `rgb` (lines are antialiased). */
  const colourNear = async (x, y, rgb) => {
    for (const dx of [0, -1, 1]) for (const dy of [0, -1, 1]) if (near(await pixel(x + dx, y + dy), rgb)) return true;
    return false;
  };

  await check('a clicked arrow is selected, drawn in the selection colour, with its send and receive ends marked', async () => {
    const sel = await clickArrow(message);
    assert.ok(sel, 'the arrow was selected');
    assert.equal(sel.id, message.id);
    assert.deepEqual([sel.sendRow, sel.recvRow, sel.send, sel.recv, sel.focus],
                     [message.send_row, message.recv_row, message.send_time, message.recv_time, 'send']);
    await page.waitForFunction(() => document.querySelector('[data-testid=details]')?.dataset.kind === 'message');
    await page.waitForTimeout(200);
    writeFileSync(join(args.out, 'selected-message.png'), await page.screenshot());
    const ends = await page.evaluate((m) => {
      const t = window.parallax.timeline;
      return [[t.timeToX(m.send_time), t.laneY(m.send_row, 0)], [t.timeToX(m.recv_time), t.laneY(m.recv_row, 0)],
              // a point of the line away from the click (the pointer's line is drawn there)
              [t.timeToX(0.7 * m.send_time + 0.3 * m.recv_time), 0.7 * t.laneY(m.send_row, 0) + 0.3 * t.laneY(m.recv_row, 0)]];
    }, message);
    // The send (the end the keys go on from) is a filled mark, the line is in the colour.
    for (const [x, y] of [ends[0], ends[2]]) {
      const rgb = await pixel(x, y);
      assert.ok(near(rgb, MESSAGE_RGB), `selection colour at (${x.toFixed(1)}, ${y.toFixed(1)}): ${rgb}`);
    }
    // The receive's mark is a ring: white inside, the colour on its corners.
    const [rx, ry] = ends[1];
    const inside = await pixel(rx, ry);
    assert.ok(inside.every((v) => v > 200), `inside the receive's ring: ${inside}`);
    let corners = 0;
    for (const [dx, dy] of [[0, -4.5], [0, 4.5], [-4.5, 0], [4.5, 0]]) if (await colourNear(rx + dx, ry + dy, MESSAGE_RGB)) corners++;
    assert.ok(corners >= 3, `the receive's ring has ${corners} of 4 corners in the colour`);
  });

  await check('the message details link to the send and the receive slice, selecting each and zooming to it', async () => {
    for (const [link, row, time] of [['details-recv-slice', message.recv_row, message.recv_time],
                                     ['details-send-slice', message.send_row, message.send_time]]) {
      if (await page.evaluate(() => document.querySelector('[data-testid=details]').dataset.kind) !== 'message') {
        await clickArrow(message);
      }
      await page.locator(`[data-testid=${link}]`).click();
      const id = await until(selectedSlice, (s) => s >= 0, 5000);
      assert.ok(id >= 0, `${link}: a slice is selected`);
      const d = await api(`/details?kind=slice&id=${id}`);
      assert.equal(d.row, row, `${link}: on the row of the end`);
      assert.ok(d.begin <= time && time <= d.end, `${link}: the slice [${d.begin}, ${d.end}] holds the end at ${time}`);
      const w = await win();
      assert.ok(w.from <= d.begin && d.end <= w.to, `${link}: the slice is in the window ${JSON.stringify(w)}`);
      const y = await page.evaluate((r) => window.parallax.timeline.rowY(r), row);
      const box = await canvas.boundingBox();
      assert.ok(y > 0 && y < box.height, `${link}: its row is on screen (y ${y})`);
      await page.waitForFunction(() => document.querySelector('[data-testid=details-slice-links]') !== null, null, { timeout: 10000 });
    }
  });

  await check("a slice's details list its messages, each a link to the message", async () => {
    // The send slice is selected (the check before): the message is among those it sent.
    const entry = page.locator(`[data-testid=details-message][data-message="${message.id}"][data-end=send]`);
    await entry.waitFor({ timeout: 5000 });
    assert.ok((await entry.innerText()).startsWith('sent to '), await entry.innerText());
    await entry.click();
    const sel = await until(selectedMessage, (s) => s?.id === message.id, 5000);
    assert.equal(sel?.id, message.id, 'the message is selected');
    assert.equal(await selectedSlice(), -1, 'no slice is selected');
    const w = await win();
    assert.ok(w.from <= message.send_time && message.recv_time <= w.to, 'both ends are in the window');
  });

  await check("a waiting call's details give its wait state and whether it is on the critical path", async () => {
    const waits = await api('/waits?limit=100000');
    const path = await api('/critical-path');
    const wait = waits.longest.find((w) => w.kind === 'late-sender');
    assert.ok(wait, 'the demo trace has a late sender');
    const s = wait.slice;
    const onPath = path.segments.some((g) => g.row === s.row && Math.min(g.end, s.end) > Math.max(g.begin, s.begin));
    const duration = s.end - s.begin;
    await page.evaluate(([a, b]) => window.parallax.timeline.setWindow(a, b), [s.begin - duration, s.end + duration]);
    assert.equal(await selectSlice(page, s), s.id, 'the waiting call is selected');
    const waitField = page.locator('[data-testid=details-wait]');
    await waitField.waitFor({ timeout: 10000 });
    assert.equal(await waitField.getAttribute('data-kind'), 'late-sender');
    assert.match(await waitField.innerText(), /^late sender: waited \d/);
    assert.equal(await page.locator('[data-testid=details-path]').getAttribute('data-on-path'), String(onPath));
    const received = await page.locator('[data-testid=details-message][data-end=recv]').count();
    assert.ok(received >= 1, 'the late receive lists the message it received');
  });

  /** The message ends on `row` in time order, as the API has them. */
  const endsOn = (row) => all.messages
    .flatMap((m) => [[m.send_row, m.send_time, m.id, 0], [m.recv_row, m.recv_time, m.id, 1]])
    .filter(([r]) => r === row)
    .sort((a, b) => a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);

  await check('] and [ walk the message ends of the selected row; P jumps to the partner end', async () => {
    // The waiting call of the check before is selected: ] goes to the first end at or after its begin.
    const s = await api(`/details?kind=slice&id=${await selectedSlice()}`);
    const ends = endsOn(s.row).filter(([, t]) => t >= s.begin);
    assert.ok(ends.length >= 3, 'three message ends on the row from the slice on');
    const focusOf = (sel) => sel && [sel.focus === 'send' ? sel.sendRow : sel.recvRow, sel.focus === 'send' ? sel.send : sel.recv, sel.id, sel.focus === 'send' ? 0 : 1];
    const expectFocus = async (want, what) => {
      const got = await until(async () => focusOf(await selectedMessage()), (f) => f && f[2] === want[2] && f[3] === want[3], 5000);
      assert.deepEqual(got, want, what);
    };
    await page.keyboard.press(']');
    await expectFocus(ends[0], 'first ]');
    await page.keyboard.press(']');
    await expectFocus(ends[1], 'second ]');
    await page.keyboard.press(']');
    await expectFocus(ends[2], 'third ]');
    await page.keyboard.press('[');
    await expectFocus(ends[1], '[ goes back');
    const before = await selectedMessage();
    await page.keyboard.press('p');
    const after = await until(selectedMessage, (m) => m?.focus !== before.focus, 3000);
    assert.equal(after.id, before.id, 'P keeps the message');
    const [row, time] = after.focus === 'send' ? [after.sendRow, after.send] : [after.recvRow, after.recv];
    const w = await win();
    assert.ok(w.from <= time && time <= w.to, `the partner end ${time} is in the window ${JSON.stringify(w)}`);
    const y = await page.evaluate((r) => window.parallax.timeline.rowY(r), row);
    assert.ok(y > 0 && y < (await canvas.boundingBox()).height, `its row is on screen (y ${y})`);
    // ] now walks the partner's row.
    const next = endsOn(row).find(([, t, id, e]) => t > time || (t === time && (id > after.id || (id === after.id && e > (after.focus === 'send' ? 0 : 1)))));
    await page.keyboard.press(']');
    if (next) await expectFocus(next, '] on the partner row');
  });

  await check('the ? help lists the flow keys', async () => {
    await page.keyboard.press('?');
    const help = page.locator('[data-testid=help]');
    await help.waitFor({ state: 'visible', timeout: 3000 });
    const text = await help.innerText();
    for (const k of ['] / [', 'P', 'Click an arrow']) assert.ok(text.includes(k), `the help lists ${k}`);
    await page.keyboard.press('Escape');
  });

  await check('no uncaught errors in the page', noPageErrors);
  console.log(`# ${summary.messages} messages in the trace; message ${message.id} took ${message.recv_time - message.send_time} ns`);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('linked-events checks');
