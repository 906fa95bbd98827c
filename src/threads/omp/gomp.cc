// GCC's libgomp (docs/openmp.md): which runtime the program runs on, the
// per-thread bookkeeping of gomp.h, and the parallel regions: GOMP_parallel,
// GOMP_parallel_reductions and GOMP_parallel_sections start the team with
// RegionBody as the outlined function, which records each thread's implicit
// task around the program's own. Records, on the starting thread:
//   omp parallel { omp implicit task, omp thread num 0, ... the region's
//   work ..., omp implicit barrier (until the team has finished) }
// and on each other team thread:
//   omp implicit task { omp thread num N, ... the region's work ... }
#include "threads/omp/gomp.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>

#include "threads/omp/omp_states.h"
#include "threads/omp/real_fn.h"

namespace plx::omp::gomp {
namespace {

// 0: not decided; 1: pass through; 2: the program runs on libgomp.
std::atomic<int> g_runtime{0};

thread_local bool tls_single_open __attribute__((tls_model("initial-exec"))) = false;
thread_local bool tls_after_single __attribute__((tls_model("initial-exec"))) = false;
thread_local Loop tls_loop __attribute__((tls_model("initial-exec")));

// libgomp's GOMP_parallel comes from an object that is not libomp (which
// also exports GOMP_* names, and has __kmpc_fork_call): decided once, on the
// first call of any wrapper, outside any recording.
int DecideRuntime() {
  int runtime = 1;
  if (Enabled() && !OmptTool()) {
    void* real = ::dlsym(RTLD_NEXT, "GOMP_parallel");
    Dl_info info{};
    if (real != nullptr && ::dladdr(real, &info) != 0 && info.dli_fname != nullptr) {
      void* object = ::dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
      if (object != nullptr) {
        if (::dlsym(object, "__kmpc_fork_call") == nullptr) runtime = 2;
        ::dlclose(object);
      }
    }
  }
  g_runtime.store(runtime, std::memory_order_release);
  return runtime;
}

int ThreadNum() {
  static std::atomic<int (*)()> real{nullptr};
  return Real(real, "omp_get_thread_num")();
}

uint64_t Logical(const Loop& l, uint64_t x) {
  return l.up ? (x - l.start) / l.incr : (l.start - x) / (0 - l.incr);
}

}  // namespace

bool On() {
  int runtime = g_runtime.load(std::memory_order_acquire);
  if (__builtin_expect(runtime == 0, 0)) runtime = DecideRuntime();
  return runtime == 2 && !OmptTool();
}

void Boundary() {
  tls_after_single = false;
  if (tls_single_open) {
    tls_single_open = false;
    Leave(g_single);
  }
}

void SingleStarted(bool executor) {
  if (executor) {
    Enter(g_single);
    tls_single_open = true;
  }
  tls_after_single = true;
}

bool TakeAfterSingle() {
  const bool after = tls_after_single;
  tls_after_single = false;
  return after;
}

Loop SignedLoop(long start, long incr) {
  Loop l;
  l.start = static_cast<uint64_t>(start);
  l.incr = static_cast<uint64_t>(incr);
  l.up = incr > 0;
  return l;
}

Loop UnsignedLoop(bool up, unsigned long long start, unsigned long long incr) {
  Loop l;
  l.start = start;
  l.incr = incr;
  l.up = up;
  return l;
}

void LoopBegin(const Loop& loop) {
  Enter(g_loop);
  tls_loop = loop;
  tls_loop.active = loop.incr != 0;
}

void LoopChunk(uint64_t istart, uint64_t iend) {
  if (!tls_loop.active) return;
  // iend is the loop's own end for the last chunk, not on the incr grid.
  const Loop& l = tls_loop;
  const uint64_t step = l.up ? l.incr : 0 - l.incr;
  const uint64_t span = l.up ? iend - istart : istart - iend;
  if (span == 0) return;
  const uint64_t first = Logical(l, istart);
  Enter(g_chunk);
  Chunk(static_cast<int64_t>(first), static_cast<int64_t>(first + (span - 1) / step));
}

void LoopNext() {
  Leave(g_chunk);
}

void LoopEnd() {
  Leave(g_loop);
  tls_loop.active = false;
}

void RegionBody(void* region) {
  const Region& r = *static_cast<const Region*>(region);
  // A nested region's loop and single must not replace the outer ones.
  const Loop outer = tls_loop;
  const bool outer_single = tls_single_open, outer_after_single = tls_after_single;
  tls_loop.active = false;
  tls_single_open = tls_after_single = false;
  Enter(g_implicit);
  const int num = ThreadNum();
  Instant(g_thread_num, num);
  if (r.work == &g_loop)
    LoopBegin(r.loop);
  else if (r.work != nullptr)
    Enter(*r.work);
  r.fn(r.data);
  Boundary();
  tls_loop = outer;
  tls_single_open = outer_single;
  tls_after_single = outer_after_single;
  if (num == 0)  // the starting thread: RegionEnd closes both
    Enter(g_implicit_barrier);
  else
    Leave(g_implicit);
}

void RegionBegin() {
  Enter(g_parallel);
}

void RegionEnd() {
  Leave(g_parallel);
}

Wait WaitBegin() {
  return {Now(), NowNs()};
}

void WaitEnd(Def& state, const Wait& since) {
  if (NowNs() - since.ns >= kWaitNs) EnterLeaveSince(state, since.tick);
}

}  // namespace plx::omp::gomp

namespace gomp = plx::omp::gomp;
using plx::omp::Real;

#pragma GCC visibility push(default)
extern "C" {

void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags) {
  PLX_DECLARE_REAL(GOMP_parallel);
  if (!gomp::On()) return PLX_REAL(GOMP_parallel)(fn, data, num_threads, flags);
  gomp::Region region{nullptr, fn, data, nullptr, {}};
  gomp::RegionBegin();
  PLX_REAL(GOMP_parallel)(&gomp::RegionBody, &region, num_threads, flags);
  gomp::RegionEnd();
}

unsigned GOMP_parallel_reductions(void (*fn)(void*), void* data, unsigned num_threads,
                                  unsigned flags) {
  PLX_DECLARE_REAL(GOMP_parallel_reductions);
  if (!gomp::On()) return PLX_REAL(GOMP_parallel_reductions)(fn, data, num_threads, flags);
  gomp::Region region{*static_cast<void**>(data), fn, data, nullptr, {}};
  gomp::RegionBegin();
  const unsigned n =
      PLX_REAL(GOMP_parallel_reductions)(&gomp::RegionBody, &region, num_threads, flags);
  gomp::RegionEnd();
  return n;
}

void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned num_threads, unsigned count,
                            unsigned flags) {
  PLX_DECLARE_REAL(GOMP_parallel_sections);
  if (!gomp::On()) return PLX_REAL(GOMP_parallel_sections)(fn, data, num_threads, count, flags);
  gomp::Region region{nullptr, fn, data, &plx::omp::g_sections, {}};
  gomp::RegionBegin();
  PLX_REAL(GOMP_parallel_sections)(&gomp::RegionBody, &region, num_threads, count, flags);
  gomp::RegionEnd();
}

}  // extern "C"
#pragma GCC visibility pop
