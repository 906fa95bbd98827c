// The Source tab: a source file the trace's call sites name, with line
// numbers and, per line, a heat bar and the time spent at its call sites (the
// server sums /stats?callsites=1 per line: /source). Opened on a file:line
// from the details panel (source_request.ts), which it scrolls to and marks.
import type { SourceFileEntry, SourceText } from '../../protocol/api.gen';
import { el, RequestSeq, StatusLine } from '../common/dom';
import { formatCount, formatDuration } from '../common/format';
import type { View, ViewContext, ViewFactory } from '../context';
import { pickFile, sourceRows, type SourceRow } from './source_lines';
import { onSourceRequest, pendingSource, SOURCE_VIEW_ID, type SourceTarget } from './source_request';
import './source.css';

function lineTitle(r: SourceRow): string {
  const states = r.states.map((s) => `${s.name}: ${formatDuration(s.total)} in ${formatCount(s.count)}`).join('\n');
  return `line ${r.line}: ${formatDuration(r.total)} inclusive, ${formatDuration(r.self)} self, ${formatCount(r.count)} slices\n${states}`;
}

export class SourceView implements View {
  private host: HTMLElement | null = null;
  private readonly status = new StatusLine();
  private readonly select = el('select', { 'data-testid': 'source-file', 'aria-label': 'Source file' });
  private readonly info = el('div', { class: 'source-info', 'data-testid': 'source-info' });
  private readonly code = el('div', { class: 'source-code', 'data-testid': 'source-code', role: 'list' });
  private files: SourceFileEntry[] = [];
  private readonly seq = new RequestSeq();
  private unsubscribe: (() => void) | null = null;
  /** The line to mark once the file is shown (0: none). */
  private line = 0;

  constructor(private readonly ctx: ViewContext) {}

  mount(host: HTMLElement): void {
    this.host = host;
    host.classList.add('source-view');
    this.select.addEventListener('change', () => {
      const f = this.files[Number(this.select.value)];
      if (f) this.show({ file: f.file, line: 0 });
    });
    const controls = el('div', { class: 'view-controls' }, el('label', {}, 'File ', this.select));
    host.append(controls, this.status.element, this.info, this.code);
    this.unsubscribe = onSourceRequest((t) => this.show(t));
    this.status.loading();
    this.ctx.api
      .get('source_files', {})
      .then((r) => {
        if (!this.host) return;
        this.files = r.files;
        this.select.replaceChildren(
          ...r.files.map((f) => el('option', { value: f.index }, `${f.file}${f.found ? '' : ' (not on this machine)'} — ${formatDuration(f.total)}`)),
        );
        if (r.files.length === 0) {
          this.status.message("this trace's call sites name no source file");
          host.dataset['state'] = 'empty';
          return;
        }
        const target = pendingSource();
        const f = pickFile(r.files, target?.file ?? null);
        if (f) this.show({ file: f.file, line: target && target.file === f.file ? target.line : 0 });
      })
      .catch((err: unknown) => this.status.error(err));
  }

  unmount(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.host = null;
  }

  /** Loads `t.file` (unless shown) and marks `t.line`. */
  private show(t: SourceTarget): void {
    const host = this.host;
    if (!host) return;
    this.line = t.line;
    const entry = this.files.find((f) => f.file === t.file);
    if (entry) this.select.value = String(entry.index);
    if (host.dataset['file'] === t.file && host.dataset['state'] === 'shown') {
      this.mark();
      return;
    }
    const n = this.seq.next();
    host.dataset['state'] = 'loading';
    host.dataset['file'] = t.file;
    this.status.loading();
    this.ctx.api
      .get('source', { file: entry ? String(entry.index) : t.file })
      .then((s) => {
        if (!this.seq.isCurrent(n) || !this.host) return;
        this.status.clear();
        this.render(s);
        host.dataset['state'] = 'shown';
        this.mark();
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n) || !this.host) return;
        this.code.replaceChildren();
        this.info.textContent = '';
        host.dataset['state'] = 'error';
        this.status.error(err);
      });
  }

  private render(s: SourceText): void {
    this.info.textContent = `${s.path} · ${formatDuration(s.total)} in ${formatCount(s.count)} slices at its call sites`;
    this.code.replaceChildren(
      ...sourceRows(s).map((r) => {
        const timed = r.count > 0;
        const bar = el('span', { class: 'source-heat', 'aria-hidden': 'true' }, el('span', { class: 'source-heat-bar' }));
        (bar.firstChild as HTMLElement).style.width = `${(r.heat * 100).toFixed(1)}%`;
        const row = el(
          'div',
          { class: timed ? 'source-line timed' : 'source-line', role: 'listitem', 'data-line': r.line, 'data-total': timed ? r.total : undefined, 'data-count': timed ? r.count : undefined },
          el('span', { class: 'source-num' }, String(r.line)),
          bar,
          el('span', { class: 'source-time', 'data-testid': timed ? 'source-time' : undefined }, timed ? formatDuration(r.total) : ''),
          el('span', { class: 'source-text' }, r.text),
        );
        if (timed) {
          row.title = lineTitle(r);
          row.style.setProperty('--heat', r.heat.toFixed(3));
        }
        return row;
      }),
    );
  }

  /** Marks the requested line and scrolls it into the middle. */
  private mark(): void {
    for (const old of this.code.querySelectorAll('.source-line.selected')) {
      old.classList.remove('selected');
      old.removeAttribute('aria-current');
    }
    if (this.host) this.host.dataset['line'] = String(this.line);
    const row = this.line > 0 ? this.code.querySelector<HTMLElement>(`.source-line[data-line="${this.line}"]`) : null;
    if (!row) return;
    row.classList.add('selected');
    row.setAttribute('aria-current', 'true');
    row.scrollIntoView?.({ block: 'center' });
  }
}

export const SOURCE_VIEW: ViewFactory = {
  id: SOURCE_VIEW_ID,
  title: 'Source',
  create: (ctx) => new SourceView(ctx),
};
