// End-to-end test of live monitoring (issue 7): `parallax serve --listen`,
// a real MPI program traced with PLX_LIVE pointing at it, and headless
// Chromium watching. Checks that states and messages appear in the viewer
// while the program runs, that after the run the live trace equals the .plx
// file the run wrote, and that killing the viewer and the server mid-run
// leaves the program and its file whole.
//
//   node e2e/live.mjs --parallax PARALLAX --build BUILD_DIR [--out DIR] [--screenshot PNG]
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { checks, launchBrowser, parseArgs, startServer, until } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { parallax: '', build: '', out: 'e2e-out/live', screenshot: '' });
const farm = resolve(args.build, 'examples/mpi/mpi_farm');
const mpirun = '/usr/bin/mpirun';
if (!args.parallax || !args.build) {
  console.error('usage: live.mjs --parallax PARALLAX --build BUILD_DIR [--out DIR] [--screenshot PNG]');
  process.exit(2);
}
if (!existsSync(farm) || !existsSync(mpirun) || !existsSync(resolve(args.build, 'src/mpi/libparallax-mpi.so'))) {
  console.log(`skipped: live monitoring needs ${farm}, ${mpirun} and the MPI tracing library`);
  process.exit(0);
}
mkdirSync(args.out, { recursive: true });
const { check, fail, finish } = checks();

const JOBS = 3000;
const WORKERS = 3;

/** The live endpoint and token `parallax serve --listen` printed. */
async function liveEnv(server) {
  const text = await until(async () => server.out.join('\n'), (t) => /PLX_LIVE_TOKEN=\S+/.test(t), 10000);
  const live = text.match(/PLX_LIVE=(\S+)/);
  const token = text.match(/PLX_LIVE_TOKEN=(\S+)/);
  assert.ok(live && token, `serve --listen printed PLX_LIVE and PLX_LIVE_TOKEN: ${text}`);
  return { PLX_LIVE: live[1], PLX_LIVE_TOKEN: token[1] };
}

/** Runs the MPI farm on 1 + WORKERS ranks under `parallax record`, streaming live. */
function runFarm(plx, env) {
  const root = process.getuid?.() === 0 ? ['--allow-run-as-root'] : [];
  const child = spawn(args.parallax, ['record', '-o', plx, '--', mpirun, ...root, '--oversubscribe',
    '--mca', 'btl', 'self,vader', '-np', String(WORKERS + 1), farm, '--jobs', String(JOBS), '--work-us', '2000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const output = [];
  child.stdout.on('data', (d) => output.push(String(d)));
  child.stderr.on('data', (d) => output.push(String(d)));
  child.done = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal, output: output.join('') })));
  return child;
}

const running = (child) => child.exitCode === null && child.signalCode === null;

