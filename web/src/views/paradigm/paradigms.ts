// Paradigms: what a thread is doing in a state (computing, point-to-point,
// collective, one-sided, synchronising, I/O, the recorder itself, other),
// told from the state's name and category. The one place these name rules
// live: the palette's paradigm colouring (app/state_style.ts) and the
// Paradigms tab (paradigm_view.ts) both use it.

export type ParadigmId = 'computing' | 'p2p' | 'collective' | 'one-sided' | 'sync' | 'io' | 'recorder' | 'other';

export interface Paradigm {
  id: ParadigmId;
  title: string;
  /** '#rrggbb' */
  color: string;
}

/** In the order the legend and the summary list them. */
export const PARADIGMS: readonly Paradigm[] = [
  { id: 'computing', title: 'computing', color: '#4caf50' },
  { id: 'p2p', title: 'point-to-point', color: '#1f77b4' },
  { id: 'collective', title: 'collective', color: '#ff7f0e' },
  { id: 'one-sided', title: 'one-sided', color: '#9467bd' },
  { id: 'sync', title: 'synchronising', color: '#d62728' },
  { id: 'io', title: 'I/O', color: '#8c564b' },
  { id: 'recorder', title: 'recorder', color: '#7f7f7f' },
  { id: 'other', title: 'other', color: '#c7c7c7' },
];

const BY_ID = new Map(PARADIGMS.map((p) => [p.id, p]));

export function paradigm(id: ParadigmId): Paradigm {
  return BY_ID.get(id)!;
}

/** What a state needs to be classified (StateInfo has both). */
export interface NamedState {
  name: string;
  category: string;
}

// MPI names without the MPI_/PMPI_ prefix. Window synchronisation is
// synchronising, the rest of MPI_Win_* (create, allocate, attach, free, …)
// one-sided; MPI_Wait*/Test* count as point-to-point even when they complete
// a non-blocking collective (they carry no operation of their own).
const MPI_SYNC = /^(I?barrier|Win_(fence|lock|lock_all|unlock|unlock_all|post|start|complete|wait|test|sync|flush\w*))$/i;
const MPI_ONE_SIDED = /^(R?put|R?get|R?accumulate|R?get_accumulate|Fetch_and_op|Compare_and_swap|Win_\w+)$/i;
const MPI_COLLECTIVE =
  /^I?(allreduce|reduce|reduce_local|reduce_scatter|reduce_scatter_block|bcast|gatherv?|allgatherv?|scatterv?|alltoall[vw]?|scan|exscan|neighbor_\w+)(_init)?$/i;
const MPI_P2P =
  /^(I?[bsr]?send|I?recv|I?sendrecv(_replace)?|[bsr]?send_init|recv_init|start(all)?|wait(all|any|some)?|test(all|any|some)?|I?m?probe|I?mrecv|cancel|request_free|request_get_status)$/i;
// POSIX and C I/O calls, should a trace record them as states.
const POSIX_IO =
  /^(open(at)?|creat|close|read|write|pread|pwrite|readv|writev|preadv|pwritev|lseek|fsync|fdatasync|fopen|fclose|fread|fwrite|fflush|fseek|mmap|msync|aio_\w+)(64)?$/;
// pthread calls libparallax-threads records (src/threads/*_wrappers.cc) that wait for another thread.
const PTHREAD_SYNC = /^pthread_(mutex_\w*lock|rwlock_\w*lock|cond_\w*wait|barrier_wait|join|spin_lock)$/;

/** The paradigm of a state. */
export function classifyState(s: NamedState): ParadigmId {
  const name = s.name;
  const category = s.category.toLowerCase();
  // The recorder's own work: "parallax:flush" in category "internal" (src/capture/runtime.cc).
  if (category === 'internal' || name.startsWith('parallax:')) return 'recorder';
  const mpi = /^P?MPI_(\w+)$/.exec(name);
  if (mpi) {
    const op = mpi[1]!;
    if (/^File_/i.test(op) || category === 'io') return 'io';
    if (MPI_SYNC.test(op)) return 'sync';
    if (MPI_ONE_SIDED.test(op)) return 'one-sided';
    if (MPI_COLLECTIVE.test(op)) return 'collective';
    if (MPI_P2P.test(op)) return 'p2p';
    return 'other';
  }
  if (category === 'io' || POSIX_IO.test(name)) return 'io';
  // libparallax-threads records all its pthread calls in category "sync"
  // (src/threads/record.cc), also pthread_create, which waits for nobody.
  if (name.startsWith('pthread_')) return PTHREAD_SYNC.test(name) ? 'sync' : 'other';
  // OpenMP's barriers, taskwait, critical, locks, … are in category "sync" (src/threads/omp/omp_states.cc).
  if (category === 'sync' || /^omp_(set|test)_(nest_)?lock$/.test(name)) return 'sync';
  if (category === 'comm' || category === 'mpi' || name.startsWith('shmem_')) return 'other';
  return 'computing';
}

/** The paradigm colour of a state. */
export function paradigmColor(s: NamedState): string {
  return paradigm(classifyState(s)).color;
}
