// GCC's libgomp: barriers, single, sections, critical sections, locks,
// ordered, taskwait and taskgroup (docs/openmp.md). Records on the calling
// thread:
//   GOMP_barrier          omp barrier { the wait }, or omp implicit barrier
//                         when it follows a single's start (gcc ends a
//                         single with GOMP_barrier)
//   GOMP_single_start     omp single { on the thread that runs it, until
//                         its next barrier or worksharing construct }
//   GOMP_sections_start   omp sections { ... } at GOMP_sections_end*,
//                         then omp implicit barrier { the wait }
//   GOMP_critical_*start, GOMP_ordered_start, omp_set_lock,
//   omp_set_nest_lock     omp critical / omp ordered / omp_set_lock
//                         { dated from the call } when it waited 5 us or more
//   GOMP_taskwait*        omp taskwait { the wait, tasks run meanwhile }
//   GOMP_taskgroup_end    omp taskgroup { the wait }
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "threads/omp/gomp.h"
#include "threads/omp/omp_states.h"
#include "threads/omp/real_fn.h"

namespace gomp = plx::omp::gomp;
namespace omp = plx::omp;
using plx::omp::Real;

namespace {

// A wait for the whole of the runtime's call.
template <typename F, typename... A>
auto During(omp::Def& state, F real, A... args) {
  omp::Enter(state);
  if constexpr (std::is_void_v<decltype(real(args...))>) {
    real(args...);
    omp::Leave(state);
  } else {
    const auto result = real(args...);
    omp::Leave(state);
    return result;
  }
}

// An acquisition: recorded afterwards when it waited.
template <typename F, typename... A>
void Acquire(omp::Def& state, F real, A... args) {
  const gomp::Wait since = gomp::WaitBegin();
  real(args...);
  gomp::WaitEnd(state, since);
}

}  // namespace

