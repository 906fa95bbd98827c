// OpenMP worksharing loops and their chunks (the iteration-space view), from
// the records docs/openmp.md describes: `omp parallel` regions, their teams'
// `omp implicit task`s, each task's `omp for`s, and the chunk instants in them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::analysis {

/// One chunk: iterations first..last (inclusive) run by one thread.
struct OmpChunk {
  uint32_t thread = 0;      // index into Trace::threads
  int32_t thread_num = -1;  // omp_get_thread_num() in the team; -1 unknown
  int64_t first = 0;
  int64_t last = 0;
  // Dynamic loops: the `omp chunk` state holding the chunk's instants. Static
  // loops (estimated): the thread's `omp for` shared among its chunks in
  // proportion to their iterations, in the order recorded.
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  bool estimated = false;
};

/// The k-th `omp for` of every implicit task of one `omp parallel` region.
struct OmpLoop {
  uint32_t process = 0;
  uint32_t region = 0;   // the region's `omp parallel` slice
  uint32_t k = 0;        // the region's k-th worksharing loop, from 0
  int64_t begin_ns = 0;  // earliest `omp for` begin of the team
  int64_t end_ns = 0;    // latest `omp for` end
  int64_t first = 0;     // smallest iteration of any chunk (0 when none)
  int64_t last = -1;     // largest (-1 when none)
  uint64_t iterations = 0;
  uint32_t threads = 0;  // the team's implicit tasks
  bool dynamic = false;  // some thread ran `omp chunk` states in it
  // Its chunks: OmpLoops::chunks[chunk_begin .. chunk_end), by first
  // iteration (ties: by thread, then time).
  size_t chunk_begin = 0;
  size_t chunk_end = 0;
};

struct OmpLoops {
  std::vector<OmpLoop> loops;  // by begin (then process, region, k): index = loop id
  std::vector<OmpChunk> chunks;
  // What could not be placed (counted, never fatal):
  uint64_t tasks_without_region = 0;  // implicit tasks no region was found for
  uint64_t loops_without_task = 0;    // `omp for` slices in no implicit task (or a lost one)
  uint64_t unpaired_instants = 0;  // chunk first/last without its partner or outside an `omp for`
};

/// The loops of the trace (empty when it has no `omp for`). Teams: a task
/// directly inside an `omp parallel` of its own thread belongs to that region
/// (the region's master); any other task to the latest region of its process,
/// on another thread, that began at or before it and had not ended (libomp
/// reports a worker's task end only when the next region forks, so tasks
/// overlap the next region). Linear in slices and instants, plus sorting the
/// loops and each loop's chunks.
OmpLoops ComputeOmpLoops(const model::Trace& trace);

/// Indices of the loops overlapping [from_ns, to_ns] (begin <= to_ns and end
/// >= from_ns), in id order; at most `limit`, *truncated set when more.
std::vector<size_t> SelectOmpLoops(const OmpLoops& loops, int64_t from_ns, int64_t to_ns,
                                   size_t limit, bool* truncated);

}  // namespace plx::analysis
