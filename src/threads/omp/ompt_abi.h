// The part of the OMPT tool interface (OpenMP 5.x, "OMPT Interface Type
// Definitions") this tool uses, declared here so the library builds with any
// compiler; the values and signatures are the standard's ABI.
#pragma once

#include <cstdint>

extern "C" {

union ompt_data_t {
  uint64_t value;
  void* ptr;
};
struct ompt_frame_t;

using ompt_callback_t = void (*)();
using ompt_interface_fn_t = void (*)();
using ompt_function_lookup_t = ompt_interface_fn_t (*)(const char* interface_function_name);
using ompt_set_callback_t = int (*)(int event, ompt_callback_t callback);
using ompt_initialize_t = int (*)(ompt_function_lookup_t lookup, int initial_device_num,
                                  ompt_data_t* tool_data);
using ompt_finalize_t = void (*)(ompt_data_t* tool_data);

struct ompt_start_tool_result_t {
  ompt_initialize_t initialize;
  ompt_finalize_t finalize;
  ompt_data_t tool_data;
};

}  // extern "C"

namespace plx::omp {

// ompt_callbacks_t
enum OmptCallback : int {
  kCbParallelBegin = 3,
  kCbParallelEnd = 4,
  kCbTaskCreate = 5,
  kCbTaskSchedule = 6,
  kCbImplicitTask = 7,
  kCbSyncRegionWait = 16,
  kCbWork = 20,
  kCbMutexAcquire = 26,
  kCbMutexAcquired = 27,
};
inline constexpr int kScopeBegin = 1, kScopeEnd = 2;  // ompt_scope_endpoint_t

// ompt_work_t
enum OmptWork : int {
  kWorkLoop = 1,
  kWorkSections = 2,
  kWorkSingleExecutor = 3,
  kWorkSingleOther = 4,
  kWorkWorkshare = 5,
  kWorkDistribute = 6,
  kWorkTaskloop = 7,
  kWorkScope = 8,
};

// ompt_sync_region_t
enum OmptSync : int {
  kSyncBarrier = 1,  // deprecated in 5.1: an implicit or explicit barrier
  kSyncBarrierImplicit = 2,
  kSyncBarrierExplicit = 3,
  kSyncBarrierImplementation = 4,
  kSyncTaskwait = 5,
  kSyncTaskgroup = 6,
  kSyncReduction = 7,
  kSyncBarrierImplicitWorkshare = 8,
  kSyncBarrierImplicitParallel = 9,
  kSyncBarrierTeams = 10,
};

// ompt_mutex_t
enum OmptMutex : int {
  kMutexLock = 1,
  kMutexTestLock = 2,
  kMutexNestLock = 3,
  kMutexTestNestLock = 4,
  kMutexCritical = 5,
  kMutexAtomic = 6,
  kMutexOrdered = 7,
};

inline constexpr int kTaskInitial = 1, kTaskExplicit = 4;  // ompt_task_flag_t bits
// ompt_task_status_t values that end the prior task.
inline constexpr int kTaskComplete = 1, kTaskCancel = 3, kTaskDetach = 4, kTaskLateFulfill = 6;

}  // namespace plx::omp
