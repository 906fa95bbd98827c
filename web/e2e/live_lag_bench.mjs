// Display lag of live monitoring: how long after a record is made the viewer
// has it on screen. A traced program (examples/thread_farm) streams to
// `parallax serve --listen`; headless Chromium shows the live trace,
// following its end. For each new snapshot the page notes, after the first
// frame that painted a timeline tile asked for under that snapshot's summary
// (or a newer one), the wall time minus the wall time of the newest record in
// it (TraceSummary.begin_wall + duration). That covers the runtime's flush
// interval, the socket, consistent-run construction, the snapshot build, the
// WebSocket message (which carries the summary), the page's work, the tile
// request and its drawing. A snapshot overtaken before its tile came counts
// when the newer one's tile is painted.
//
//   node e2e/live_lag_bench.mjs --parallax PARALLAX --build BUILD_DIR [--json OUT] [--update-ms MS]
//                               [--seconds S] [--work-us US (job length: the record rate)]
//                               [--workers N (busy worker threads; the machine's cores they take)]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { launchBrowser, parseArgs, startServer, until } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { parallax: '', build: '', json: '', 'update-ms': '50', seconds: '8', 'work-us': '200', workers: '2' });
const farm = resolve(args.build, 'examples/thread_farm');
if (!args.parallax || !existsSync(farm)) {
  console.error('usage: live_lag_bench.mjs --parallax PARALLAX --build BUILD_DIR (with examples/thread_farm) [--json OUT]');
  process.exit(2);
}
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const dir = mkdtempSync(join(tmpdir(), 'plx-lag-'));
const server = await startServer(args.parallax, [], ['--listen', '127.0.0.1:0', '--update-ms', args['update-ms']]);
const browser = await launchBrowser();
let child = null;
try {
  const text = await until(async () => server.out.join('\n'), (t) => /PLX_LIVE_TOKEN=\S+/.test(t), 10000);
  const env = { PLX_LIVE: text.match(/PLX_LIVE=(\S+)/)[1], PLX_LIVE_TOKEN: text.match(/PLX_LIVE_TOKEN=(\S+)/)[1] };
  const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  await page.goto(server.url);
  // About `seconds` of steady work: --workers busy workers, jobs of --work-us µs.
  const workUs = Number(args['work-us']);
  const workers = Number(args.workers);
  const jobs = Math.round((Number(args.seconds) * workers * 1e6) / (workUs * 1.25));
  child = spawn(farm, ['--workers', String(workers), '--jobs', String(jobs), '--work-us', String(workUs)], {
    stdio: 'ignore',
    env: { ...process.env, ...env, PLX_OUTPUT: join(dir, 'farm.plx') },
  });
  const exited = new Promise((r) => child.on('exit', r));
  // Per snapshot, noted as the viewer sets its hooks (accessors on
  // window.parallax): the lag on screen — a frame has painted a tile asked
  // for under its summary or a newer one — and, for the breakdown, the
  // newest record's age when the `live` message announcing it was handled,
  // the server's own share (newest chunk's arrival to the snapshot being
  // ready), and when the frame after the summary was applied was painted.
  const seen = await page.evaluate(
    (ms) =>
      new Promise((done) => {
        const out = { lag: [], applied: [], ws: [], server: [], requests: {} };
        const hooks = window.parallax;
        // Round trips of the viewer's requests, by endpoint (the breakdown).
        const fetch0 = window.fetch;
        window.fetch = async (input, init) => {
          const path = String(input).replace(/^.*\/traces\/[^/]+\//, '').replace(/\?.*$/, '');
          const t0 = performance.now();
          try {
            return await fetch0(input, init);
          } finally {
            (out.requests[path] ??= []).push(performance.now() - t0);
          }
        };
        let summary = hooks.summary, live = hooks.live;
        const wall = (s, t) => Date.parse(s.begin_wall) + t / 1e6;
        Object.defineProperty(hooks, 'live', {
          configurable: true,
          get: () => live,
          set: (v) => {
            if (live && v && v.generation > live.generation && summary?.begin_wall) {
              out.ws.push(Date.now() - wall(summary, v.clock));
              out.server.push(v.lag_ms);
            }
            live = v;
          },
        });
        // Snapshots whose records are not yet painted: a tile asked for
        // under their summary (or a newer one) has to be on screen.
        let waiting = [];
        Object.defineProperty(hooks, 'summary', {
          configurable: true,
          get: () => summary,
          set: (v) => {
            summary = v;
            if (!v?.begin_wall || !(v.duration > 0)) return;
            const newest = wall(v, v.duration);
            waiting.push({ duration: v.duration, newest });
            requestAnimationFrame(() => setTimeout(() => out.applied.push(Date.now() - newest), 0));
            if (!looping) {
              looping = true;
              requestAnimationFrame(frame);
            }
          },
        });
        // After every frame while some snapshot waits (no frames are asked
        // for otherwise): which waiting snapshots the painted tile covers.
        let looping = false, stopped = false;
        const frame = () => {
          setTimeout(() => {
            const drawn = hooks.timeline?.drawnDuration() ?? -1;
            const now = Date.now();
            waiting = waiting.filter((w) => {
              if (w.duration > drawn) return true;
              out.lag.push(now - w.newest);
              return false;
            });
            looping = waiting.length > 0 && !stopped;
            if (looping) requestAnimationFrame(frame);
          }, 0);
        };
        setTimeout(() => {
          stopped = true;
          done(out);
        }, ms);
      }),
    Number(args.seconds) * 1000,
  );
  const lags = seen.lag;
  await exited;
  const status = await server.api('/traces/live/live');
  // The first snapshots include the viewer's own start-up; leave out the first second's worth.
  const skip = (xs) => xs.slice(Math.min(xs.length - 1, Math.ceil(1000 / Number(args['update-ms']))));
  const steady = skip(lags);
  const ws = skip(seen.ws), serverLag = skip(seen.server), applied = skip(seen.applied);
  const results = {
    kind: 'live_lag',
    update_ms: Number(args['update-ms']),
    work_us: workUs,
    workers,
    snapshots_seen: lags.length,
    lag_ms: { median: quantile(steady, 0.5), p90: quantile(steady, 0.9), worst: Math.max(...steady) },
    // the parts: newest record's age when the live message arrived, and the server's share of it;
    // when the page had applied the summary (status bar, extents), before the new tile came
    summary_applied_ms: { median: quantile(applied, 0.5), p90: quantile(applied, 0.9) },
    websocket_age_ms: { median: quantile(ws, 0.5), p90: quantile(ws, 0.9) },
    server_lag_ms: { median: quantile(serverLag, 0.5), p90: quantile(serverLag, 0.9) },
    records: status.applied,
    records_per_s: status.applied / Number(args.seconds),
  };
  results.requests = Object.fromEntries(
    Object.entries(seen.requests).map(([path, xs]) => [path, { count: xs.length, median_ms: quantile(xs, 0.5) }]),
  );
  const ms = (v) => `${v.toFixed(0)} ms`;
  console.log(`display lag over ${steady.length} snapshots (${results.records} records, ` +
              `${(results.records_per_s / 1000).toFixed(0)} k records/s, update every ${args['update-ms']} ms): ` +
              `median ${ms(results.lag_ms.median)}, p90 ${ms(results.lag_ms.p90)}, worst ${ms(results.lag_ms.worst)}; ` +
              `at the live message ${ms(results.websocket_age_ms.median)} (server ${ms(results.server_lag_ms.median)}), ` +
              `summary applied ${ms(results.summary_applied_ms.median)}`);
  console.log(`requests: ${Object.entries(results.requests).map(([p, r]) => `${p} ${r.count}x ${ms(r.median_ms)}`).join(', ')}`);
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
} finally {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