const browser = await launchBrowser();
try {
  await check('a viewer sees states and messages appear while the program runs; afterwards the live trace equals the file', async () => {
    const plx = join(args.out, 'farm-live.plx');
    rmSync(plx, { force: true });
    const server = await startServer(args.parallax, [], ['--listen', '127.0.0.1:0', '--update-ms', '100']);
    try {
      const env = await liveEnv(server);
      const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(server.url);
      // The statistics panel is open from the start: it must follow the snapshots.
      await page.locator('[data-view=stats]').click();
      const child = runFarm(plx, env);

      // While it runs: the viewer's summary grows, generation after generation.
      const seen = [];
      let shot = false;
      const deadline = Date.now() + 60000;
      while (running(child) && Date.now() < deadline) {
        const s = await page.evaluate(() => {
          const sum = window.parallax.summary;
          const state = document.querySelector('[data-testid=program-state]')?.textContent ?? '';
          const frames = window.parallax.timeline?.frames() ?? 0;
          const generation = window.parallax.live?.generation ?? 0;
          return sum ? { slices: sum.slices, messages: sum.messages, rows: sum.threads.length, state, frames, generation, t: Date.now() } : null;
        });
        if (s && running(child)) seen.push(s);
        if (args.screenshot && !shot && s?.slices > 0 && seen.length >= 12 && running(child)) {
          // The picture for the README, taken mid-run.
          mkdirSync(resolve(args.screenshot, '..'), { recursive: true });
          writeFileSync(args.screenshot, await page.screenshot());
          shot = true;
        }
        await new Promise((r) => setTimeout(r, 150));
      }
      const during = seen.filter((s) => s.slices > 0 && s.messages > 0);
      assert.ok(during.length >= 2, `the viewer saw the trace at least twice while the program ran: ${JSON.stringify(seen.slice(-5))}`);
      assert.ok(during.at(-1).slices > during[0].slices, 'slices kept appearing');
      assert.ok(during.at(-1).messages > during[0].messages, 'messages kept appearing');
      assert.ok(during.some((s) => /running/i.test(s.state)), 'the program state said running');
      // A snapshot is painted once, when its tile has come: not also before,
      // with the last snapshot's tile at the new window (which doubles the
      // work). A tile slower than the next snapshot adds a frame per 250 ms.
      const frames = during.at(-1).frames - during[0].frames;
      const generations = during.at(-1).generation - during[0].generation;
      const ms = during.at(-1).t - during[0].t;
      assert.ok(generations >= 5 && frames <= generations + ms / 250 + 3,
        `${frames} timeline frames for ${generations} snapshots in ${ms} ms`);

      const { code, output } = await child.done;
      assert.equal(code, 0, `the traced program finished normally: ${output}`);
      // After the run: the program state says finished and the live trace holds everything.
      await until(() => page.evaluate(() => document.querySelector('[data-testid=program-state]')?.textContent ?? ''),
        (t) => /finished/i.test(t), 20000);
      const live = await until(() => server.api('/traces/live/summary'),
        (s) => s.messages === 2 * JOBS + WORKERS, 20000, 200);
      assert.equal(live.messages, 2 * JOBS + WORKERS, 'every job and result message, and a stop per worker');
      const status = await server.api('/traces/live/live');
      assert.equal(status.program, 'finished');
      assert.equal(status.received, status.applied, 'every record received was applied');
      assert.equal(status.bad_input, 0);

      // The live model equals the model of the file the run wrote.
      const fileServer = await startServer(args.parallax, [plx]);
      try {
        const [entry] = await fileServer.waitAllReady(60000);
        const file = await fileServer.api(`/traces/${entry.id}/summary`);
        for (const key of ['duration', 'events', 'slices', 'messages'])
          assert.equal(live[key], file[key], `summary.${key}`);
        assert.deepEqual(live.threads, file.threads, 'threads');
        assert.deepEqual(live.processes.map((p) => [p.rank, p.pid, p.threads]),
          file.processes.map((p) => [p.rank, p.pid, p.threads]), 'processes');
        assert.deepEqual(live.states.map((s) => s.name), file.states.map((s) => s.name), 'states');
        const [ls, fs] = await Promise.all([server.api('/traces/live/stats'), fileServer.api(`/traces/${entry.id}/stats`)]);
        assert.deepEqual(ls.rows, fs.rows, 'per-state statistics');
        const shown = await until(() => page.locator('[data-testid=stats-row]').count(), (n) => n === ls.rows.length, 10000);
        assert.equal(shown, ls.rows.length, 'the statistics panel shows the last snapshot\'s states');
        const rows = file.threads.map((t) => t.index).join(',');
        const tile = `tile?rows=${rows}&from=0&to=${file.duration}&width=1200`;
        const [lt, ft] = await Promise.all([server.raw(`/traces/live/${tile}`), fileServer.raw(`/traces/${entry.id}/${tile}`)]);
        assert.ok(Buffer.from(lt).equals(Buffer.from(ft)), 'the whole-trace tile is byte for byte the same');
      } finally {
        await fileServer.stop();
      }
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      await page.close();
    } finally {
      await server.stop();
    }
  });

  await check('killing the viewer and the server mid-run: the program finishes and its file is complete', async () => {
    const plx = join(args.out, 'farm-killed.plx');
    rmSync(plx, { force: true });
    const server = await startServer(args.parallax, [], ['--listen', '127.0.0.1:0']);
    const env = await liveEnv(server);
    const page = await browser.newPage();
    await page.goto(server.url);
    const child = runFarm(plx, env);
    // Wait until records flow, then cut both.
    await until(() => server.api('/traces/live/live').catch(() => ({ applied: 0 })), (s) => s.applied > 0, 30000, 100);
    assert.ok(running(child), 'the program is still running when the viewer and server go');
    await page.close();
    server.proc.kill('SIGKILL');
    const { code, output } = await child.done;
    assert.equal(code, 0, `the traced program finished normally: ${output}`);
    const fileServer = await startServer(args.parallax, [plx]);
    try {
      const [entry] = await fileServer.waitAllReady(60000);
      const file = await fileServer.api(`/traces/${entry.id}/summary`);
      assert.deepEqual(file.problems, [], 'the file has no damage');
      assert.equal(file.messages, 2 * JOBS + WORKERS, 'every message is in the file');
      assert.equal(file.processes.length, WORKERS + 1);
    } finally {
      await fileServer.stop();
    }
  });
} catch (e) {
  fail('setup', e);
} finally {
  await browser.close();
}
finish('live checks');
