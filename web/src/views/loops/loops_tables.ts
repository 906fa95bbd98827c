// The two tables of the loop view: the loops of the timeline window (click
// one to draw it) and, for the drawn loop, chunks, iterations and busy time
// per thread. Texts are pure functions; the builders only make elements.
import type { OmpLoop, TraceSummary } from '../../protocol/api.gen';
import { el, onActivate } from '../common/dom';
import { formatCount, formatDuration, formatTimeSpan } from '../common/format';
import { threadColor } from '../common/threads';
import { threadNumLabel, type ThreadSum } from './loops_layout';

export const SELECTED_BG = '#dbe7fb';

/** One line about a loop: 'loop 1 (dynamic): 64 iterations 0–63, 4 threads, 8 chunks, 1.2 ms'. */
export function describeLoop(l: OmpLoop): string {
  return `loop ${l.id} (${l.schedule}): ${formatCount(l.iterations)} iterations ${l.first}–${l.last}, ${l.threads} thread${l.threads === 1 ? '' : 's'}, ${formatCount(l.chunks)} chunk${l.chunks === 1 ? '' : 's'}, ${formatDuration(l.end - l.begin)}`;
}

const LIST_HEADERS = ['Loop', 'Begin', 'Duration', 'Process', 'Schedule', 'Threads', 'Chunks', 'Iterations'];

/** The table of loops; `onPick(id)` when a row is clicked (or Enter on it). */
export function loopList(loops: readonly OmpLoop[], summary: TraceSummary, selected: number, onPick: (id: number) => void): HTMLTableElement {
  const table = el('table', { class: 'data-table loops-list', 'data-testid': 'loops-list' });
  table.append(el('thead', {}, el('tr', {}, ...LIST_HEADERS.map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  for (const l of loops) {
    const tr = el(
      'tr',
      { class: 'clickable', 'data-testid': `loops-row-${l.id}`, 'data-loop': l.id, tabindex: 0, 'aria-selected': String(l.id === selected), title: 'draw this loop' },
      el('td', { class: 'num' }, String(l.id)),
      el('td', { class: 'num' }, formatTimeSpan(l.begin, l.end)[0]),
      el('td', { class: 'num' }, formatDuration(l.end - l.begin)),
      el('td', {}, summary.processes[l.process]?.name ?? `process ${l.process}`),
      el('td', {}, l.schedule),
      el('td', { class: 'num' }, String(l.threads)),
      el('td', { class: 'num' }, formatCount(l.chunks)),
      el('td', { class: 'num' }, `${formatCount(l.iterations)} (${l.first}–${l.last})`),
    );
    tr.style.cursor = 'pointer';
    if (l.id === selected) tr.style.background = SELECTED_BG;
    onActivate(tr, () => onPick(l.id));
    body.append(tr);
  }
  table.append(body);
  return table;
}

const SUM_HEADERS = ['Thread', 'Row', 'Chunks', 'Iterations', 'Busy'];

/** Busy time as text: '1.2 ms', with '(estimated)' when any of it is. */
export function busyText(s: ThreadSum): string {
  return `${formatDuration(s.busy)}${s.estimated ? ' (estimated)' : ''}`;
}

/** Per-thread sums; each row's data-thread-num, data-chunks and data-iterations hold the numbers. */
export function threadTable(sums: readonly ThreadSum[], label: (row: number) => string): HTMLTableElement {
  const table = el('table', { class: 'data-table loops-threads', 'data-testid': 'loops-threads' });
  table.append(el('thead', {}, el('tr', {}, ...SUM_HEADERS.map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  for (const s of sums) {
    const swatch = el('span', { class: 'swatch' });
    Object.assign(swatch.style, { display: 'inline-block', width: '10px', height: '10px', marginRight: '4px', background: threadColor(s.threadNum) });
    body.append(
      el(
        'tr',
        { 'data-testid': 'loops-thread', 'data-thread-num': s.threadNum, 'data-row': s.row, 'data-chunks': s.chunks, 'data-iterations': s.iterations, 'data-busy': s.busy },
        el('td', {}, swatch, threadNumLabel(s.threadNum)),
        el('td', {}, label(s.row)),
        el('td', { class: 'num' }, formatCount(s.chunks)),
        el('td', { class: 'num' }, formatCount(s.iterations)),
        el('td', { class: 'num' }, busyText(s)),
      ),
    );
  }
  table.append(body);
  return table;
}
