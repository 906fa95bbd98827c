// GCC's libgomp: the worksharing loops whose chunks the runtime hands out
// (dynamic, guided, runtime, ordered, doacross schedules, and static ones
// only when gcc asks the runtime: ordered or runtime schedules; otherwise gcc
// computes static chunks inline and calls nothing). Records, on each thread:
//   GOMP_loop_*_start:  omp for { omp chunk { first, last } if it got one
//   GOMP_loop_*_next:   } omp chunk { first, last } if it got another
//   GOMP_loop_end:      } omp implicit barrier { the wait }
//   GOMP_loop_end_nowait: }
// GOMP_parallel_loop_* open `omp for` in each team thread's implicit task
// (gomp.cc's trampoline); the threads then ask for chunks with _next.
// Iterations are logical numbers, (x - start) / incr, as for libomp.
#include <atomic>
#include <cstdint>

#include "threads/omp/gomp.h"
#include "threads/omp/omp_states.h"
#include "threads/omp/real_fn.h"

namespace gomp = plx::omp::gomp;
using plx::omp::Real;
using ull = unsigned long long;

namespace {

template <typename F, typename... A>
bool Start(std::atomic<F>& real, const char* name, const gomp::Loop& loop, A... args) {
  if (!gomp::On()) return Real(real, name)(args...);
  gomp::Boundary();
  gomp::LoopBegin(loop);
  return Real(real, name)(args...);
}

template <typename T>
bool Started(bool more, const T* istart, const T* iend) {
  if (more && istart != nullptr && gomp::On())
    gomp::LoopChunk(static_cast<uint64_t>(*istart), static_cast<uint64_t>(*iend));
  return more;
}

template <typename F, typename T>
bool Next(std::atomic<F>& real, const char* name, T* istart, T* iend) {
  if (!gomp::On()) return Real(real, name)(istart, iend);
  gomp::LoopNext();
  return Started(Real(real, name)(istart, iend), istart, iend);
}

template <typename F, typename... A>
void ParallelLoop(std::atomic<F>& real, const char* name, void (*fn)(void*), void* data,
                  unsigned num_threads, long start, long end, long incr, A... rest) {
  if (!gomp::On()) return Real(real, name)(fn, data, num_threads, start, end, incr, rest...);
  gomp::Region region{nullptr, fn, data, &plx::omp::g_loop, gomp::SignedLoop(start, incr)};
  gomp::RegionBegin();
  Real(real, name)(&gomp::RegionBody, &region, num_threads, start, end, incr, rest...);
  gomp::RegionEnd();
}

}  // namespace

