// The animation view's benchmark (issue 7): 1024 nodes on the 8x8-mesh setup
// file, the replay cursor driven forward every animation frame at a speed
// where well over 1000 node states change per wall second, in headless
// Chromium against a real `parallax serve`. Measures frames per second from
// requestAnimationFrame timestamps over ~5 s, the frames the view drew and
// how long drawing took, the node state changes it showed per second and the
// /at answers per second.
//
//   node e2e/animation_bench.mjs --parallax PARALLAX --trace FILE [--setup FILE]
//        [--seconds 5] [--json OUT] [--web-dir DIR]
//
// PLX_ANIMATION_SHOT=FILE.png saves a screenshot at the end.
// FILE needs 1024 processes: bench/write_mpi_trace 2000000 1024 writes one.
// Prints a summary and one JSON line (kind "animation"); --json writes it too.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchBrowser, parseArgs, startServer } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = parseArgs(process.argv.slice(2), {
  parallax: '',
  trace: '',
  setup: resolve(here, '../../examples/setups/mesh-8x8-1024.json'),
  seconds: '5',
  json: '',
  'web-dir': '',
});
if (!args.parallax || !args.trace) {
  console.error('usage: animation_bench.mjs --parallax PARALLAX --trace FILE [--setup FILE] [--seconds 5] [--json OUT]');
  process.exit(2);
}
const seconds = Number(args.seconds);

const server = await startServer(args.parallax, [args.trace], args['web-dir'] ? ['--web-dir', args['web-dir']] : []);
const results = { kind: 'animation', trace: args.trace, setup: args.setup };
const browser = await launchBrowser();
try {
  const [trace] = await server.waitAllReady(10 * 60 * 1000);
  const summary = await server.api(`/traces/${trace.id}/summary`);
  results.processes = summary.processes.length;
  results.events = summary.events;
  results.trace_duration_ns = summary.duration;
  if (summary.processes.length < 1024) throw new Error(`the trace has ${summary.processes.length} processes, the benchmark needs 1024`);

  const page = await browser.newPage({ viewport: { width: 1600, height: 1100 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 120000 });
  // The panel as a user would drag it open for a 1024-node picture (the splitter).
  await page.evaluate(() => (document.querySelector('.panel').style.height = '900px'));
  await page.click('[data-view=animation]');
  await page.waitForFunction(() => window.parallax.animation?.atTime() !== null, null, { timeout: 60000 });
  await page.setInputFiles('[data-testid=animation-file]', args.setup);
  await page.waitForFunction(() => window.parallax.animation.nodes().length >= 1024, null, { timeout: 60000 });
  results.nodes = await page.evaluate(() => window.parallax.animation.nodes().length);
  const canvas = await page.locator('[data-testid=animation-canvas]').boundingBox();
  results.canvas = { width: Math.round(canvas.width), height: Math.round(canvas.height) };

  // The cursor runs through the middle 80 % of the trace in `seconds`, moved
  // every animation frame as replay would; the page counts what it shows.
  const from = summary.duration * 0.1;
  const speed = (summary.duration * 0.8) / (seconds * 1000); // trace ns per wall ms
  results.replay_speed_ns_per_s = speed * 1000;
  const run = await page.evaluate(
    ({ from, speed, seconds }) =>
      new Promise((done) => {
        const hooks = window.parallax.animation;
        hooks.seek(from);
        const before = hooks.stats();
        const stamps = [];
        let start = null;
        const step = (now) => {
          if (start === null) start = now;
          stamps.push(now);
          const elapsed = now - start;
          if (elapsed >= seconds * 1000) {
            const after = hooks.stats();
            done({ stamps, before, after, wall_ms: elapsed });
            return;
          }
          hooks.seek(from + elapsed * speed);
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    { from, speed, seconds },
  );
  const s = run.wall_ms / 1000;
  const gaps = run.stamps.slice(1).map((t, i) => t - run.stamps[i]).sort((a, b) => a - b);
  const pct = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))];
  const drawn = run.after.frames - run.before.frames;
  results.wall_s = s;
  results.fps = (run.stamps.length - 1) / s;
  results.frames_drawn_per_s = drawn / s;
  results.frame_ms = { median: pct(0.5), p95: pct(0.95), worst: gaps[gaps.length - 1] };
  results.draw_ms_mean = drawn > 0 ? (run.after.drawMs - run.before.drawMs) / drawn : 0;
  results.state_changes_per_s = (run.after.changes - run.before.changes) / s;
  results.at_answers_per_s = (run.after.answers - run.before.answers) / s;
  results.page_errors = pageErrors.length;
  if (process.env.PLX_ANIMATION_SHOT) await page.screenshot({ path: process.env.PLX_ANIMATION_SHOT });
} finally {
  await browser.close();
  await server.stop();
}

console.log(
  `animation: ${results.nodes} nodes (${results.processes} processes), ` +
    `${results.fps.toFixed(1)} frames/s (rAF; ${results.frames_drawn_per_s.toFixed(1)} drawn/s, ` +
    `median ${results.frame_ms.median.toFixed(1)} ms, p95 ${results.frame_ms.p95.toFixed(1)} ms, ` +
    `draw ${results.draw_ms_mean.toFixed(2)} ms), ${results.state_changes_per_s.toFixed(0)} node state changes/s, ` +
    `${results.at_answers_per_s.toFixed(1)} /at answers/s over ${results.wall_s.toFixed(1)} s`,
);
console.log(JSON.stringify(results));
if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
if (results.page_errors > 0) process.exit(1);
