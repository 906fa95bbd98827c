// The Query tab's result table: built once per result, numbers right-aligned,
// NULL a grey dash, the rows holding a slice id clickable through one
// listener on the body (no listener per row or cell).
import type { QueryResult } from '../../protocol/api.gen';
import { el } from '../common/dom';
import { formatCell, numericColumn, rowSlice, sliceColumn } from './query_format';

/** Background of the selected row (as the loop list's). */
export const SELECTED_BG = '#dbe7fb';
const NULL_COLOR = '#9e9e9e';

/**
 * The table of `r`. A row with a slice id (in the first slice column) has
 * data-slice; clicking it, or Enter on it, calls `onPick(rowIndex, sliceId)`.
 */
export function queryTable(r: QueryResult, onPick: (index: number, slice: number) => void): HTMLTableElement {
  const table = el('table', { class: 'data-table query-table', 'data-testid': 'query-table' });
  table.style.borderCollapse = 'collapse';
  table.style.fontVariantNumeric = 'tabular-nums';
  const numeric = r.columns.map((_, c) => numericColumn(r.rows, c));
  const sliceCol = sliceColumn(r);
  const head = el('tr');
  r.columns.forEach((name, c) => {
    const th = el('th', { scope: 'col', class: numeric[c] ? 'num' : undefined, title: c === sliceCol ? 'slice id: click a row to select it' : undefined }, name);
    th.style.textAlign = numeric[c] ? 'right' : 'left';
    th.style.padding = '1px 8px';
    th.style.position = 'sticky';
    th.style.top = '0';
    th.style.background = '#fff';
    head.append(th);
  });
  const body = el('tbody');
  const rows = document.createDocumentFragment();
  r.rows.forEach((row, i) => {
    const slice = rowSlice(row, sliceCol);
    const tr = el('tr', { 'data-testid': 'query-row', 'data-row': i });
    if (slice >= 0) {
      tr.dataset['slice'] = String(slice);
      tr.tabIndex = 0;
      tr.className = 'clickable';
      tr.title = `select slice ${slice} in the timeline`;
      tr.style.cursor = 'pointer';
    }
    for (let c = 0; c < r.columns.length; c++) {
      const v = row[c] ?? null;
      const td = document.createElement('td');
      td.textContent = formatCell(v);
      td.style.padding = '0 8px';
      td.style.whiteSpace = 'pre';
      if (v === null) {
        td.className = 'null';
        td.style.color = NULL_COLOR;
      } else if (typeof v === 'number') {
        td.className = 'num';
      }
      if (numeric[c] || typeof v === 'number') td.style.textAlign = 'right';
      tr.append(td);
    }
    rows.append(tr);
  });
  body.append(rows);
  const pick = (target: EventTarget | null): boolean => {
    const tr = target instanceof Element ? target.closest<HTMLTableRowElement>('tr[data-slice]') : null;
    if (!tr || !body.contains(tr)) return false;
    onPick(Number(tr.dataset['row']), Number(tr.dataset['slice']));
    return true;
  };
  body.addEventListener('click', (ev) => pick(ev.target));
  body.addEventListener('keydown', (ev) => {
    if ((ev.key === 'Enter' || ev.key === ' ') && pick(ev.target)) ev.preventDefault();
  });
  table.append(el('thead', {}, head), body);
  return table;
}

/** Marks row `index` of a query table selected (aria-selected, background); -1 clears. */
export function markSelectedRow(table: HTMLTableElement, index: number): void {
  const body = table.tBodies[0];
  if (!body) return;
  for (const tr of body.querySelectorAll<HTMLTableRowElement>('tr[aria-selected=true]')) {
    tr.removeAttribute('aria-selected');
    tr.style.background = '';
  }
  const tr = index >= 0 ? body.rows[index] : undefined;
  if (!tr) return;
  tr.setAttribute('aria-selected', 'true');
  tr.style.background = SELECTED_BG;
}
