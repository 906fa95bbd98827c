// GCC's libgomp: explicit tasks (docs/openmp.md). GOMP_task is given, in
// place of the program's outlined function and its argument block, TaskBody
// and a block on the creating thread's stack made of a TaskHead (the
// program's function, its copy function, its block and the task's id)
// followed by the program's block, aligned as it asked; libgomp copies the
// whole block with the task (or runs it at once), so no allocation is needed
// to know, when the task runs, which task it is. Records:
//   GOMP_task, on the creating thread:  instant omp task create (the id)
//   the task, on the thread that runs it: omp task { omp task begin (the
//     id), ... }
//   a task with detach: its creation only (libgomp writes the event handle
//     into the first word of its block, which must stay the program's)
//   GOMP_taskloop, on the encountering thread: omp taskloop { ... } (its
//     tasks are not recorded: libgomp writes each one's iterations into the
//     first words of its block, which must stay the program's)
#include <alloca.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "threads/omp/gomp.h"
#include "threads/omp/omp_states.h"
#include "threads/omp/real_fn.h"

namespace omp = plx::omp;
namespace gomp = plx::omp::gomp;
using plx::omp::Real;

namespace {

struct TaskHead {
  void (*fn)(void*);
  void (*cpyfn)(void*, void*);
  void* data;  // the program's block: read only while GOMP_task runs
  int64_t id;
  size_t offset;  // of the program's block from the head
};

std::atomic<int64_t> g_next_task{1};

constexpr unsigned kFlagDetach = 1u << 13;  // GOMP_TASK_FLAG_DETACH

void TaskBody(void* block) {
  const TaskHead& head = *static_cast<const TaskHead*>(block);
  omp::Enter(omp::g_task);
  omp::Instant(omp::g_task_begin, head.id);
  head.fn(static_cast<char*>(block) + head.offset);
  omp::Leave(omp::g_task);
}

// libgomp's copy of the block for a task with firstprivate objects that have
// copy constructors: the head as is, then the program's copy function.
void TaskCopy(void* to, void* from) {
  const TaskHead& head = *static_cast<const TaskHead*>(from);
  std::memcpy(to, &head, sizeof head);
  head.cpyfn(static_cast<char*>(to) + head.offset, head.data);
}

}  // namespace

#pragma GCC visibility push(default)
extern "C" {

void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void** depend, int priority,
               void* detach) {
  PLX_DECLARE_REAL(GOMP_task);
  if (!gomp::On())
    return PLX_REAL(GOMP_task)(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                               priority, detach);
  const int64_t id = g_next_task.fetch_add(1, std::memory_order_relaxed);
  omp::Instant(omp::g_task_create, id);
  if ((flags & kFlagDetach) != 0)
    return PLX_REAL(GOMP_task)(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                               priority, detach);
  size_t align = alignof(TaskHead);
  if (arg_align > 0 && static_cast<size_t>(arg_align) > align)
    align = static_cast<size_t>(arg_align);
  const size_t offset = (sizeof(TaskHead) + align - 1) / align * align;
  const size_t size = offset + static_cast<size_t>(arg_size > 0 ? arg_size : 0);
  // The block: on this stack, as libgomp does for undeferred tasks.
  const uintptr_t raw = reinterpret_cast<uintptr_t>(alloca(size + align - 1));
  char* block = reinterpret_cast<char*>((raw + align - 1) / align * align);
  TaskHead head{fn, cpyfn, data, id, offset};
  std::memcpy(block, &head, sizeof head);
  if (cpyfn == nullptr && arg_size > 0) std::memcpy(block + offset, data, size - offset);
  PLX_REAL(GOMP_task)
  (&TaskBody, block, cpyfn != nullptr ? &TaskCopy : nullptr, static_cast<long>(size),
   static_cast<long>(align), if_clause, flags, depend, priority, detach);
}

void GOMP_taskloop(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                   long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                   long start, long end, long step) {
  PLX_DECLARE_REAL(GOMP_taskloop);
  if (!gomp::On())
    return PLX_REAL(GOMP_taskloop)(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority,
                                   start, end, step);
  omp::Enter(omp::g_taskloop);
  PLX_REAL(GOMP_taskloop)
  (fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end, step);
  omp::Leave(omp::g_taskloop);
}

void GOMP_taskloop_ull(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                       long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                       unsigned long long start, unsigned long long end, unsigned long long step) {
  PLX_DECLARE_REAL(GOMP_taskloop_ull);
  if (!gomp::On())
    return PLX_REAL(GOMP_taskloop_ull)(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
                                       priority, start, end, step);
  omp::Enter(omp::g_taskloop);
  PLX_REAL(GOMP_taskloop_ull)
  (fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end, step);
  omp::Leave(omp::g_taskloop);
}

}  // extern "C"
#pragma GCC visibility pop
