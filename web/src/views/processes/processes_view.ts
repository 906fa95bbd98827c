// Process information: hosts, ranks, pids, command lines, clock corrections
// and each process's threads; a thread jumps the timeline to its row.
import type { ProcessInfo } from '../../protocol/api.gen';
import { el, RequestSeq, StatusLine } from '../common/dom';
import type { View, ViewContext, ViewFactory } from '../context';
import { commandLine, formatDrift, formatOffset, formatRank, recordsText, threadLabel, threadSpan } from './processes_table';

const HEADERS = ['Rank', 'Host', 'PID', 'Name', 'Command', 'Clock offset', 'Drift', 'Threads'];

export class ProcessesView implements View {
  private readonly status = new StatusLine();
  private readonly seq = new RequestSeq();
  private table!: HTMLTableElement;

  constructor(private readonly ctx: ViewContext) {}

  mount(host: HTMLElement): void {
    host.classList.add('processes-view');
    this.table = el('table', { class: 'data-table processes-table', 'data-testid': 'processes-table' });
    this.table.append(el('thead', {}, el('tr', {}, ...HEADERS.map((h) => el('th', { scope: 'col' }, h)))));
    host.append(this.status.element, el('div', { class: 'table-scroll' }, this.table));
    const n = this.seq.next();
    this.status.loading();
    this.ctx.api
      .get('processes', {})
      .then((ps) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        if (ps.length === 0) this.status.message('no processes');
        this.render(ps);
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.error(err);
      });
  }

  unmount(): void {
    this.seq.invalidate();
  }

  private render(ps: ProcessInfo[]): void {
    const tbody = el('tbody');
    for (const p of ps) {
      const cmd = commandLine(p);
      tbody.append(
        el(
          'tr',
          { class: 'process-row', 'data-testid': 'process', 'data-process': p.index },
          el('td', { class: 'num' }, formatRank(p.rank)),
          el('td', {}, p.host),
          el('td', { class: 'num' }, String(p.pid)),
          el('td', {}, p.name),
          el('td', { class: 'command', title: cmd }, cmd),
          el('td', { class: 'num' }, formatOffset(p.clock_offset_ns)),
          el('td', { class: 'num' }, formatDrift(p.clock_drift_ppm)),
          el('td', { class: 'num' }, String(p.threads.length)),
        ),
      );
      for (const row of p.threads) tbody.append(this.threadRow(row));
    }
    this.table.querySelector('tbody')?.remove();
    this.table.append(tbody);
  }

  private threadRow(row: number): HTMLTableRowElement {
    const t = this.ctx.summary.threads[row];
    if (!t) {
      return el('tr', { class: 'thread-row', 'data-testid': 'thread', 'data-row': row }, el('td', { colspan: HEADERS.length }, `row ${row}`));
    }
    const tr = el(
      'tr',
      { class: 'thread-row clickable', 'data-testid': 'thread', 'data-row': row, tabindex: 0, title: 'show in the timeline' },
      el('td'),
      el('td', { colspan: 3, class: 'thread-name' }, `↳ ${threadLabel(t)}`),
      el('td', { colspan: 3 }, threadSpan(t)),
      el('td', { class: 'num' }, recordsText(t.records)),
    );
    const jump = (): void => this.ctx.timeline.jumpTo({ row, begin: t.begin, end: t.end });
    tr.addEventListener('click', jump);
    tr.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') jump();
    });
    return tr;
  }
}

export const PROCESSES_VIEW: ViewFactory = {
  id: 'processes',
  title: 'Processes',
  create: (ctx) => new ProcessesView(ctx),
};
