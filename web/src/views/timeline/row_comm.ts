// The MPI communicators of a trace and the thread rows that took part in
// each (a collective on it, or a message sent or received on it), from one
// /query over the collectives and messages tables (docs/query-tables.md):
// the row view's `comm` filter (row_view.ts) keeps those rows. Pure but for
// CommMembers, which asks /query once per snapshot.
import type { ApiClient } from '../context';

/** Communicator name → the thread rows that used it. */
export type Communicators = ReadonlyMap<string, ReadonlySet<number>>;

/** The SQL of every (communicator, thread) pair that used it; unnamed (NULL) communicators left out. */
export const COMM_QUERY =
  'SELECT comm, thread FROM collectives WHERE comm IS NOT NULL ' +
  'UNION SELECT comm, send_thread FROM messages WHERE comm IS NOT NULL ' +
  'UNION SELECT comm, recv_thread FROM messages WHERE comm IS NOT NULL';

/** The communicators of the /query rows [comm, thread]. */
export function communicatorsOf(rows: readonly (readonly unknown[])[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const [comm, row] of rows) {
    if (typeof comm !== 'string' || typeof row !== 'number') continue;
    const set = out.get(comm) ?? new Set<number>();
    set.add(row);
    out.set(comm, set);
  }
  return out;
}

/** The communicators' names in the order a menu lists them: MPI_COMM_WORLD first, then the others (numbers in order). */
export function communicatorNames(comms: Communicators): string[] {
  const collator = new Intl.Collator(undefined, { numeric: true });
  return [...comms.keys()].sort((a, b) => Number(b === 'MPI_COMM_WORLD') - Number(a === 'MPI_COMM_WORLD') || collator.compare(a, b));
}

/** Asks /query for the communicators once (again after invalidate()); get() resolves to them. */
export class CommMembers {
  private pending: Promise<Communicators> | null = null;
  /** the communicators once known (kept until the next snapshot's are); null before */
  known: Communicators | null = null;
  /** a new snapshot came since `known` was asked */
  stale = false;
  private generation = 0;

  constructor(private readonly api: () => ApiClient) {}

  get(): Promise<Communicators> {
    if (this.pending) return this.pending;
    const gen = this.generation;
    const p = this.api()
      .get('query', { sql: COMM_QUERY, limit: 100000, timeout_ms: 60000 })
      .then((res) => {
        const comms = communicatorsOf(res.rows);
        if (gen === this.generation) {
          this.known = comms;
          this.stale = false;
        }
        return comms;
      });
    p.catch(() => {
      if (gen === this.generation) this.pending = null; // asked again next time
    });
    this.pending = p;
    return p;
  }

  /** A live trace's new snapshot: asked again when next wanted. */
  invalidate(): void {
    this.generation++;
    this.pending = null;
    this.stale = true;
  }
}
