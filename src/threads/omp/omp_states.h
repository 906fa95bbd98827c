// The states and events the OpenMP tool records, shared by its two sources
// (the OMPT tool for libomp, the GOMP_* wrappers for libgomp) so both write
// the same names (docs/openmp.md).
#pragma once

#include <cstdint>

#include "threads/omp/omp_record.h"

namespace plx::omp {

extern Def g_parallel, g_implicit, g_thread_num;
extern Def g_loop, g_sections, g_single, g_workshare, g_distribute, g_taskloop, g_scope;
extern Def g_chunk, g_chunk_first, g_chunk_last;
extern Def g_task, g_task_create, g_task_begin;
extern Def g_barrier, g_implicit_barrier, g_taskwait, g_taskgroup, g_reduction;
extern Def g_critical, g_lock, g_ordered, g_mutex;

/// An acquisition shorter than this did not wait: a lock's fast path, and a
/// critical section's first use (libomp makes its lock then) take 1-2 us.
inline constexpr uint64_t kWaitNs = 5000;

/// A chunk's first and last iteration (inclusive): two instants.
void Chunk(int64_t first, int64_t last);

}  // namespace plx::omp
