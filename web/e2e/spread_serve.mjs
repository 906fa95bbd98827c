// `parallax-mpi serve` answers what `parallax serve` answers: both servers
// on the same traces, in memory and from the file (--memory 1k), and every
// tile of a zoom series (whole trace down to a millionth of it; all rows,
// in order and backwards; arrows on and off; every counter track), every
// row map, the statistics of area selections, details of slices and
// instants and the trace's summary compared byte for byte once the spread server says its processes draw
// the tiles. Then a process that stops answering, or dies, ends the job.
//
//   node e2e/spread_serve.mjs --parallax PARALLAX --spread CMD[,CMD...]
//        --traces FILE[,FILE...] [--index-dir DIR]
//
// Each CMD runs `parallax-mpi` under the MPI launcher with some number of
// processes (a script taking the arguments of `parallax serve`). Prints one
// line per check and exits non-zero when any fails.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { checks, parseArgs, startServer, until } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { parallax: '', spread: '', traces: '', 'index-dir': '' });
if (!args.parallax || !args.spread || !args.traces) {
  console.error('usage: spread_serve.mjs --parallax PARALLAX --spread CMD[,CMD] --traces FILE[,FILE]');
  process.exit(2);
}
const spreads = args.spread.split(',');
const traces = args.traces.split(',');
const indexDir = args['index-dir'] || mkdtempSync(join(tmpdir(), 'plx-spread-serve-'));
const { check, fail, finish } = checks();

/** The requests compared on trace `id`: tiles and row maps of a zoom series. */
function requests(summary) {
  const rows = summary.threads.map((_, i) => i);
  const backwards = [...rows].reverse();
  const counters = summary.counters.map((_, i) => i);
  const duration = summary.duration + 2;
  const out = [];
  for (let zoom = 1; zoom <= 1e6; zoom *= 10) {
    const span = duration / zoom;
    for (const k of [0, 1, 2]) {
      const from = -1 + ((duration - span) * k) / 2;
      const to = from + span;
      for (const [order, arrows] of [
        [rows, 1],
        [backwards, 0],
      ])
        out.push(`tile?rows=${order.join(',')}&from=${from}&to=${to}&width=800&arrows=${arrows}` +
          (counters.length ? `&counters=${counters.join(',')}` : ''));
      if (k === 1) {
        out.push(`rowmap?rows=${rows.join(',')}&from=${from}&to=${to}&width=400`);
        // Area selections' statistics (every other row, then all with call sites).
        out.push(`stats?rows=${rows.filter((r) => r % 2 === 0).join(',')}&from=${from}&to=${to}`);
        out.push(`stats?from=${from}&to=${to}&callsites=1`);
      }
    }
  }
  return out;
}

const equalBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** The pid of MPI process `rank` among the descendants of `root` (Open MPI, MPICH). */
function rankPid(root, rank) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const below = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === root) return true;
    return false;
  };
  for (const pid of parent.keys()) {
    if (pid === root || !below(pid)) continue;
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (env.includes(`OMPI_COMM_WORLD_RANK=${rank}`) || env.includes(`PMI_RANK=${rank}`)) return pid;
    } catch {}
  }
  return 0;
}

/** Starts `spread` with `--step-timeout 2`, waits until every process loaded. */
async function startSpread(spread, extra = []) {
  const server = await startServer(spread, traces, ['--step-timeout', '2', ...extra]);
  await server.waitAllReady(120000);
  const spreading = await until(
    async () => server.log.some((l) => l.includes('every process has loaded')),
    (ok) => ok,
    60000,
    100,
  );
  assert.ok(spreading, `the processes never all loaded: ${server.log.join('\n')}`);
  return server;
}

