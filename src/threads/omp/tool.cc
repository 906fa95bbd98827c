// The OMPT tool: ompt_start_tool (found by libomp in the preloaded library)
// registers callbacks that record parallel regions, implicit tasks,
// worksharing constructs, barrier/taskwait waits, explicit tasks and
// contended critical sections / locks (docs/openmp.md).
#include <cstdint>

#include "threads/omp/omp_record.h"
#include "threads/omp/omp_states.h"
#include "threads/omp/ompt_abi.h"

namespace plx::omp {
namespace {

thread_local uint64_t tls_acquire_tick __attribute__((tls_model("initial-exec"))) = 0;
thread_local uint64_t tls_acquire_ns __attribute__((tls_model("initial-exec"))) = 0;
std::atomic<uint64_t> g_next_task{1};

void ParallelBegin(ompt_data_t*, const ompt_frame_t*, ompt_data_t*, unsigned, int, const void*) {
  Enter(g_parallel);
}

void ParallelEnd(ompt_data_t*, ompt_data_t*, int, const void*) {
  Leave(g_parallel);
}

void ImplicitTask(int endpoint, ompt_data_t*, ompt_data_t*, unsigned, unsigned index, int flags) {
  if (flags & kTaskInitial) return;  // the initial task: the whole thread
  if (endpoint == kScopeBegin) {
    Enter(g_implicit);
    Instant(g_thread_num, index);
  } else if (endpoint == kScopeEnd) {
    Leave(g_implicit);
  }
}

Def* WorkState(int type) {
  switch (type) {
    case kWorkLoop:
      return &g_loop;
    case kWorkSections:
      return &g_sections;
    case kWorkSingleExecutor:
      return &g_single;
    case kWorkWorkshare:
      return &g_workshare;
    case kWorkDistribute:
      return &g_distribute;
    case kWorkTaskloop:
      return &g_taskloop;
    case kWorkScope:
      return &g_scope;
    default:
      return nullptr;  // single_other: the threads that skip it
  }
}

void Work(int type, int endpoint, ompt_data_t*, ompt_data_t*, uint64_t, const void*) {
  Def* state = WorkState(type);
  if (state == nullptr) return;
  if (endpoint == kScopeBegin)
    Enter(*state);
  else if (endpoint == kScopeEnd)
    Leave(*state);
}

Def& SyncState(int kind) {
  switch (kind) {
    case kSyncBarrierExplicit:
      return g_barrier;
    case kSyncTaskwait:
      return g_taskwait;
    case kSyncTaskgroup:
      return g_taskgroup;
    case kSyncReduction:
      return g_reduction;
    default:
      return g_implicit_barrier;  // implicit, implementation, teams barriers
  }
}

void SyncRegionWait(int kind, int endpoint, ompt_data_t*, ompt_data_t*, const void*) {
  Def& state = SyncState(kind);
  if (endpoint == kScopeBegin)
    Enter(state);
  else if (endpoint == kScopeEnd)
    Leave(state);
}

void TaskCreate(ompt_data_t*, const ompt_frame_t*, ompt_data_t* task, int flags, int, const void*) {
  if (!(flags & kTaskExplicit) || task == nullptr) return;
  task->value = g_next_task.fetch_add(1, std::memory_order_relaxed);
  Instant(g_task_create, static_cast<int64_t>(task->value));
}

// Explicit tasks carry the id TaskCreate gave them; implicit and initial tasks 0.
void TaskSchedule(ompt_data_t* prior, int prior_status, ompt_data_t* next) {
  const bool ends = prior_status == kTaskComplete || prior_status == kTaskCancel ||
                    prior_status == kTaskDetach || prior_status == kTaskLateFulfill;
  if (ends && prior != nullptr && prior->value != 0) Leave(g_task);
  // A task resumed after the one it waited for completed is still open.
  if (!ends && next != nullptr && next->value != 0) {
    Enter(g_task);
    Instant(g_task_begin, static_cast<int64_t>(next->value));
  }
}

Def* MutexState(int kind) {
  switch (kind) {
    case kMutexLock:
    case kMutexNestLock:
      return &g_lock;
    case kMutexCritical:
      return &g_critical;
    case kMutexOrdered:
      return &g_ordered;
    case kMutexTestLock:
    case kMutexTestNestLock:
      return nullptr;  // never waits
    default:
      return &g_mutex;
  }
}

void MutexAcquire(int kind, unsigned, unsigned, uint64_t, const void*) {
  if (MutexState(kind) == nullptr) return;
  tls_acquire_tick = Now();
  tls_acquire_ns = NowNs();
}

void MutexAcquired(int kind, uint64_t, const void*) {
  Def* state = MutexState(kind);
  if (state == nullptr || tls_acquire_tick == 0) return;
  const uint64_t since = tls_acquire_tick;
  tls_acquire_tick = 0;
  if (NowNs() - tls_acquire_ns >= kWaitNs) EnterLeaveSince(*state, since);
}

template <typename F>
void Register(ompt_set_callback_t set, int event, F* f) {
  set(event, reinterpret_cast<ompt_callback_t>(f));
}

int Initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (set == nullptr) return 0;
  NoteOmptTool();  // libgomp's wrappers (gomp.cc) pass through from now on
  Register(set, kCbParallelBegin, &ParallelBegin);
  Register(set, kCbParallelEnd, &ParallelEnd);
  Register(set, kCbImplicitTask, &ImplicitTask);
  Register(set, kCbWork, &Work);
  Register(set, kCbSyncRegionWait, &SyncRegionWait);
  Register(set, kCbTaskCreate, &TaskCreate);
  Register(set, kCbTaskSchedule, &TaskSchedule);
  Register(set, kCbMutexAcquire, &MutexAcquire);
  Register(set, kCbMutexAcquired, &MutexAcquired);
  return 1;  // keep the tool
}

void Finalize(ompt_data_t*) {}

}  // namespace
}  // namespace plx::omp

#pragma GCC visibility push(default)
/// Called by libomp at its initialization: the tool, or null (PLX_OPENMP=0,
/// PLX_TRACE=0) so libomp runs without one.
extern "C" ompt_start_tool_result_t* ompt_start_tool(unsigned int, const char*) {
  static ompt_start_tool_result_t result = {plx::omp::Initialize, plx::omp::Finalize, {0}};
  return plx::omp::Enabled() ? &result : nullptr;
}
#pragma GCC visibility pop
