// End-to-end tests of the paradigm view (src/views/paradigm): with the
// legend's "by paradigm" switch on, the timeline paints an MPI_Allreduce
// slice in the collective colour, an MPI_Send in the point-to-point one and
// so on, hidden states stay hidden, the mountain range follows; the
// Paradigms tab's times equal the sums of /stats rows per paradigm, for the
// whole trace, per process and for a zoomed window; the program's state is
// finished, or aborted for a trace where a process never called MPI_Finalize.
// Two small traces written as Chrome JSON and converted with `parallax
// convert`, a real `parallax serve`, headless Chromium.
//
//   node e2e/paradigm.mjs --parallax PARALLAX --trace-dir DIR [--out DIR]
//
// DIR is the demo trace's (only to share plx_add_demo_e2e_test's command
// line; not served); PLX_WEB_DIR picks the built viewer to serve (harness.mjs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { checks, closeRun, demoTraceArgs, launchBrowser, startServer, until, watchPageErrors } from './harness.mjs';

const { args } = demoTraceArgs('paradigm.mjs', { out: 'e2e-paradigm-out' });
const { check, fail, finish } = checks();

// The paradigm colours of src/views/paradigm/paradigms.ts and, written out
// here on purpose, the paradigm each state of the traces below belongs to.
const COLOR = {
  computing: '#4caf50', p2p: '#1f77b4', collective: '#ff7f0e', 'one-sided': '#9467bd',
  sync: '#d62728', io: '#8c564b', recorder: '#7f7f7f', other: '#c7c7c7',
};
const PARADIGM_OF = {
  solve: 'computing', MPI_Send: 'p2p', MPI_Allreduce: 'collective', 'omp barrier': 'sync',
  'parallax:flush': 'recorder', MPI_File_write: 'io', MPI_Put: 'one-sided', MPI_Comm_rank: 'other',
  MPI_Init: 'other', MPI_Finalize: 'other',
};
const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b, tol = 12) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

/** A trace of two processes, one thread each, a slice of every paradigm; `mpi` wraps it in MPI_Init/MPI_Finalize (the second process never finalizes). */
function writeTrace(name, mpi) {
  const plan = [['solve', 'user', 1000], ['MPI_Send', 'comm', 2000], ['MPI_Allreduce', 'comm', 3000], ['omp barrier', 'sync', 1000],
    ['parallax:flush', 'internal', 500], ['MPI_File_write', 'io', 1000], ['MPI_Put', 'comm', 500], ['MPI_Comm_rank', 'comm', 200]];
  const events = [];
  for (const pid of [1, 2]) {
    let t = 0;
    const x = (name, cat, dur) => {
      events.push({ ph: 'X', name, cat, pid, tid: pid * 10, ts: t, dur });
      t += dur;
    };
    if (mpi) x('MPI_Init', 'comm', 300);
    for (const [n, cat, d] of plan) x(n, cat, d * pid);
    t += 300; // outside any state: computing
    x('solve', 'user', 500);
    if (mpi && pid === 1) x('MPI_Finalize', 'comm', 100);
  }
  const json = join(args.out, `${name}.json`);
  const plx = join(args.out, `${name}.plx`);
  writeFileSync(json, JSON.stringify({ traceEvents: events }));
  execFileSync(args.parallax, ['convert', '--force', json, plx], { stdio: ['ignore', 'ignore', 'inherit'] });
  return plx;
}

/** Time per paradigm of a /stats answer: self time per state's paradigm, the rest of the thread time computing. */
function expectedTimes(stats) {
  const out = Object.fromEntries(Object.keys(COLOR).map((p) => [p, 0]));
  let inStates = 0;
  for (const r of stats.rows) {
    assert.ok(r.name in PARADIGM_OF, `a state of the test trace: ${r.name}`);
    out[PARADIGM_OF[r.name]] += r.self;
    inStates += r.self;
  }
  out.computing += stats.thread_time - inStates;
  return out;
}

