// The Query tab's requests besides the statement itself: a run that can be
// aborted, /query-cancel (asked again while the run waits its turn), and
// where result slices are, for the timeline to select or highlight them.
import type { EndpointTypes, SliceRef } from '../../protocol/api.gen';
import type { ApiClient, TimelineTarget } from '../context';

type Endpoint = keyof EndpointTypes;

/** An ApiClient that can abort a request (the viewer's TraceApi). */
interface AbortableApi {
  request<K extends Endpoint>(endpoint: K, params: EndpointTypes[K]['params'], signal?: AbortSignal): Promise<EndpointTypes[K]['response']>;
}

function abortable(api: ApiClient): api is ApiClient & AbortableApi {
  return typeof (api as Partial<AbortableApi>).request === 'function';
}

/** Why a run stopped when it was aborted. */
export class QueryAborted extends Error {
  constructor() {
    super('query: cancelled');
    this.name = 'QueryAborted';
  }
}

/**
 * `api.get` that `signal` stops: the fetch itself is aborted when the client
 * can (TraceApi.request); either way the promise rejects with QueryAborted.
 */
export function getAbortable<K extends Endpoint>(
  api: ApiClient,
  endpoint: K,
  params: EndpointTypes[K]['params'],
  signal: AbortSignal,
): Promise<EndpointTypes[K]['response']> {
  if (signal.aborted) return Promise.reject(new QueryAborted());
  const answer = abortable(api) ? api.request(endpoint, params, signal) : api.get(endpoint, params);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new QueryAborted());
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new QueryAborted() : e);
      },
    );
  });
}

/**
 * Asks the server to stop the run named `id`. A run still waiting for the
 * one before it is not running yet (the answer is false): asked again every
 * `delayMs`, `tries` times in all. Resolves whether one was stopped; never rejects.
 */
export async function cancelQuery(api: ApiClient, id: string, tries = 8, delayMs = 250): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await api.get('query_cancel', { id })).cancelled) return true;
    } catch {
      return false; // the client's error banner has said why
    }
    if (i + 1 < tries) await new Promise((r) => setTimeout(r, delayMs));
  }
  return false;
}

/** Ids looked up per statement (keeps the URL well under the server's 16 KiB header limit). */
export const SLICE_LOOKUP_CHUNK = 400;

/** The statement that finds where slices `ids` are. */
export function sliceRefsSql(ids: readonly number[]): string {
  return `SELECT id, thread, state_id, begin, end, depth FROM slices WHERE id IN (${ids.join(',')})`;
}

/** The slices `ids` as the timeline wants them (row = thread), in the order of `ids`; unknown ids are left out. */
export async function sliceRefs(api: ApiClient, ids: readonly number[]): Promise<SliceRef[]> {
  const clean = ids.filter((id) => Number.isInteger(id) && id >= 0);
  const chunks: number[][] = [];
  for (let i = 0; i < clean.length; i += SLICE_LOOKUP_CHUNK) chunks.push(clean.slice(i, i + SLICE_LOOKUP_CHUNK));
  const answers = await Promise.all(
    chunks.map((c) => api.get('query', { sql: sliceRefsSql(c), limit: c.length })),
  );
  const byId = new Map<number, SliceRef>();
  for (const a of answers) {
    for (const r of a.rows) {
      const [id, row, state, begin, end, depth] = r.map((v) => (typeof v === 'number' ? v : -1));
      if (id === undefined || id < 0) continue;
      byId.set(id, { id, row: row ?? -1, state: state ?? -1, begin: begin ?? 0, end: end ?? 0, depth: depth ?? 0 });
    }
  }
  return clean.map((id) => byId.get(id)).filter((s): s is SliceRef => s !== undefined);
}

/** Where slice `id` is (its details), as a jump that selects it. */
export async function sliceTarget(api: ApiClient, id: number): Promise<TimelineTarget> {
  const d = await api.get('details', { kind: 'slice', id });
  return { row: d.row, begin: d.begin, end: d.end, slice: id };
}
