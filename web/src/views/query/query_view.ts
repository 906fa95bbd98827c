// The Query tab: SQL over the trace's tables (/query, docs/query.md) typed in
// a text area, run with the button or Ctrl+Enter, cancelled while it runs; the
// rows as a table whose slice rows select and zoom to their slice; the
// result's slices pinned as the timeline's blinking highlight.
import type { QueryResult } from '../../protocol/api.gen';
import { el, RequestSeq, StatusLine } from '../common/dom';
import type { View, ViewContext, ViewFactory } from '../context';
import { DEFAULT_SQL, QUERY_EXAMPLES } from './query_examples';
import { newQueryId, queryErrorMessage, queryParams, resultInfo, sliceIds } from './query_format';
import { cancelQuery, getAbortable, QueryAborted, sliceRefs, sliceTarget } from './query_requests';
import { browserStore, keepResult, lastResult, loadSql, saveSql, type TextStore } from './query_store';
import { markSelectedRow, queryTable } from './query_table';

/** The message a cancelled run shows (the server's own, which the aborted request no longer receives). */
export const CANCELLED = 'query: cancelled';

export class QueryView implements View {
  private readonly status = new StatusLine();
  /** runs of the statement */
  private readonly seq = new RequestSeq();
  /** a clicked row's slice looked up */
  private readonly pickSeq = new RequestSeq();
  /** the pinned slices looked up */
  private readonly pinSeq = new RequestSeq();
  private running: { id: string; abort: AbortController } | null = null;
  private result: QueryResult | null = null;
  private pinned = false;
  private mounted = false;

  private sql!: HTMLTextAreaElement;
  private runButton!: HTMLButtonElement;
  private cancelButton!: HTMLButtonElement;
  private pinButton!: HTMLButtonElement;
  private info!: HTMLDivElement;
  private tableBox!: HTMLDivElement;
  private table: HTMLTableElement | null = null;

  constructor(
    private readonly ctx: ViewContext,
    private readonly store: TextStore | null = browserStore(),
  ) {}

