// The viewer's benchmark: on a (large) trace served by a real `parallax
// serve`, how long the server takes to load it, how long the viewer takes to
// its first painted timeline once the server is ready (headless Chromium),
// and the latency of tile queries over HTTP at 10 zoom levels.
//
//   node e2e/first_paint_bench.mjs --parallax PARALLAX --trace FILE [--json OUT]
//
// Prints a table and, with --json, writes the numbers for docs/PERFORMANCE.md.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { launchBrowser, parseArgs, startServer } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { parallax: '', trace: '', json: '', width: '1600' });
if (!args.parallax || !args.trace) {
  console.error('usage: first_paint_bench.mjs --parallax PARALLAX --trace FILE [--json OUT]');
  process.exit(2);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const server = await startServer(args.parallax, [args.trace]);
const results = { kind: 'viewer', trace: args.trace, width: Number(args.width) };
try {
  const loadStart = performance.now();
  const traces = await server.waitAllReady(30 * 60 * 1000);
  results.server_load_s = (performance.now() - loadStart) / 1000;
  const id = traces[0].id;
  const summary = await server.api(`/traces/${id}/summary`);
  results.events = summary.events;
  results.rows = summary.threads.length;
  console.error(`bench: ${summary.events} events, ${summary.threads.length} rows, ` +
                `loaded by the server in ${results.server_load_s.toFixed(1)} s`);

  // First paint: from navigation to the first timeline drawn from tiles.
  const browser = await launchBrowser();
  const paints = [];
  try {
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
      const start = performance.now();
      await page.goto(server.url);
      await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 120000 });
      paints.push(performance.now() - start);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  results.first_paint_ms = { median: median(paints), worst: Math.max(...paints), runs: paints };

  // Tile latency over HTTP, once the server is done with the analyses it
  // computes after loading (asking for the diagnostics waits for them): 10
  // zoom levels from the whole trace down to a millionth of it, every row,
  // 10 windows per level spread over the trace.
  const analysesStart = performance.now();
  await server.api(`/traces/${id}/diagnostics`);
  results.analyses_wait_s = (performance.now() - analysesStart) / 1000;
  const rows = summary.threads.map((t) => t.index).join(',');
  const width = Number(args.width);
  results.tiles = [];
  for (let level = 0; level < 10; level++) {
    const span = summary.duration / Math.pow(10, (level * 6) / 9);
    const times = [];
    let bytes = 0;
    for (let i = 0; i < 10; i++) {
      const from = ((summary.duration - span) * (i + 0.5)) / 10;
      const start = performance.now();
      const body = await server.raw(
        `/traces/${id}/tile?rows=${rows}&from=${from}&to=${from + span}&width=${width}`);
      times.push(performance.now() - start);
      bytes = Math.max(bytes, body.byteLength);
    }
    results.tiles.push({ level, span_ns: span, median_ms: median(times), worst_ms: Math.max(...times),
                         max_bytes: bytes });
  }
} finally {
  await server.stop();
}

console.log(`first paint after the server is ready: median ${results.first_paint_ms.median.toFixed(0)} ms, ` +
            `worst ${results.first_paint_ms.worst.toFixed(0)} ms (5 page loads)`);
console.log('tile queries over HTTP (all rows, ' + args.width + ' px, 10 windows per level):');
console.log('level  span            median ms  worst ms  largest tile');
for (const t of results.tiles) {
  console.log(`${String(t.level).padStart(5)}  ${t.span_ns.toExponential(2).padEnd(14)}  ` +
              `${t.median_ms.toFixed(1).padStart(9)}  ${t.worst_ms.toFixed(1).padStart(8)}  ` +
              `${(t.max_bytes / 1024).toFixed(0)} KiB`);
}
if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
