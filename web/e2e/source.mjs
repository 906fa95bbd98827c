// End-to-end tests of the Source tab (src/views/source, src/server/api/api_source.cc):
// examples/thread_farm recorded with `parallax record` (its PLX_SCOPE states
// carry call sites, __FILE__:__LINE__), served with --source-dir the project's
// folder; a slice's file:line link in the details opens the Source tab on that
// file, scrolled to the line and marking it; the lines' text is the file's,
// their times those of GET /source, which are the sums of /stats?callsites=1;
// a link to another line of the open file moves the mark; the tab opened
// again shows them again; files the trace does not name are refused by the API.
//
//   node e2e/source.mjs --parallax PARALLAX --farm build/examples/thread_farm
//                       --source-dir PROJECT_DIR [--out DIR]
//
// PLX_WEB_DIR picks the built viewer to serve (harness.mjs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

import { checks, closeRun, launchBrowser, parseArgs, selectSlice, startServer, until, watchPageErrors } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), { parallax: '', farm: '', 'source-dir': '', out: 'e2e-source-out' });
if (!args.parallax || !args.farm || !args['source-dir']) {
  console.error('usage: source.mjs --parallax PARALLAX --farm THREAD_FARM --source-dir DIR [--out DIR]');
  process.exit(2);
}
const [parallax, farm, sourceDir, out] = [args.parallax, args.farm, args['source-dir'], args.out].map((p) => resolve(p));
mkdirSync(out, { recursive: true });
const { check, fail, finish } = checks();

