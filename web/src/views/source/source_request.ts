// How the Source tab is asked to show a file:line. The details panel (and any
// other widget) sends OPEN_SOURCE_EVENT up the DOM, as widgets do not import
// views; this module keeps the newest request for the Source view, hands it
// to the view when one is open, and otherwise opens the Source tab.
import { OPEN_SOURCE_EVENT, type OpenSourceDetail } from '../../widgets/details';

export type SourceTarget = OpenSourceDetail;

/** The id of the Source view's tab (data-view). */
export const SOURCE_VIEW_ID = 'source';

let pending: SourceTarget | null = null;
const listeners = new Set<(t: SourceTarget) => void>();

/** Shows `target` in the open Source view, or opens the Source tab on it. */
export function requestSource(target: SourceTarget): void {
  pending = target;
  if (listeners.size > 0) {
    for (const l of listeners) l(target);
    return;
  }
  document.querySelector<HTMLElement>(`[role="tab"][data-view="${SOURCE_VIEW_ID}"]`)?.click();
}

/** The newest request, null before the first. */
export function pendingSource(): SourceTarget | null {
  return pending;
}

/** Called with each request while subscribed; returns an unsubscribe function. */
export function onSourceRequest(listener: (t: SourceTarget) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof document !== 'undefined') {
  document.addEventListener(OPEN_SOURCE_EVENT, (e) => {
    const d = (e as CustomEvent<SourceTarget>).detail;
    if (d && typeof d.file === 'string') requestSource({ file: d.file, line: d.line });
  });
}