  mount(host: HTMLElement): void {
    this.mounted = true;
    host.classList.add('query-view');
    this.sql = el('textarea', { 'data-testid': 'query-sql', 'aria-label': 'SQL', rows: 4, spellcheck: 'false', placeholder: 'SELECT … (Ctrl+Enter runs)' });
    Object.assign(this.sql.style, { display: 'block', width: '100%', boxSizing: 'border-box', fontFamily: 'monospace', fontSize: '12px', resize: 'vertical' });
    this.sql.value = loadSql(this.store, DEFAULT_SQL);
    this.sql.addEventListener('input', () => saveSql(this.store, this.sql.value));
    this.sql.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        this.run();
      }
    });

    this.runButton = el('button', { type: 'button', 'data-testid': 'query-run', title: 'Run (Ctrl+Enter)' }, 'Run');
    this.runButton.addEventListener('click', () => this.run());
    this.cancelButton = el('button', { type: 'button', 'data-testid': 'query-cancel', hidden: true }, 'Cancel');
    this.cancelButton.addEventListener('click', () => this.cancel());
    this.pinButton = el('button', { type: 'button', 'data-testid': 'query-pin', 'aria-pressed': 'false', disabled: true, title: "blink the result's slices in the timeline" }, 'Pin as highlight');
    this.pinButton.addEventListener('click', () => this.togglePin());

    const examples = el('select', { 'data-testid': 'query-examples', 'aria-label': 'examples' }, el('option', { value: '' }, 'Examples…'));
    for (const e of QUERY_EXAMPLES) examples.append(el('option', { value: e.id }, e.title));
    examples.addEventListener('change', () => {
      const e = QUERY_EXAMPLES.find((x) => x.id === examples.value);
      examples.value = '';
      if (!e) return;
      this.sql.value = e.sql;
      saveSql(this.store, e.sql);
      this.sql.focus();
    });

    const controls = el('div', { class: 'view-controls' }, this.runButton, this.cancelButton, examples, this.pinButton);
    Object.assign(controls.style, { display: 'flex', gap: '6px', alignItems: 'center', margin: '3px 0' });
    this.info = el('div', { class: 'query-info', 'data-testid': 'query-info' });
    this.tableBox = el('div', { class: 'table-scroll' });
    host.append(this.sql, controls, this.status.element, this.info, this.tableBox);

    const kept = lastResult(this.ctx.summary.id);
    if (kept) this.show(kept);
  }

  unmount(): void {
    this.mounted = false;
    this.seq.invalidate();
    this.pickSeq.invalidate();
    this.stopRunning();
    this.unpin();
  }

  /** Runs the text area's statement; ignored while one runs. */
  run(): void {
    if (!this.mounted || this.running) return;
    const sql = this.sql.value.trim();
    saveSql(this.store, this.sql.value);
    if (sql === '') {
      this.status.message('type a statement to run');
      return;
    }
    this.unpin();
    this.clearResult();
    const id = newQueryId();
    const abort = new AbortController();
    this.running = { id, abort };
    this.setRunning(true);
    const n = this.seq.next();
    this.status.loading('Running…');
    getAbortable(this.ctx.api, 'query', queryParams(sql, id), abort.signal)
      .then((r) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.clear();
        keepResult(this.ctx.summary.id, r);
        this.show(r);
      })
      .catch((err: unknown) => {
        if (!this.seq.isCurrent(n)) return;
        this.status.error(err instanceof QueryAborted ? CANCELLED : queryErrorMessage(err));
      })
      .finally(() => {
        if (!this.seq.isCurrent(n)) return;
        this.running = null;
        this.setRunning(false);
      });
  }

  /** Stops the running statement: the request aborted, the server told to stop it. */
  cancel(): void {
    if (!this.running) return;
    this.seq.invalidate();
    this.stopRunning();
    this.setRunning(false);
    this.status.error(CANCELLED);
  }

  private stopRunning(): void {
    const r = this.running;
    if (!r) return;
    this.running = null;
    r.abort.abort();
    void cancelQuery(this.ctx.api, r.id);
  }

  private setRunning(on: boolean): void {
    this.runButton.disabled = on;
    this.cancelButton.hidden = !on;
    this.cancelButton.disabled = !on;
  }

  private clearResult(): void {
    this.result = null;
    this.table = null;
    this.info.textContent = '';
    this.tableBox.replaceChildren();
    this.pinButton.disabled = true;
  }

  private show(r: QueryResult): void {
    this.result = r;
    this.info.textContent = resultInfo(r);
    this.info.dataset['rows'] = String(r.rows.length);
    this.info.dataset['truncated'] = String(r.truncated);
    this.table = r.columns.length > 0 ? queryTable(r, (i, slice) => this.pick(i, slice)) : null;
    this.tableBox.replaceChildren(...(this.table ? [this.table] : []));
    this.pinButton.disabled = sliceIds(r).length === 0;
    this.updatePinButton();
  }

  /** Row `index` clicked: its slice selected and zoomed to in the timeline. */
  private pick(index: number, slice: number): void {
    if (this.table) markSelectedRow(this.table, index);
    const n = this.pickSeq.next();
    sliceTarget(this.ctx.api, slice)
      .then((t) => {
        if (this.pickSeq.isCurrent(n)) this.ctx.timeline.jumpTo(t);
      })
      .catch((err: unknown) => {
        if (this.pickSeq.isCurrent(n)) this.status.error(queryErrorMessage(err));
      });
  }

  private togglePin(): void {
    if (this.pinned) {
      this.unpin();
      return;
    }
    const r = this.result;
    if (!r) return;
    const ids = sliceIds(r);
    if (ids.length === 0) return;
    this.pinned = true;
    this.updatePinButton();
    const n = this.pinSeq.next();
    sliceRefs(this.ctx.api, ids)
      .then((refs) => {
        if (this.pinSeq.isCurrent(n) && this.pinned) this.ctx.timeline.highlight(refs);
      })
      .catch((err: unknown) => {
        if (!this.pinSeq.isCurrent(n)) return;
        this.pinned = false;
        this.updatePinButton();
        this.status.error(queryErrorMessage(err));
      });
  }

  /** Clears the highlight this tab pinned (only that: another view's stays). */
  private unpin(): void {
    this.pinSeq.invalidate();
    if (!this.pinned) return;
    this.pinned = false;
    this.ctx.timeline.highlight([]);
    if (this.mounted) this.updatePinButton();
  }

  private updatePinButton(): void {
    this.pinButton.setAttribute('aria-pressed', String(this.pinned));
    this.pinButton.classList.toggle('active', this.pinned);
    this.pinButton.textContent = this.pinned ? 'Unpin highlight' : 'Pin as highlight';
  }
}

export const QUERY_VIEW: ViewFactory = {
  id: 'query',
  title: 'Query',
  create: (ctx) => new QueryView(ctx),
  // A result is a snapshot the user asked for: a live trace's new summary
  // must not make the tab again (that would drop the result and the typing).
  followsUpdates: true,
};