for (const [mode, extra] of [
  ['in memory', []],
  ['from the file', ['--memory', '1k', '--index-dir', indexDir]],
]) {
  let reference;
  try {
    reference = await startServer(args.parallax, traces, extra);
    await reference.waitAllReady(120000);
  } catch (e) {
    fail(`parallax serve ${mode}`, e);
    continue;
  }
  for (const spread of spreads) {
    const name = `${spread.split('/').pop()} ${mode}`;
    let server;
    try {
      server = await startSpread(spread, extra);
    } catch (e) {
      fail(`${name}: start`, e);
      await server?.stop();
      continue;
    }
    const { traces: listed } = await reference.api('/traces');
    for (const { id } of listed) {
      await check(`${name}: ${id}: summary, tiles, row maps, selections, details as parallax serve`, async () => {
        const summary = await reference.api(`/traces/${id}/summary`);
        assert.deepEqual(await server.api(`/traces/${id}/summary`), summary);
        let tiles = 0;
        for (const path of requests(summary)) {
          const [want, got] = await Promise.all([
            reference.raw(`/traces/${id}/${path}`),
            server.raw(`/traces/${id}/${path}`),
          ]);
          assert.ok(equalBytes(want, got), `${path}: ${got.byteLength} bytes, want ${want.byteLength}`);
          tiles += want.byteLength > 48;
        }
        assert.ok(tiles > 10, `only ${tiles} answers held records`);
        // Details of slices and instants all over the trace (from the file:
        // answered by the process owning the row), and of ids past the end.
        const n = summary.slices;
        const ids = [...Array(24).keys()].map((k) => Math.floor((k * (n - 1)) / 23));
        for (const [kind, id] of [...ids.map((i) => ['slice', i]), ['slice', n], ...[0, 1, 7, 50, 400].map((i) => ['instant', i])]) {
          const path = `/api/v1/traces/${summary.id}/details?kind=${kind}&id=${id}`;
          const [want, got] = await Promise.all(
            [reference, server].map((s) => fetch(`${s.origin}${path}`, { headers: { Authorization: `Bearer ${s.token}` } })),
          );
          assert.equal(got.status, want.status, path);
          assert.equal(await got.text(), await want.text(), path);
        }
      });
    }
    await check(`${name}: a bad tile request is refused as by parallax serve`, async () => {
      const id = listed[0].id;
      const path = `/api/v1/traces/${id}/tile?rows=0&from=0&to=1&width=0`;
      const headers = (s) => ({ Authorization: `Bearer ${s.token}` });
      const [want, got] = await Promise.all(
        [reference, server].map((s) => fetch(`${s.origin}${path}`, { headers: headers(s) })),
      );
      assert.equal(got.status, want.status);
      assert.equal(await got.text(), await want.text());
    });
    await check(`${name}: the launcher ends the job on SIGINT`, async () => {
      const exited = new Promise((r) => server.proc.once('exit', (code, signal) => r(signal)));
      await server.stop();
      assert.notEqual(await exited, 'SIGKILL', 'still running 5 s after SIGINT');
    });
  }
  await reference.stop();
}

// A process that stops answering ends the job after the step timeout, and
// one that dies ends it at once: the tile request that needed it fails,
// and nothing is left running.
const failing = spreads.find((s) => !s.endsWith('np1'));
for (const [what, signal, said] of [
  ['stops answering', 'SIGSTOP', /process 0: error: waited [0-9]+ s for the other processes in a step/],
  ['dies', 'SIGKILL', null],
]) {
  await check(`${failing.split('/').pop()}: a process that ${what} ends the job, never a hang`, async () => {
    const server = await startSpread(failing);
    const exited = new Promise((r) => server.proc.once('exit', (code) => r(code)));
    const pid = rankPid(server.proc.pid, 1);
    assert.ok(pid > 0, 'process 1 not found');
    process.kill(pid, signal);
    const { traces: listed } = await server.api('/traces');
    const summary = await server.api(`/traces/${listed[0].id}/summary`);
    const tile = `/traces/${listed[0].id}/tile?rows=${summary.threads.map((_, i) => i).join(',')}` +
      `&from=0&to=${summary.duration}&width=100`;
    const answer = await server.raw(tile).then(
      () => 'answered',
      (e) => `failed: ${e.message}`,
    );
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('running'), 30000))]);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
    await server.stop();
    assert.notEqual(code, 'running', `still running 30 s after process 1 ${what}`);
    assert.notEqual(code, 0);
    assert.match(answer, /^failed/);
    if (said) assert.ok(server.log.some((l) => said.test(l)), server.log.join('\n'));
  });
}
finish('spread server checks');
