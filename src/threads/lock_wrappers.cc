// Mutexes, rwlocks and semaphores: the try-variant first; only when it finds
// the lock busy is the blocking call made, as a state (contention only). An
// uncontended acquisition costs one extra indirect call and records nothing.
//
// Recorded sequence, contended only: enter(pthread_mutex_lock |
// pthread_rwlock_rdlock | pthread_rwlock_wrlock | sem_wait), the real blocking
// call, leave. The timed variants record the same state.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include "threads/real.h"
#include "threads/record.h"

namespace plx::threads {
namespace {
SyncState g_mutex{"pthread_mutex_lock", 0xd62728, {}};
SyncState g_rdlock{"pthread_rwlock_rdlock", 0xe377c2, {}};
SyncState g_wrlock{"pthread_rwlock_wrlock", 0x9467bd, {}};
SyncState g_sem{"sem_wait", 0x8c564b, {}};
}  // namespace
}  // namespace plx::threads

using plx::threads::Blocking;
using plx::threads::g_real;
using plx::threads::Real;

#define PLX_CALLER __builtin_return_address(0)

#pragma GCC visibility push(default)
extern "C" {

int pthread_mutex_lock(pthread_mutex_t* m) {
  auto trylock = Real(g_real.mutex_trylock);
  if (__builtin_expect(trylock == nullptr, 0)) return EAGAIN;  // only while dlsym runs, off x86-64
  const int rc = trylock(m);
  if (__builtin_expect(rc != EBUSY, 1)) return rc;
  auto lock = Real(g_real.mutex_lock);
  Blocking b(plx::threads::g_mutex, PLX_CALLER);
  return lock(m);
}

int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* abstime) {
  auto trylock = Real(g_real.mutex_trylock);
  if (trylock == nullptr) return EAGAIN;
  const int rc = trylock(m);
  if (rc != EBUSY) return rc;
  auto timed = Real(g_real.mutex_timedlock);
  if (timed == nullptr) return ENOSYS;
  Blocking b(plx::threads::g_mutex, PLX_CALLER);
  return timed(m, abstime);
}

int pthread_rwlock_rdlock(pthread_rwlock_t* l) {
  auto trylock = Real(g_real.rwlock_tryrdlock);
  if (__builtin_expect(trylock == nullptr, 0)) return EAGAIN;
  const int rc = trylock(l);
  if (__builtin_expect(rc != EBUSY, 1)) return rc;
  auto lock = Real(g_real.rwlock_rdlock);
  Blocking b(plx::threads::g_rdlock, PLX_CALLER);
  return lock(l);
}

int pthread_rwlock_wrlock(pthread_rwlock_t* l) {
  auto trylock = Real(g_real.rwlock_trywrlock);
  if (__builtin_expect(trylock == nullptr, 0)) return EAGAIN;
  const int rc = trylock(l);
  if (__builtin_expect(rc != EBUSY, 1)) return rc;
  auto lock = Real(g_real.rwlock_wrlock);
  Blocking b(plx::threads::g_wrlock, PLX_CALLER);
  return lock(l);
}

int sem_wait(sem_t* s) {
  auto trywait = Real(g_real.sem_trywait);
  auto wait = Real(g_real.sem_wait);
  if (trywait == nullptr || wait == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  const int saved = errno;
  if (trywait(s) == 0) return 0;
  if (errno != EAGAIN) return -1;
  errno = saved;
  Blocking b(plx::threads::g_sem, PLX_CALLER);
  return wait(s);
}

int sem_timedwait(sem_t* s, const struct timespec* abstime) {
  auto trywait = Real(g_real.sem_trywait);
  auto timed = Real(g_real.sem_timedwait);
  if (trywait == nullptr || timed == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  const int saved = errno;
  if (trywait(s) == 0) return 0;
  if (errno != EAGAIN) return -1;
  errno = saved;
  Blocking b(plx::threads::g_sem, PLX_CALLER);
  return timed(s, abstime);
}

}  // extern "C"
#pragma GCC visibility pop
