// Display lag of live monitoring: how long after a record is made the viewer
// has it on screen. A traced program (examples/thread_farm) streams to
// `parallax serve --listen`; headless Chromium shows the live trace. At each
// new snapshot the page notes, one animation frame after the new summary
// arrived, the wall time minus the wall time of the newest record in it
// (TraceSummary.begin_wall + duration). That covers the runtime's flush
// interval, the socket, consistent-run construction, the snapshot build, the
// WebSocket message and the summary fetch.
//
//   node e2e/live_lag_bench.mjs --parallax PARALLAX --build BUILD_DIR [--json OUT] [--update-ms MS]
//                               [--seconds S] [--work-us US (job length: the record rate)]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { launchBrowser, parseArgs, startServer, until } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { parallax: '', build: '', json: '', 'update-ms': '50', seconds: '8', 'work-us': '200' });
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
  // About `seconds` of steady work: 2 workers, jobs of --work-us µs.
  const workUs = Number(args['work-us']);
  const jobs = Math.round((Number(args.seconds) * 2 * 1e6) / (workUs * 1.25));
  child = spawn(farm, ['--workers', '2', '--jobs', String(jobs), '--work-us', String(workUs)], {
    stdio: 'ignore',
    env: { ...process.env, ...env, PLX_OUTPUT: join(dir, 'farm.plx') },
  });
  const exited = new Promise((r) => child.on('exit', r));
  const lags = await page.evaluate(
    (ms) =>
      new Promise((done) => {
        const out = [];
        let last = null;
        const stop = performance.now() + ms;
        const tick = () => {
          const s = window.parallax?.summary;
          if (s && s !== last && s.begin_wall && s.duration > 0) {
            last = s;
            const newest = Date.parse(s.begin_wall) + s.duration / 1e6;
            requestAnimationFrame(() => out.push(Date.now() - newest));
          }
          if (performance.now() > stop) done(out);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    Number(args.seconds) * 1000,
  );
  await exited;
  const status = await server.api('/traces/live/live');
  // The first snapshots include the viewer's own start-up; leave out the first second's worth.
  const steady = lags.slice(Math.min(lags.length - 1, Math.ceil(1000 / Number(args['update-ms']))));
  const results = {
    kind: 'live_lag',
    update_ms: Number(args['update-ms']),
    work_us: workUs,
    snapshots_seen: lags.length,
    lag_ms: { median: quantile(steady, 0.5), p90: quantile(steady, 0.9), worst: Math.max(...steady) },
    records: status.applied,
    records_per_s: status.applied / Number(args.seconds),
  };
  const ms = (v) => `${v.toFixed(0)} ms`;
  console.log(`display lag over ${steady.length} snapshots (${results.records} records, ` +
              `${(results.records_per_s / 1000).toFixed(0)} k records/s, update every ${args['update-ms']} ms): ` +
              `median ${ms(results.lag_ms.median)}, p90 ${ms(results.lag_ms.p90)}, worst ${ms(results.lag_ms.worst)}`);
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
} finally {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