const server = await startServer(args.parallax, [writeTrace('paradigms', false), writeTrace('aborted', true)]);
const browser = await launchBrowser();
let page;
try {
  const traces = await server.waitAllReady(60000);
  const trace = traces.find((t) => t.name.startsWith('paradigms'));
  const aborted = traces.find((t) => t.name.startsWith('aborted'));
  const api = (path) => server.api(`/traces/${trace.id}${path}`);
  const summary = await api('/summary');
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  const open = async (id) => {
    const url = new URL(server.url);
    url.searchParams.set('trace', id);
    await page.goto(url.toString());
    await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  };
  await open(trace.id);

  const canvas = page.locator('#timeline canvas').first();
  /** The timeline canvas's pixels at CSS points, as [r, g, b]. */
  const pixels = (points) => canvas.evaluate((c, points) => {
    const dpr = c.width / c.clientWidth;
    const ctx = c.getContext('2d');
    return points.map(([x, y]) => [...ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data.slice(0, 3)]);
  }, points);
  /** The first slice of state `name` on process 0's row. */
  const sliceOf = async (name) => {
    const found = await api(`/search?q=${encodeURIComponent(name)}&limit=10`);
    const s = found.slices.find((x) => x.name === name && x.row === summary.processes[0].threads[0]) ?? found.slices[0];
    assert.ok(s, `a ${name} slice`);
    return s;
  };
  /** Points along a slice's bar (labels may cover its middle). */
  const barPoints = (s) => page.evaluate((s) => {
    const t = window.parallax.timeline;
    const x0 = Math.max(t.timeToX(s.begin), 200);
    const x1 = t.timeToX(s.end);
    const y = t.laneY(s.row, s.depth);
    const lane = t.laneY(s.row, s.depth + 1) - y;
    const out = [];
    for (const f of [0.1, 0.9, 0.5, 0.3, 0.7]) for (const dy of [0, -1, 1]) out.push([x0 + f * (x1 - x0), y + dy * Math.max(0, lane / 2 - 2)]);
    return out;
  }, s);
  /** Whether the slice shows `hex` somewhere along its bar within a few seconds. */
  const shows = async (s, hex) => {
    const got = await until(async () => pixels(await barPoints(s)), (px) => px.some((p) => near(p, hexToRgb(hex))), 5000, 100);
    return got.some((p) => near(p, hexToRgb(hex)));
  };
  const paradigmBox = page.locator('[data-testid=legend-paradigm]');

  await check('by paradigm: each state is painted in its paradigm colour, the switch undone restores its own', async () => {
    // Its palette colour is a shade of the collective hue: pick one far from it.
    const picker = page.locator('li[data-state="MPI_Allreduce"] input[type=color]');
    await picker.fill('#00c0c0');
    const own = await picker.inputValue();
    assert.ok(!near(hexToRgb(own), hexToRgb(COLOR.collective), 30), `MPI_Allreduce's own colour ${own} differs from the collective one`);
    const allreduce = await sliceOf('MPI_Allreduce');
    assert.ok(await shows(allreduce, own), 'first in its own colour');
    await paradigmBox.check();
    for (const [name, paradigm] of Object.entries(PARADIGM_OF)) {
      if (name.startsWith('MPI_Init') || name === 'MPI_Finalize') continue;
      const s = await sliceOf(name);
      assert.ok(await shows(s, COLOR[paradigm]), `${name} shows the ${paradigm} colour ${COLOR[paradigm]}`);
    }
    assert.equal(await page.locator('[data-testid=legend-paradigm-key]').isVisible(), true, 'the key is shown');
    await paradigmBox.uncheck();
    assert.ok(await shows(allreduce, own), 'back in its own colour');
    await paradigmBox.check();
  });

  await check('by paradigm: a hidden state stays hidden', async () => {
    const allreduce = await sliceOf('MPI_Allreduce');
    const box = page.locator('li[data-state="MPI_Allreduce"] .legend-name input[type=checkbox]');
    await box.uncheck();
    const hidden = await until(async () => pixels(await barPoints(allreduce)), (px) => px.every((p) => !near(p, hexToRgb(COLOR.collective))), 5000, 100);
    assert.ok(hidden.every((p) => !near(p, hexToRgb(COLOR.collective))), `no collective colour where the hidden slice is: ${JSON.stringify(hidden)}`);
    await box.check();
    assert.ok(await shows(allreduce, COLOR.collective), 'shown again, in the collective colour');
  });

  await check('by paradigm: the mountain range paints in paradigm colours', async () => {
    const mountain = page.locator('[data-testid=mountain] canvas').first();
    const has = (hex) => mountain.evaluate((c, rgb) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - rgb[0]) <= 6 && Math.abs(d[i + 1] - rgb[1]) <= 6 && Math.abs(d[i + 2] - rgb[2]) <= 6) return true;
      return false;
    }, hexToRgb(hex));
    assert.ok(await until(() => has(COLOR.collective), (v) => v, 5000, 100), 'the collective colour in the mountain range');
    assert.ok(await has(COLOR.p2p), 'the point-to-point colour in the mountain range');
  });

  await check('by paradigm: the compact timeline paints in paradigm colours too', async () => {
    /** Whether the timeline canvas shows `hex` anywhere. */
    const has = (hex) => canvas.evaluate((c, rgb) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - rgb[0]) <= 6 && Math.abs(d[i + 1] - rgb[1]) <= 6 && Math.abs(d[i + 2] - rgb[2]) <= 6) return true;
      return false;
    }, hexToRgb(hex));
    await page.locator('[data-testid=compact-toggle]').check();
    try {
      for (const p of ['collective', 'p2p', 'sync', 'io']) {
        assert.ok(await until(() => has(COLOR[p]), (v) => v, 5000, 100), `the ${p} colour in the compact timeline`);
      }
      await paradigmBox.uncheck();
      assert.equal(await until(() => has(COLOR.collective), (v) => !v, 5000, 100), false, 'no collective colour with paradigm colouring off');
      await paradigmBox.check();
    } finally {
      await page.locator('[data-testid=compact-toggle]').uncheck();
    }
  });

  const panel = page.locator('[data-testid=panel]');
  /** The tab's totals and per-process segments once no answer is pending and it covers `scope`. */
  const shown = async (scope) => {
    const read = () => panel.evaluate((el) => ({
      scope: el.dataset.scope, from: el.dataset.from, to: el.dataset.to, pending: el.dataset.pending,
      totals: Object.fromEntries([...el.querySelectorAll('[data-testid=paradigm-total]')].map((tr) => [tr.dataset.paradigm, Number(tr.dataset.ns)])),
      processes: [...el.querySelectorAll('[data-testid=paradigm-process]')].map((row) => ({
        process: Number(row.dataset.process),
        segments: Object.fromEntries([...row.querySelectorAll('[data-testid=paradigm-segment]')].map((s) => [s.dataset.paradigm, Number(s.dataset.ns)])),
      })),
    }));
    const s = await until(read, (s) => s.scope === scope && s.pending === undefined && Object.keys(s.totals).length > 0, 15000);
    assert.equal(s.scope, scope, `the tab covers the ${scope}`);
    return s;
  };
  const nonZero = (t) => Object.fromEntries(Object.entries(t).filter(([, v]) => v > 0));
  const compare = async (s, query) => {
    assert.deepEqual(s.totals, expectedTimes(await api(`/stats${query}`)), 'totals: the /stats rows summed per paradigm');
    assert.equal(s.processes.length, summary.processes.length, 'a bar per process');
    for (const p of s.processes) {
      const want = nonZero(expectedTimes(await api(`/stats${query}${query ? '&' : '?'}process=${p.process}`)));
      assert.deepEqual(p.segments, want, `process ${p.process}: its /stats rows summed per paradigm`);
    }
  };

  await check('the Paradigms tab: time per paradigm equals the /stats rows per paradigm, in all and per process', async () => {
    await page.locator('button[data-view=paradigm]').click();
    const s = await shown('trace');
    for (const p of ['computing', 'p2p', 'collective', 'one-sided', 'sync', 'io', 'recorder', 'other']) assert.ok(s.totals[p] > 0, `some ${p} time`);
    await compare(s, '');
  });

  await check('the Paradigms tab follows the zoomed window', async () => {
    const allreduce = await sliceOf('MPI_Allreduce');
    await page.evaluate(([from, to]) => window.parallax.timeline.setWindow(from, to), [0, allreduce.end]);
    const s = await shown('window');
    await compare(s, `?from=${s.from}&to=${s.to}`);
    assert.equal(s.totals.io, 0, 'no I/O before the end of the first MPI_Allreduce');
    await page.evaluate((d) => window.parallax.timeline.setWindow(0, d), summary.duration);
    await shown('trace');
  });

  await check("the program's state: finished, and aborted when a process never called MPI_Finalize", async () => {
    const program = page.locator('[data-testid=paradigm-program]');
    const state = () => program.evaluate((el) => el.dataset.state);
    assert.equal(await until(state, (s) => s !== 'unknown', 15000), 'finished', await program.innerText());
    await open(aborted.id);
    await page.locator('button[data-view=paradigm]').click();
    assert.equal(await until(state, (s) => s !== 'unknown', 15000), 'aborted');
    assert.match(await program.innerText(), /1 of 2 MPI processes never called MPI_Finalize/);
  });

  await check('the URL keeps paradigm colouring: a reload comes back with it on', async () => {
    await open(trace.id);
    await paradigmBox.check();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('color') === 'paradigm', null, { timeout: 5000 });
    await page.reload();
    await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
    assert.equal(await paradigmBox.isChecked(), true, 'the switch is on after the reload');
    await paradigmBox.uncheck();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('color'), null, { timeout: 5000 });
  });

  await check('no page errors', async () => noPageErrors());
} catch (e) {
  fail('paradigm checks', e);
} finally {
  await closeRun(page, browser, server, join(args.out, 'last.png'));
}
finish('paradigm checks');
