// What the wrappers of libgomp's GOMP_* entry points (gomp*.cc) share: whether
// they record, the trampoline that runs a parallel region's outlined function
// on each team thread, the calling thread's current loop, and what a
// construct with no end call (single) leaves open until the thread's next
// OpenMP call. docs/openmp.md, "GCC's libgomp".
#pragma once

#include <cstdint>

#include "threads/omp/omp_record.h"

namespace plx::omp::gomp {

/// Whether the GOMP_* wrappers record: the program runs on libgomp (not on
/// libomp's GOMP compatibility layer, which the OMPT tool records),
/// PLX_OPENMP is not 0 and no OMPT tool was initialised. Otherwise every
/// wrapper calls the runtime straight through.
bool On();

/// Closes what a single left open (the executor's `omp single`, which has
/// no end call): called by the calls that cannot be inside the single's
/// body (barriers, worksharing constructs, the implicit task's end).
void Boundary();
/// GOMP_single_start / GOMP_single_copy_start: whether this thread runs the
/// single (then `omp single` is open until its next barrier or worksharing
/// construct); either way, the thread's next GOMP_barrier is the single's
/// implicit barrier, unless a worksharing construct comes first.
void SingleStarted(bool executor);
/// Whether the previous call was a single's start (the flag is cleared).
bool TakeAfterSingle();

/// A worksharing loop as the runtime was given it: iteration `x` is
/// number (x - start) / incr in the logical space 0..N-1 (ull loops going
/// down carry their negative incr as unsigned).
struct Loop {
  uint64_t start = 0;
  uint64_t incr = 1;
  bool up = true;
  bool active = false;  // chunks are recorded only inside a known loop
};
Loop SignedLoop(long start, long incr);
Loop UnsignedLoop(bool up, unsigned long long start, unsigned long long incr);

/// Enters `omp for` for `loop` on this thread.
void LoopBegin(const Loop& loop);
/// The chunk [istart, iend) handed out: state `omp chunk` and its first/last
/// logical iterations (nothing outside a known loop).
void LoopChunk(uint64_t istart, uint64_t iend);
/// The thread asks for its next chunk: the current one ends.
void LoopNext();
/// Leaves `omp for`.
void LoopEnd();

/// A parallel region: what the trampoline runs on each team thread, and the
/// worksharing construct a combined construct opens (null, `omp for` with
/// `loop`, or `omp sections`). Lives on the starting thread's stack for the
/// region's duration; passed to libgomp as the region's data.
struct Region {
  // The first word of the program's data, first: GOMP_parallel_reductions
  // reads the region's reductions from there.
  void* first_word;
  void (*fn)(void*);
  void* data;
  Def* work;
  Loop loop;
};
/// The trampoline passed to libgomp for a Region: `omp implicit task` with
/// `omp thread num` around the outlined function; on the starting thread
/// (thread 0) the implicit task stays open, in `omp implicit barrier`, until
/// RegionEnd.
void RegionBody(void* region);
/// `omp parallel` on the starting thread, around the runtime's call.
void RegionBegin();
void RegionEnd();

/// A wait known only afterwards (critical, locks, ordered): the start, and
/// the state recorded at the end when it lasted kWaitNs or more.
struct Wait {
  uint64_t tick;
  uint64_t ns;
};
Wait WaitBegin();
void WaitEnd(Def& state, const Wait& since);

}  // namespace plx::omp::gomp
