// The chunks of worksharing loops, from libomp's loop entry points that
// compiled code calls (LLVM 14's libomp has no ompt_callback_dispatch):
// __kmpc_dispatch_next_* hands out each chunk of a dynamic/guided/runtime
// loop (recorded as a state "omp chunk" until the thread asks for the next),
// __kmpc_for_static_init_* hands a thread all its chunks of a static loop at
// once (recorded as first/last pairs at the loop's start). docs/openmp.md.
#include <atomic>
#include <cstdint>

#include "threads/omp/omp_record.h"
#include "threads/omp/omp_states.h"
#include "threads/omp/real_fn.h"

namespace plx::omp {
namespace {

// The chunks [lo + k*stride, min(hi + k*stride, end)] a static schedule gives
// this thread (end: the loop's last iteration; incr's sign is the direction).
template <typename T, typename S>
void StaticChunks(T lo, T hi, S stride, T end, S incr) {
  if (!MayRecord()) return;
  for (;;) {
    if (incr > 0 ? lo > end : lo < end) return;
    const T last = incr > 0 ? (hi < end ? hi : end) : (hi > end ? hi : end);
    if (incr > 0 ? lo <= last : lo >= last)
      Chunk(static_cast<int64_t>(lo), static_cast<int64_t>(last));
    // One chunk when the stride cannot reach the next (unchunked schedules).
    if (stride == 0 || (incr > 0) != (stride > 0)) return;
    const T next = static_cast<T>(lo + stride);
    if (incr > 0 ? next <= lo : next >= lo) return;  // wrapped around
    lo = next;
    hi = static_cast<T>(hi + stride);
  }
}

}  // namespace
}  // namespace plx::omp

using plx::omp::Real;

#define PLX_STATIC_INIT(NAME, T, S)                                                            \
  void NAME(void* loc, int32_t gtid, int32_t schedule, int32_t* last_iter, T* lower, T* upper, \
            S* stride, S incr, S chunk) {                                                      \
    static std::atomic<decltype(&NAME)> real{nullptr};                                         \
    const T end = *upper;                                                                      \
    Real(real, #NAME)(loc, gtid, schedule, last_iter, lower, upper, stride, incr, chunk);      \
    plx::omp::StaticChunks<T, S>(*lower, *upper, *stride, end, incr);                          \
  }

#define PLX_DISPATCH_NEXT(NAME, T, S)                                                    \
  int NAME(void* loc, int32_t gtid, int32_t* last_iter, T* lower, T* upper, S* stride) { \
    static std::atomic<decltype(&NAME)> real{nullptr};                                   \
    plx::omp::Leave(plx::omp::g_chunk);                                                  \
    const int more = Real(real, #NAME)(loc, gtid, last_iter, lower, upper, stride);      \
    if (more != 0) {                                                                     \
      plx::omp::Enter(plx::omp::g_chunk);                                                \
      plx::omp::Chunk(static_cast<int64_t>(*lower), static_cast<int64_t>(*upper));       \
    }                                                                                    \
    return more;                                                                         \
  }

#pragma GCC visibility push(default)
extern "C" {
PLX_STATIC_INIT(__kmpc_for_static_init_4, int32_t, int32_t)
PLX_STATIC_INIT(__kmpc_for_static_init_4u, uint32_t, int32_t)
PLX_STATIC_INIT(__kmpc_for_static_init_8, int64_t, int64_t)
PLX_STATIC_INIT(__kmpc_for_static_init_8u, uint64_t, int64_t)
PLX_DISPATCH_NEXT(__kmpc_dispatch_next_4, int32_t, int32_t)
PLX_DISPATCH_NEXT(__kmpc_dispatch_next_4u, uint32_t, int32_t)
PLX_DISPATCH_NEXT(__kmpc_dispatch_next_8, int64_t, int64_t)
PLX_DISPATCH_NEXT(__kmpc_dispatch_next_8u, uint64_t, int64_t)
}  // extern "C"
#pragma GCC visibility pop
