// What the end-to-end tests and the viewer benchmark share: a real
// `parallax serve` started on 127.0.0.1 (its URL and token read from what it
// prints), typed access to its API from node, and headless Chromium through
// playwright-core (Debian's /usr/bin/chromium; no browser is downloaded).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

import { chromium } from 'playwright-core';

/** --name value pairs into an object; `defaults` names the accepted options. */
export function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || !(name in defaults) || i + 1 >= argv.length) {
      console.error(`unknown or incomplete option: ${argv[i]}`);
      process.exit(2);
    }
    out[name] = argv[++i];
  }
  return out;
}

/**
 * The options of a script run on the demo trace: --parallax, --trace-dir (a
 * directory holding a .plx file) and those of `more` (name: default). Exits
 * with the script's usage line when one of the first two is missing; makes
 * the --out directory when there is one. Returns the options and the trace
 * file's name.
 */
export function demoTraceArgs(script, more = {}) {
  const args = parseArgs(process.argv.slice(2), { parallax: '', 'trace-dir': '', ...more });
  const traceFile = args['trace-dir'] && readdirSync(args['trace-dir']).find((f) => f.endsWith('.plx'));
  if (!args.parallax || !traceFile) {
    const extra = Object.keys(more).map((k) => ` [--${k} DIR]`).join('');
    console.error(`usage: ${script} --parallax PARALLAX --trace-dir DIR (with a .plx file)${extra}`);
    process.exit(2);
  }
  if (args.out) mkdirSync(args.out, { recursive: true });
  return { args, traceFile };
}

/**
 * Starts `parallax serve FILES --no-browser` and resolves once it printed its
 * URL. PLX_WEB_DIR in the environment serves that built viewer (--web-dir),
 * e.g. another worktree's web/dist, instead of the one the program finds. The result has url, origin, token, log (stderr lines), out (stdout
 * lines), proc, api(path) (JSON), raw(path)
 * (ArrayBuffer), fetchWithout(path) (no token), waitAllReady(ms), stop().
 */
export async function startServer(parallax, files, extraArgs = []) {
  const webDir = process.env.PLX_WEB_DIR ? ['--web-dir', process.env.PLX_WEB_DIR] : [];
  const proc = spawn(parallax, ['serve', ...files, '--no-browser', '--port', '0', ...webDir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  const out = [];  // every line it printed on stdout
  createInterface({ input: proc.stderr }).on('line', (line) => log.push(line));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('parallax serve printed no URL in 30 s')), 30000);
    createInterface({ input: proc.stdout }).on('line', (line) => {
      out.push(line);
      const m = line.match(/https?:\/\/\S+/);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`parallax serve exited (${code}): ${log.join('\n')}`));
    });
  });
  const parsed = new URL(url);
  const token = parsed.searchParams.get('token');
  const origin = parsed.origin;
  const headers = { Authorization: `Bearer ${token}` };
  const get = async (path) => {
    const res = await fetch(`${origin}/api/v1${path}`, { headers });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}: ${await res.text()}`);
    return res;
  };
  return {
    url,
    origin,
    token,
    log,
    out,
    proc,
    api: async (path) => (await get(path)).json(),
    raw: async (path) => (await get(path)).arrayBuffer(),
    fetchWithout: (path) => fetch(`${origin}${path}`),
    async waitAllReady(ms) {
      const deadline = Date.now() + ms;
      for (;;) {
        const { traces } = await (await get('/traces')).json();
        const failed = traces.find((t) => t.status === 'failed');
        if (failed) throw new Error(`${failed.name} failed to load: ${failed.error}`);
        if (traces.every((t) => t.status === 'ready')) return traces;
        if (Date.now() > deadline) throw new Error('traces still loading after the deadline');
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGINT');
      await new Promise((r) => {
        proc.once('exit', r);
        setTimeout(() => {
          proc.kill('SIGKILL');
          r();
        }, 5000);
      });
    },
  };
}

/** Headless Debian Chromium, with the flags this machine's closed network needs. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.PLX_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A list of named checks: check(name, fn) runs fn and prints TAP-like
 * "ok N - name" / "not ok N - name" lines; finish() prints the summary line
 * and exits non-zero when any failed.
 */
export function checks() {
  const results = [];
  return {
    results,
    async check(name, fn) {
      const start = Date.now();
      try {
        await fn();
        results.push(true);
        console.log(`ok ${results.length} - ${name} (${Date.now() - start} ms)`);
      } catch (e) {
        results.push(false);
        console.log(`not ok ${results.length} - ${name}\n  ${String(e?.stack ?? e).replace(/\n/g, '\n  ')}`);
      }
    },
    fail(what, e) {
      results.push(false);
      console.log(`not ok - ${what}: ${e?.stack ?? e}`);
    },
    finish(what = 'end-to-end checks') {
      const failed = results.filter((r) => !r).length;
      console.log(`${results.length - failed} of ${results.length} ${what} passed`);
      process.exit(failed ? 1 : 0);
    },
  };
}

/** Polls `probe` (async) until `ok(value)` holds or `ms` pass; returns the last value. */
export async function until(probe, ok, ms = 5000, stepMs = 50) {
  const deadline = Date.now() + ms;
  let value = await probe();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, stepMs));
    value = await probe();
  }
  return value;
}

/**
 * Clicks `slice` (an API slice: row, depth, begin, end) on the timeline until
 * the timeline selects it; returns the selected id. Message arrows take clicks
 * within a few pixels of their line and may cross the bar anywhere (one from
 * far before the window to far after it runs along the bar's whole width),
 * and tiles may still be arriving, so points along the bar, on its middle
 * line and near its top and bottom edges, are tried in turn, each after
 * `before()` (for example a click that clears the selection).
 */
export async function selectSlice(page, slice, before = () => page.keyboard.press('Escape')) {
  const canvas = page.locator('#timeline canvas').first();
  const selected = () => page.evaluate(() => window.parallax.timeline.selected());
  let id = -1;
  for (const f of [0.5, 0.3, 0.7, 0.15, 0.85]) {
    for (const edge of [0, -1, 1]) {
      await before();
      const p = await page.evaluate(([s, f, edge]) => {
        const t = window.parallax.timeline;
        const x0 = Math.max(t.timeToX(s.begin), 200);
        const y = t.laneY(s.row, s.depth);
        const lane = t.laneY(s.row, s.depth + 1) - y;  // a lane's height
        return { x: x0 + f * (t.timeToX(s.end) - x0), y: y + edge * Math.max(0, lane / 2 - 2) };
      }, [slice, f, edge]);
      await canvas.click({ position: p });
      id = await until(selected, (x) => x === slice.id, 1500);
      if (id === slice.id) return id;
    }
  }
  return id;
}

/**
 * Collects the page's uncaught errors from now on; the returned function
 * asserts there were none, nor any in the viewer's error banner.
 */
export function watchPageErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return async () => {
    assert.deepEqual(errors, []);
    assert.deepEqual(await page.evaluate(() => window.parallax.errors()), []);
  };
}

/** Ends a script's run: a screenshot of the page as it was (when there is
 * one) into `shot`, then the browser and the server closed. */
export async function closeRun(page, browser, server, shot) {
  if (page) writeFileSync(shot, await page.screenshot().catch(() => Buffer.alloc(0)));
  await browser.close();
  await server.stop();
}