#pragma GCC visibility push(default)
extern "C" {

void GOMP_barrier() {
  PLX_DECLARE_REAL(GOMP_barrier);
  if (!gomp::On()) return PLX_REAL(GOMP_barrier)();
  omp::Def& state = gomp::TakeAfterSingle() ? omp::g_implicit_barrier : omp::g_barrier;
  gomp::Boundary();
  During(state, PLX_REAL(GOMP_barrier));
}

bool GOMP_barrier_cancel() {
  PLX_DECLARE_REAL(GOMP_barrier_cancel);
  if (!gomp::On()) return PLX_REAL(GOMP_barrier_cancel)();
  omp::Def& state = gomp::TakeAfterSingle() ? omp::g_implicit_barrier : omp::g_barrier;
  gomp::Boundary();
  return During(state, PLX_REAL(GOMP_barrier_cancel));
}

bool GOMP_single_start() {
  PLX_DECLARE_REAL(GOMP_single_start);
  if (!gomp::On()) return PLX_REAL(GOMP_single_start)();
  gomp::Boundary();
  const bool executor = PLX_REAL(GOMP_single_start)();
  gomp::SingleStarted(executor);
  return executor;
}

// copyprivate: the thread that runs the single gets null, the others wait
// (a barrier) for its data.
void* GOMP_single_copy_start() {
  PLX_DECLARE_REAL(GOMP_single_copy_start);
  if (!gomp::On()) return PLX_REAL(GOMP_single_copy_start)();
  gomp::Boundary();
  const uint64_t since = omp::Now();
  void* data = PLX_REAL(GOMP_single_copy_start)();
  if (data != nullptr) omp::EnterLeaveSince(omp::g_implicit_barrier, since);
  gomp::SingleStarted(data == nullptr);
  return data;
}

void GOMP_single_copy_end(void* data) {
  PLX_DECLARE_REAL(GOMP_single_copy_end);
  if (!gomp::On()) return PLX_REAL(GOMP_single_copy_end)(data);
  gomp::Boundary();
  During(omp::g_implicit_barrier, PLX_REAL(GOMP_single_copy_end), data);
  gomp::SingleStarted(false);  // the GOMP_barrier after it is still the single's
}

unsigned GOMP_sections_start(unsigned count) {
  PLX_DECLARE_REAL(GOMP_sections_start);
  if (!gomp::On()) return PLX_REAL(GOMP_sections_start)(count);
  gomp::Boundary();
  omp::Enter(omp::g_sections);
  return PLX_REAL(GOMP_sections_start)(count);
}

unsigned GOMP_sections2_start(unsigned count, uintptr_t* reductions, void** mem) {
  PLX_DECLARE_REAL(GOMP_sections2_start);
  if (!gomp::On()) return PLX_REAL(GOMP_sections2_start)(count, reductions, mem);
  gomp::Boundary();
  omp::Enter(omp::g_sections);
  return PLX_REAL(GOMP_sections2_start)(count, reductions, mem);
}

void GOMP_sections_end() {
  PLX_DECLARE_REAL(GOMP_sections_end);
  if (!gomp::On()) return PLX_REAL(GOMP_sections_end)();
  gomp::Boundary();
  omp::Leave(omp::g_sections);
  During(omp::g_implicit_barrier, PLX_REAL(GOMP_sections_end));
}

bool GOMP_sections_end_cancel() {
  PLX_DECLARE_REAL(GOMP_sections_end_cancel);
  if (!gomp::On()) return PLX_REAL(GOMP_sections_end_cancel)();
  gomp::Boundary();
  omp::Leave(omp::g_sections);
  return During(omp::g_implicit_barrier, PLX_REAL(GOMP_sections_end_cancel));
}

void GOMP_sections_end_nowait() {
  PLX_DECLARE_REAL(GOMP_sections_end_nowait);
  if (gomp::On()) omp::Leave(omp::g_sections);
  PLX_REAL(GOMP_sections_end_nowait)();
}

void GOMP_critical_start() {
  PLX_DECLARE_REAL(GOMP_critical_start);
  if (!gomp::On()) return PLX_REAL(GOMP_critical_start)();
  Acquire(omp::g_critical, PLX_REAL(GOMP_critical_start));
}

void GOMP_critical_name_start(void** name) {
  PLX_DECLARE_REAL(GOMP_critical_name_start);
  if (!gomp::On()) return PLX_REAL(GOMP_critical_name_start)(name);
  Acquire(omp::g_critical, PLX_REAL(GOMP_critical_name_start), name);
}

void GOMP_ordered_start() {
  PLX_DECLARE_REAL(GOMP_ordered_start);
  if (!gomp::On()) return PLX_REAL(GOMP_ordered_start)();
  Acquire(omp::g_ordered, PLX_REAL(GOMP_ordered_start));
}

// omp_lock_t is opaque here: only its address is passed on. (libomp's own
// omp_set_lock comes here too, and goes straight through.)
void omp_set_lock(void* lock) {
  PLX_DECLARE_REAL(omp_set_lock);
  if (!gomp::On()) return PLX_REAL(omp_set_lock)(lock);
  Acquire(omp::g_lock, PLX_REAL(omp_set_lock), lock);
}

void omp_set_nest_lock(void* lock) {
  PLX_DECLARE_REAL(omp_set_nest_lock);
  if (!gomp::On()) return PLX_REAL(omp_set_nest_lock)(lock);
  Acquire(omp::g_lock, PLX_REAL(omp_set_nest_lock), lock);
}

void GOMP_taskwait() {
  PLX_DECLARE_REAL(GOMP_taskwait);
  if (!gomp::On()) return PLX_REAL(GOMP_taskwait)();
  During(omp::g_taskwait, PLX_REAL(GOMP_taskwait));
}

void GOMP_taskwait_depend(void** depend) {
  PLX_DECLARE_REAL(GOMP_taskwait_depend);
  if (!gomp::On()) return PLX_REAL(GOMP_taskwait_depend)(depend);
  During(omp::g_taskwait, PLX_REAL(GOMP_taskwait_depend), depend);
}

void GOMP_taskgroup_end() {
  PLX_DECLARE_REAL(GOMP_taskgroup_end);
  if (!gomp::On()) return PLX_REAL(GOMP_taskgroup_end)();
  During(omp::g_taskgroup, PLX_REAL(GOMP_taskgroup_end));
}

}  // extern "C"
#pragma GCC visibility pop
