// Condition variables and barriers: every wait is a state (waiting is their
// purpose, there is nothing uncontended to skip).
//
// Recorded sequence: enter(pthread_cond_wait | pthread_barrier_wait), the real
// call, leave. pthread_cond_timedwait and pthread_cond_clockwait (what C++
// std::condition_variable::wait_for uses) record state pthread_cond_wait too.
#include <errno.h>
#include <pthread.h>

#include "threads/real.h"
#include "threads/record.h"

namespace plx::threads {
namespace {
SyncState g_cond{"pthread_cond_wait", {}};
SyncState g_barrier{"pthread_barrier_wait", {}};
}  // namespace
}  // namespace plx::threads

using plx::threads::Blocking;
using plx::threads::g_real;
using plx::threads::Real;

#define PLX_CALLER __builtin_return_address(0)

#pragma GCC visibility push(default)
extern "C" {

int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  auto wait = Real(g_real.cond_wait);
  if (wait == nullptr) return ENOSYS;
  Blocking b(plx::threads::g_cond, PLX_CALLER);
  return wait(c, m);
}

int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m, const struct timespec* t) {
  auto wait = Real(g_real.cond_timedwait);
  if (wait == nullptr) return ENOSYS;
  Blocking b(plx::threads::g_cond, PLX_CALLER);
  return wait(c, m, t);
}

int pthread_cond_clockwait(pthread_cond_t* c, pthread_mutex_t* m, clockid_t clock,
                           const struct timespec* t) {
  auto wait = Real(g_real.cond_clockwait);
  if (wait == nullptr) return ENOSYS;
  Blocking b(plx::threads::g_cond, PLX_CALLER);
  return wait(c, m, clock, t);
}

int pthread_barrier_wait(pthread_barrier_t* barrier) {
  auto wait = Real(g_real.barrier_wait);
  if (wait == nullptr) return ENOSYS;
  Blocking b(plx::threads::g_barrier, PLX_CALLER);
  return wait(barrier);
}

}  // extern "C"
#pragma GCC visibility pop