const UNIT_NS = { s: 1e9, ms: 1e6, 'µs': 1e3, ns: 1 };
/** '5.915 ms' → 5915000 (ns). */
function parseDuration(text) {
  const m = text.trim().match(/^([\d.]+) (s|ms|µs|ns)$/);
  assert.ok(m, `a duration with a unit: ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT_NS[m[2]];
}

// The farm: a master, 3 workers, 80 jobs; compute, lock, wait, produce, collect at their lines.
const trace = join(out, 'farm.plx');
rmSync(trace, { force: true });
rmSync(`${trace}.parts`, { recursive: true, force: true });
execFileSync(parallax, ['record', '-o', trace, '--', farm, '--workers', '3', '--jobs', '80', '--work-us', '100'],
             { cwd: out, stdio: ['ignore', 'ignore', 'inherit'] });

const server = await startServer(parallax, [trace], ['--source-dir', sourceDir]);
const browser = await launchBrowser();
let page;
try {
  const [info] = await server.waitAllReady(60000);
  const api = (path) => server.api(`/traces/${info.id}${path}`);
  const status = async (path) => (await fetch(`${server.origin}/api/v1/traces/${info.id}${path}`,
                                               { headers: { Authorization: `Bearer ${server.token}` } })).status;
  const files = await api('/source-files');
  const stats = await api('/stats?callsites=1');
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const noPageErrors = watchPageErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => window.parallax?.ready === true, null, { timeout: 60000 });
  const panel = page.locator('[data-testid=panel]');

  /** A slice of `state` with its call site (from /details), the longest of the first ones found. */
  const sliceOf = async (state) => {
    const found = await api(`/search?q=${encodeURIComponent(state)}&limit=50`);
    const s = found.slices.filter((x) => x.end > x.begin).sort((a, b) => (b.end - b.begin) - (a.end - a.begin))[0];
    assert.ok(s, `the farm has ${state} slices`);
    const d = await api(`/details?kind=slice&id=${s.id}`);
    assert.ok(d.callsite?.file && d.callsite.line > 0, `${state}'s details give its call site: ${JSON.stringify(d.callsite)}`);
    return { slice: s, callsite: d.callsite };
  };
  /** Selects `slice` on the timeline and clicks the file:line link of its details. */
  const followLink = async ({ slice, callsite }) => {
    const span = slice.end - slice.begin;
    await page.evaluate(([a, b]) => window.parallax.timeline.setWindow(a, b), [slice.begin - span, slice.end + span]);
    assert.equal(await selectSlice(page, slice), slice.id, 'the slice is selected');
    const link = page.locator('[data-testid=details-callsite-link]');
    await until(() => link.count(), (n) => n === 1, 5000);
    assert.equal(await link.innerText(), `${callsite.file}:${callsite.line}`);
    await link.click();
  };
  /** Waits until the Source tab shows `file` with `line` marked; returns what it shows. */
  const shown = async (file, line) => {
    await page.waitForFunction(([file, line]) => {
      const p = document.querySelector('[data-testid=panel]');
      return p?.dataset.view === 'source' && p.dataset.state === 'shown' && p.dataset.file === file &&
        p.querySelector('.source-line.selected')?.dataset.line === String(line);
    }, [file, line], { timeout: 10000 });
    return page.evaluate(() => {
      const code = document.querySelector('[data-testid=source-code]');
      const sel = code.querySelector('.source-line.selected');
      const c = code.getBoundingClientRect();
      const r = sel.getBoundingClientRect();
      return {
        selected: [...code.querySelectorAll('.source-line.selected')].map((e) => Number(e.dataset.line)),
        current: sel.getAttribute('aria-current'),
        scrollTop: code.scrollTop,
        lineBox: { top: r.top, bottom: r.bottom }, codeBox: { top: c.top, bottom: c.bottom },
        hit: document.elementFromPoint(r.left + r.width / 2, (r.top + r.bottom) / 2)?.closest('.source-line')?.dataset.line,
        tab: document.querySelector('[role=tab][data-view=source]').getAttribute('aria-selected'),
        rows: [...code.querySelectorAll('.source-line')].map((e) => ({
          line: Number(e.dataset.line),
          total: e.dataset.total === undefined ? null : Number(e.dataset.total),
          count: e.dataset.count === undefined ? null : Number(e.dataset.count),
          time: e.querySelector('.source-time').textContent,
          text: e.querySelector('.source-text').textContent,
        })),
      };
    });
  };

  const compute = await sliceOf('compute');
  const file = compute.callsite.file;
  const entry = files.files.find((f) => f.file === file);
  const onDisk = readFileSync(isAbsolute(file) ? file : join(sourceDir, file), 'utf8').replace(/\n$/, '').split('\n');

  await check('/source gives the file as on disk, each line the sum of its /stats?callsites=1 rows', async () => {
    assert.ok(entry?.found, `/source-files lists ${file} as found: ${JSON.stringify(files)}`);
    const src = await api(`/source?file=${entry.index}`);
    assert.deepEqual(src.text, onDisk, 'the text is the file\'s');
    const sums = new Map();
    for (const r of stats.rows) {
      if (r.callsite?.file !== file) continue;
      const l = sums.get(r.callsite.line) ?? { count: 0, total: 0, self: 0 };
      sums.set(r.callsite.line, { count: l.count + r.count, total: l.total + r.total, self: l.self + r.self });
    }
    assert.ok(sums.size >= 4, `the farm's call sites are on several lines: ${[...sums.keys()]}`);
    assert.deepEqual(src.lines.map((l) => [l.line, { count: l.count, total: l.total, self: l.self }]),
                     [...sums.entries()].sort((a, b) => a[0] - b[0]));
    assert.ok(onDisk[compute.callsite.line - 1].includes('"compute"'), `line ${compute.callsite.line} opens the compute scope`);
  });

  await check("a slice's file:line link opens the Source tab on that line, scrolled to it and marked", async () => {
    await followLink(compute);
    const s = await shown(file, compute.callsite.line);
    assert.equal(s.tab, 'true', 'the Source tab is the open one');
    assert.deepEqual(s.selected, [compute.callsite.line], 'one line is marked');
    assert.equal(s.current, 'true');
    assert.ok(s.scrollTop > 0, 'the code scrolled down to the line');
    assert.ok(s.lineBox.top >= s.codeBox.top && s.lineBox.bottom <= s.codeBox.bottom,
              `the line ${JSON.stringify(s.lineBox)} is inside the code's box ${JSON.stringify(s.codeBox)}`);
    assert.equal(s.hit, String(compute.callsite.line), 'nothing covers the marked line');
    assert.ok(await panel.locator('[data-testid=source-info]').innerText().then((t) => t.includes(file)));
  });

  await check('the lines and their times are those of /source', async () => {
    const src = await api(`/source?file=${entry.index}`);
    const s = await shown(file, compute.callsite.line);
    assert.deepEqual(s.rows.map((r) => r.text), onDisk, 'every line of the file, in order');
    assert.deepEqual(s.rows.map((r) => r.line), onDisk.map((_, i) => i + 1));
    const byLine = new Map(src.lines.map((l) => [l.line, l]));
    for (const r of s.rows) {
      const l = byLine.get(r.line);
      if (!l) {
        assert.deepEqual([r.total, r.count, r.time], [null, null, ''], `line ${r.line} has no call site, no time`);
        continue;
      }
      assert.deepEqual([r.total, r.count], [l.total, l.count], `line ${r.line}`);
      // Shown to four significant digits (formatDuration).
      const shownNs = parseDuration(r.time);
      assert.ok(Math.abs(shownNs - l.total) <= Math.max(1, l.total * 5e-4), `line ${r.line}: ${r.time} is ${l.total} ns`);
    }
  });

  let collect = null;
  await check('a link to another line of the open file moves the mark there', async () => {
    collect = await sliceOf('collect');
    assert.equal(collect.callsite.file, file);
    assert.notEqual(collect.callsite.line, compute.callsite.line);
    await followLink(collect);
    const s = await shown(file, collect.callsite.line);
    assert.deepEqual(s.selected, [collect.callsite.line]);
    assert.equal(s.hit, String(collect.callsite.line), 'the new line is on screen');
  });

  await check('the Source tab opened again after another tab shows the file and the line again', async () => {
    const line = collect?.callsite.line ?? compute.callsite.line;
    await page.locator('[role=tab][data-view=stats]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=panel]')?.dataset.view === 'stats');
    await page.locator('[role=tab][data-view=source]').click();
    const s = await shown(file, line);
    assert.deepEqual(s.rows.map((r) => r.text), onDisk, 'every line of the file again');
    assert.deepEqual(s.selected, [line]);
  });

  await check('files the trace does not name are refused', async () => {
    assert.equal(await status(`/source?file=${encodeURIComponent(file)}`), 200, 'the named file, by name');
    const abs = isAbsolute(file) ? file : resolve(sourceDir, file);
    for (const name of [abs, '/etc/passwd', `../${file}`, `./${file}`, file.split('/').at(-1), 'CMakeLists.txt',
                        String(files.files.length), '-1']) {
      if (name === file) continue;
      assert.equal(await status(`/source?file=${encodeURIComponent(name)}`), 404, `refused: ${name}`);
    }
    assert.equal(await status('/source'), 400, 'file is required');
  });

  await check('no uncaught errors in the page', noPageErrors);
  console.log(`# ${file}: ${files.files.length} file(s), compute at line ${compute.callsite.line}`);
} catch (e) {
  fail('setup', e);
} finally {
  await closeRun(page, browser, server, join(out, 'last.png'));
}
finish('source checks');
