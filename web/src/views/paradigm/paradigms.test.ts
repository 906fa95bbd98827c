import { describe, expect, it } from 'vitest';
import { classifyState, paradigm, paradigmColor, PARADIGMS, type ParadigmId } from './paradigms';

function expectAll(id: ParadigmId, names: string[], category = ''): void {
  for (const name of names) expect([name, classifyState({ name, category })]).toEqual([name, id]);
}

describe('classifyState', () => {
  it('user states and OpenMP work are computing', () => {
    expectAll('computing', ['compute', 'solve', 'main']);
    // src/threads/omp/omp_states.cc records these in category "user".
    expectAll('computing', ['omp parallel', 'omp implicit task', 'omp for', 'omp chunk', 'omp task', 'omp single'], 'user');
  });

  it('MPI point-to-point calls, waits, tests and probes', () => {
    expectAll('p2p', ['MPI_Send', 'MPI_Recv', 'MPI_Isend', 'MPI_Irecv', 'MPI_Ssend', 'MPI_Bsend', 'MPI_Sendrecv', 'MPI_Sendrecv_replace',
      'MPI_Wait', 'MPI_Waitall', 'MPI_Waitany', 'MPI_Testsome', 'MPI_Test', 'MPI_Probe', 'MPI_Iprobe', 'MPI_Mprobe', 'MPI_Mrecv',
      'MPI_Start', 'MPI_Startall', 'MPI_Send_init', 'MPI_Recv_init', 'MPI_Request_free', 'PMPI_Send'], 'comm');
  });

  it('MPI collectives, blocking and not', () => {
    expectAll('collective', ['MPI_Allreduce', 'MPI_Bcast', 'MPI_Reduce', 'MPI_Gather', 'MPI_Gatherv', 'MPI_Allgather', 'MPI_Scatter',
      'MPI_Alltoall', 'MPI_Alltoallv', 'MPI_Alltoallw', 'MPI_Reduce_scatter', 'MPI_Scan', 'MPI_Exscan', 'MPI_Iallreduce', 'MPI_Ibcast',
      'MPI_Neighbor_alltoall', 'MPI_Allreduce_init'], 'comm');
  });

  it('MPI one-sided calls and window management', () => {
    expectAll('one-sided', ['MPI_Put', 'MPI_Get', 'MPI_Accumulate', 'MPI_Get_accumulate', 'MPI_Rput', 'MPI_Fetch_and_op',
      'MPI_Compare_and_swap', 'MPI_Win_create', 'MPI_Win_allocate', 'MPI_Win_free'], 'comm');
  });

  it('barriers, window synchronisation, OpenMP and pthread waits synchronise', () => {
    expectAll('sync', ['MPI_Barrier', 'MPI_Ibarrier', 'MPI_Win_fence', 'MPI_Win_lock', 'MPI_Win_unlock_all', 'MPI_Win_flush'], 'comm');
    expectAll('sync', ['omp barrier', 'omp implicit barrier', 'omp taskwait', 'omp taskgroup', 'omp reduction', 'omp critical',
      'omp_set_lock', 'omp ordered', 'omp mutex'], 'sync');
    // src/threads/*_wrappers.cc, category "sync".
    expectAll('sync', ['pthread_mutex_lock', 'pthread_rwlock_rdlock', 'pthread_rwlock_wrlock', 'pthread_cond_wait', 'pthread_barrier_wait',
      'pthread_join'], 'sync');
    // Also when a converted trace lost the category.
    expectAll('sync', ['pthread_mutex_lock', 'pthread_join', 'omp_set_lock']);
  });

  it('MPI-IO and traced POSIX I/O', () => {
    expectAll('io', ['MPI_File_open', 'MPI_File_write_all', 'MPI_File_read_at', 'MPI_File_close'], 'io');
    expectAll('io', ['MPI_File_write']);
    expectAll('io', ['read', 'write', 'open', 'pwrite64', 'fwrite']);
    expectAll('io', ['my_checkpoint'], 'io');
  });

  it("the recorder's own flush", () => {
    // src/capture/runtime.cc: registry_.State("parallax:flush", 0x808080, "internal").
    expectAll('recorder', ['parallax:flush'], 'internal');
    expectAll('recorder', ['parallax:flush']);
    expectAll('recorder', ['anything'], 'internal');
  });

  it('the rest of MPI and thread management are other', () => {
    expectAll('other', ['MPI_Init', 'MPI_Init_thread', 'MPI_Finalize', 'MPI_Abort', 'MPI_Comm_rank', 'MPI_Comm_size', 'MPI_Pcontrol'], 'comm');
    expectAll('other', ['pthread_create', 'pthread_exit'], 'sync');
    expectAll('other', ['some_library_call'], 'comm');
  });
});

describe('paradigm colours', () => {
  it('every paradigm has its own colour', () => {
    expect(new Set(PARADIGMS.map((p) => p.color)).size).toBe(PARADIGMS.length);
    for (const p of PARADIGMS) expect(p.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(paradigmColor({ name: 'MPI_Allreduce', category: 'comm' })).toBe(paradigm('collective').color);
  });
});