// bool NAME(long start, long end, long incr, long chunk, long* istart, long* iend)
#define PLX_LOOP_START(NAME)                                                                      \
  bool NAME(long start, long end, long incr, long chunk, long* istart, long* iend) {              \
    static std::atomic<decltype(&NAME)> real{nullptr};                                            \
    return Started(                                                                               \
        Start(real, #NAME, gomp::SignedLoop(start, incr), start, end, incr, chunk, istart, iend), \
        istart, iend);                                                                            \
  }
// The runtime schedules: no chunk size.
#define PLX_LOOP_RUNTIME_START(NAME)                                                               \
  bool NAME(long start, long end, long incr, long* istart, long* iend) {                           \
    static std::atomic<decltype(&NAME)> real{nullptr};                                             \
    return Started(                                                                                \
        Start(real, #NAME, gomp::SignedLoop(start, incr), start, end, incr, istart, iend), istart, \
        iend);                                                                                     \
  }
// GOMP_loop_start, GOMP_loop_ordered_start (GOMP_5.0): the schedule as an
// argument; istart null when only the work share is set up.
#define PLX_LOOP_SCHED_START(NAME)                                                             \
  bool NAME(long start, long end, long incr, long sched, long chunk, long* istart, long* iend, \
            uintptr_t* reductions, void** mem) {                                               \
    static std::atomic<decltype(&NAME)> real{nullptr};                                         \
    return Started(Start(real, #NAME, gomp::SignedLoop(start, incr), start, end, incr, sched,  \
                         chunk, istart, iend, reductions, mem),                                \
                   istart, iend);                                                              \
  }
#define PLX_LOOP_NEXT(NAME)                            \
  bool NAME(long* istart, long* iend) {                \
    static std::atomic<decltype(&NAME)> real{nullptr}; \
    return Next(real, #NAME, istart, iend);            \
  }
#define PLX_ULL_START(NAME)                                                                      \
  bool NAME(bool up, ull start, ull end, ull incr, ull chunk, ull* istart, ull* iend) {          \
    static std::atomic<decltype(&NAME)> real{nullptr};                                           \
    return Started(Start(real, #NAME, gomp::UnsignedLoop(up, start, incr), up, start, end, incr, \
                         chunk, istart, iend),                                                   \
                   istart, iend);                                                                \
  }
#define PLX_ULL_RUNTIME_START(NAME)                                                              \
  bool NAME(bool up, ull start, ull end, ull incr, ull* istart, ull* iend) {                     \
    static std::atomic<decltype(&NAME)> real{nullptr};                                           \
    return Started(Start(real, #NAME, gomp::UnsignedLoop(up, start, incr), up, start, end, incr, \
                         istart, iend),                                                          \
                   istart, iend);                                                                \
  }
#define PLX_ULL_SCHED_START(NAME)                                                                 \
  bool NAME(bool up, ull start, ull end, ull incr, long sched, ull chunk, ull* istart, ull* iend, \
            uintptr_t* reductions, void** mem) {                                                  \
    static std::atomic<decltype(&NAME)> real{nullptr};                                            \
    return Started(Start(real, #NAME, gomp::UnsignedLoop(up, start, incr), up, start, end, incr,  \
                         sched, chunk, istart, iend, reductions, mem),                            \
                   istart, iend);                                                                 \
  }
#define PLX_ULL_NEXT(NAME)                             \
  bool NAME(ull* istart, ull* iend) {                  \
    static std::atomic<decltype(&NAME)> real{nullptr}; \
    return Next(real, #NAME, istart, iend);            \
  }
// Doacross loops: the runtime hands out iterations of the first collapsed
// dimension, already numbered 0..counts[0]-1.
#define PLX_DOACROSS_START(NAME, T)                                                               \
  bool NAME(unsigned ncounts, T* counts, T chunk, T* istart, T* iend) {                           \
    static std::atomic<decltype(&NAME)> real{nullptr};                                            \
    return Started(                                                                               \
        Start(real, #NAME, gomp::UnsignedLoop(true, 0, 1), ncounts, counts, chunk, istart, iend), \
        istart, iend);                                                                            \
  }
#define PLX_DOACROSS_RUNTIME_START(NAME, T)                                                        \
  bool NAME(unsigned ncounts, T* counts, T* istart, T* iend) {                                     \
    static std::atomic<decltype(&NAME)> real{nullptr};                                             \
    return Started(                                                                                \
        Start(real, #NAME, gomp::UnsignedLoop(true, 0, 1), ncounts, counts, istart, iend), istart, \
        iend);                                                                                     \
  }
#define PLX_DOACROSS_SCHED_START(NAME, T)                                                     \
  bool NAME(unsigned ncounts, T* counts, long sched, T chunk, T* istart, T* iend,             \
            uintptr_t* reductions, void** mem) {                                              \
    static std::atomic<decltype(&NAME)> real{nullptr};                                        \
    return Started(Start(real, #NAME, gomp::UnsignedLoop(true, 0, 1), ncounts, counts, sched, \
                         chunk, istart, iend, reductions, mem),                               \
                   istart, iend);                                                             \
  }
#define PLX_PARALLEL_LOOP(NAME)                                                                   \
  void NAME(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr, \
            long chunk, unsigned flags) {                                                         \
    static std::atomic<decltype(&NAME)> real{nullptr};                                            \
    ParallelLoop(real, #NAME, fn, data, num_threads, start, end, incr, chunk, flags);             \
  }
#define PLX_PARALLEL_LOOP_RUNTIME(NAME)                                                           \
  void NAME(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr, \
            unsigned flags) {                                                                     \
    static std::atomic<decltype(&NAME)> real{nullptr};                                            \
    ParallelLoop(real, #NAME, fn, data, num_threads, start, end, incr, flags);                    \
  }

#pragma GCC visibility push(default)
extern "C" {

PLX_LOOP_START(GOMP_loop_static_start)
PLX_LOOP_START(GOMP_loop_dynamic_start)
PLX_LOOP_START(GOMP_loop_guided_start)
PLX_LOOP_START(GOMP_loop_nonmonotonic_dynamic_start)
PLX_LOOP_START(GOMP_loop_nonmonotonic_guided_start)
PLX_LOOP_START(GOMP_loop_ordered_static_start)
PLX_LOOP_START(GOMP_loop_ordered_dynamic_start)
PLX_LOOP_START(GOMP_loop_ordered_guided_start)
PLX_LOOP_RUNTIME_START(GOMP_loop_runtime_start)
PLX_LOOP_RUNTIME_START(GOMP_loop_nonmonotonic_runtime_start)
PLX_LOOP_RUNTIME_START(GOMP_loop_maybe_nonmonotonic_runtime_start)
PLX_LOOP_RUNTIME_START(GOMP_loop_ordered_runtime_start)
PLX_LOOP_SCHED_START(GOMP_loop_start)
PLX_LOOP_SCHED_START(GOMP_loop_ordered_start)
PLX_LOOP_NEXT(GOMP_loop_static_next)
PLX_LOOP_NEXT(GOMP_loop_dynamic_next)
PLX_LOOP_NEXT(GOMP_loop_guided_next)
PLX_LOOP_NEXT(GOMP_loop_runtime_next)
PLX_LOOP_NEXT(GOMP_loop_nonmonotonic_dynamic_next)
PLX_LOOP_NEXT(GOMP_loop_nonmonotonic_guided_next)
PLX_LOOP_NEXT(GOMP_loop_nonmonotonic_runtime_next)
PLX_LOOP_NEXT(GOMP_loop_maybe_nonmonotonic_runtime_next)
PLX_LOOP_NEXT(GOMP_loop_ordered_static_next)
PLX_LOOP_NEXT(GOMP_loop_ordered_dynamic_next)
PLX_LOOP_NEXT(GOMP_loop_ordered_guided_next)
PLX_LOOP_NEXT(GOMP_loop_ordered_runtime_next)

PLX_ULL_START(GOMP_loop_ull_static_start)
PLX_ULL_START(GOMP_loop_ull_dynamic_start)
PLX_ULL_START(GOMP_loop_ull_guided_start)
PLX_ULL_START(GOMP_loop_ull_nonmonotonic_dynamic_start)
PLX_ULL_START(GOMP_loop_ull_nonmonotonic_guided_start)
PLX_ULL_START(GOMP_loop_ull_ordered_static_start)
PLX_ULL_START(GOMP_loop_ull_ordered_dynamic_start)
PLX_ULL_START(GOMP_loop_ull_ordered_guided_start)
PLX_ULL_RUNTIME_START(GOMP_loop_ull_runtime_start)
PLX_ULL_RUNTIME_START(GOMP_loop_ull_nonmonotonic_runtime_start)
PLX_ULL_RUNTIME_START(GOMP_loop_ull_maybe_nonmonotonic_runtime_start)
PLX_ULL_RUNTIME_START(GOMP_loop_ull_ordered_runtime_start)
PLX_ULL_SCHED_START(GOMP_loop_ull_start)
PLX_ULL_SCHED_START(GOMP_loop_ull_ordered_start)
PLX_ULL_NEXT(GOMP_loop_ull_static_next)
PLX_ULL_NEXT(GOMP_loop_ull_dynamic_next)
PLX_ULL_NEXT(GOMP_loop_ull_guided_next)
PLX_ULL_NEXT(GOMP_loop_ull_runtime_next)
PLX_ULL_NEXT(GOMP_loop_ull_nonmonotonic_dynamic_next)
PLX_ULL_NEXT(GOMP_loop_ull_nonmonotonic_guided_next)
PLX_ULL_NEXT(GOMP_loop_ull_nonmonotonic_runtime_next)
PLX_ULL_NEXT(GOMP_loop_ull_maybe_nonmonotonic_runtime_next)
PLX_ULL_NEXT(GOMP_loop_ull_ordered_static_next)
PLX_ULL_NEXT(GOMP_loop_ull_ordered_dynamic_next)
PLX_ULL_NEXT(GOMP_loop_ull_ordered_guided_next)
PLX_ULL_NEXT(GOMP_loop_ull_ordered_runtime_next)

PLX_DOACROSS_START(GOMP_loop_doacross_static_start, long)
PLX_DOACROSS_START(GOMP_loop_doacross_dynamic_start, long)
PLX_DOACROSS_START(GOMP_loop_doacross_guided_start, long)
PLX_DOACROSS_RUNTIME_START(GOMP_loop_doacross_runtime_start, long)
PLX_DOACROSS_SCHED_START(GOMP_loop_doacross_start, long)
PLX_DOACROSS_START(GOMP_loop_ull_doacross_static_start, ull)
PLX_DOACROSS_START(GOMP_loop_ull_doacross_dynamic_start, ull)
PLX_DOACROSS_START(GOMP_loop_ull_doacross_guided_start, ull)
PLX_DOACROSS_RUNTIME_START(GOMP_loop_ull_doacross_runtime_start, ull)
PLX_DOACROSS_SCHED_START(GOMP_loop_ull_doacross_start, ull)

PLX_PARALLEL_LOOP(GOMP_parallel_loop_static)
PLX_PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
PLX_PARALLEL_LOOP(GOMP_parallel_loop_guided)
PLX_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PLX_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
PLX_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
PLX_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
PLX_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

void GOMP_loop_end() {
  PLX_DECLARE_REAL(GOMP_loop_end);
  if (!gomp::On()) return PLX_REAL(GOMP_loop_end)();
  gomp::LoopEnd();
  plx::omp::Enter(plx::omp::g_implicit_barrier);
  PLX_REAL(GOMP_loop_end)();
  plx::omp::Leave(plx::omp::g_implicit_barrier);
}

bool GOMP_loop_end_cancel() {
  PLX_DECLARE_REAL(GOMP_loop_end_cancel);
  if (!gomp::On()) return PLX_REAL(GOMP_loop_end_cancel)();
  gomp::LoopEnd();
  plx::omp::Enter(plx::omp::g_implicit_barrier);
  const bool cancelled = PLX_REAL(GOMP_loop_end_cancel)();
  plx::omp::Leave(plx::omp::g_implicit_barrier);
  return cancelled;
}

void GOMP_loop_end_nowait() {
  PLX_DECLARE_REAL(GOMP_loop_end_nowait);
  if (gomp::On()) gomp::LoopEnd();
  PLX_REAL(GOMP_loop_end_nowait)();
}

}  // extern "C"
#pragma GCC visibility pop
