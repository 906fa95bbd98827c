// Thread creation, joining, exit and naming. A created thread starts in a
// small trampoline that dates it (its thread_begin is the start, whenever it
// first records) and makes sure it has a stream when it ends, so every thread
// the program made is in the trace under the name it had by then.
//
// Recorded sequence: creator: enter(pthread_create), the real call, leave;
// new thread: thread_begin (dated to its start), its records, thread_end;
// joiner: enter(pthread_join) .. leave; pthread_exit: instant pthread_exit
// with the exit value. Threads of the runtime (created inside it, its
// std::threads, threads naming themselves plx-*) record nothing, and neither
// their creation nor joins of them are recorded.
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

#include <cstdlib>
#include <cstring>

#include "threads/real.h"
#include "threads/record.h"

namespace plx::threads {
namespace {

SyncState g_create{"pthread_create", {}};
SyncState g_join{"pthread_join", {}};

struct Start {
  void* (*routine)(void*);
  void* arg;
  bool internal;
};

void* ThreadMain(void* p) {
  const Start start = *static_cast<Start*>(p);
  std::free(p);
  ThreadStarted(start.internal);
  void* value = start.routine(start.arg);
  if (!start.internal) ThreadEnding();
  return value;
}

// The runtime's own std::thread (its writer, started by MPI_Init or a plx_*
// call, outside any wrapper): libstdc++ starts every std::thread with its own
// routine and a polymorphic state object whose vtable, for a thread the
// runtime made, lies in this library. Only looked at for libstdc++'s routine.
bool RuntimeStdThread(void* (*routine)(void*), void* arg) {
  Dl_info r, self, state;
  if (arg == nullptr || ::dladdr(reinterpret_cast<void*>(routine), &r) == 0 ||
      r.dli_fname == nullptr || std::strstr(r.dli_fname, "libstdc++") == nullptr)
    return false;
  void* vtable = *static_cast<void**>(arg);
  return ::dladdr(reinterpret_cast<void*>(&RuntimeStdThread), &self) != 0 &&
         ::dladdr(vtable, &state) != 0 && state.dli_fbase == self.dli_fbase;
}

}  // namespace
}  // namespace plx::threads

using plx::threads::Blocking;
using plx::threads::g_real;
using plx::threads::Real;

#define PLX_CALLER __builtin_return_address(0)

#pragma GCC visibility push(default)
extern "C" {

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*routine)(void*),
                   void* arg) noexcept {
  auto create = Real(g_real.create);
  if (create == nullptr) return EAGAIN;
  const void* caller = PLX_CALLER;
  auto* start = static_cast<plx::threads::Start*>(std::malloc(sizeof(plx::threads::Start)));
  if (start == nullptr) return create(thread, attr, routine, arg);
  const bool internal =
      plx::threads::Bypassed(caller) || plx::threads::RuntimeStdThread(routine, arg);
  *start = {routine, arg, internal};
  int rc;
  if (internal) {
    rc = create(thread, attr, plx::threads::ThreadMain, start);
  } else {
    Blocking b(plx::threads::g_create, caller);
    rc = create(thread, attr, plx::threads::ThreadMain, start);
  }
  if (rc != 0) std::free(start);
  return rc;
}

int pthread_join(pthread_t thread, void** value) {
  auto join = Real(g_real.join);
  if (join == nullptr) return ESRCH;
  if (plx::threads::IsInternalThread(thread)) return join(thread, value);
  Blocking b(plx::threads::g_join, PLX_CALLER);
  return join(thread, value);
}

void pthread_exit(void* value) {
  plx::threads::RecordExit(value, PLX_CALLER);
  plx::threads::ThreadEnding();
  auto exit = Real(g_real.exit);
  if (exit != nullptr) exit(value);
  std::abort();  // no pthread_exit below us: cannot end only this thread
}

int pthread_setname_np(pthread_t thread, const char* name) noexcept {
  auto setname = Real(g_real.setname_np);
  if (setname == nullptr) return ENOSYS;
  const int rc = setname(thread, name);
  if (rc == 0 && ::pthread_equal(thread, ::pthread_self())) plx::threads::ThreadNamed(name);
  return rc;
}

}  // extern "C"
#pragma GCC visibility pop
