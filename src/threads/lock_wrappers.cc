// Mutexes, rwlocks and semaphores: the try-variant first; only when it finds
// the lock busy is the blocking call made, as a state (contention only). An
// uncontended acquisition costs one extra indirect call and records nothing.
//
// Recorded sequence, contended only: enter(pthread_mutex_lock |
// pthread_rwlock_rdlock | pthread_rwlock_wrlock | sem_wait), the real blocking
// call, leave. The timed and clock variants (pthread_mutex_timedlock,
// pthread_mutex_clocklock, pthread_rwlock_{timed,clock}{rd,wr}lock,
// sem_timedwait, sem_clockwait) record the same state as their plain call.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include "threads/real.h"
#include "threads/record.h"

namespace plx::threads {
namespace {
SyncState g_mutex{"pthread_mutex_lock", {}};
SyncState g_rdlock{"pthread_rwlock_rdlock", {}};
SyncState g_wrlock{"pthread_rwlock_wrlock", {}};
SyncState g_sem{"sem_wait", {}};

// A pthread lock: `trylock` first; only when it finds the lock busy, the
// blocking `lock(l, args...)` as `state`. `caller` is the wrapper's caller.
template <typename L, typename Try, typename Lock, typename... Args>
inline int Contended(SyncState& state, const void* caller, Try trylock, Lock lock, L* l,
                     Args... args) {
  if (__builtin_expect(trylock == nullptr, 0)) return EAGAIN;  // only while dlsym runs, off x86-64
  const int rc = trylock(l);
  if (__builtin_expect(rc != EBUSY, 1)) return rc;
  if (lock == nullptr) return ENOSYS;
  Blocking b(state, caller);
  return lock(l, args...);
}

// A semaphore: `sem_trywait` first; only when the count is 0, the blocking
// `wait(s, args...)` as state sem_wait (errno as the calls leave it).
template <typename Wait, typename... Args>
inline int SemContended(const void* caller, Wait wait, sem_t* s, Args... args) {
  auto trywait = Real(g_real.sem_trywait);
  if (trywait == nullptr || wait == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  const int saved = errno;
  if (trywait(s) == 0) return 0;
  if (errno != EAGAIN) return -1;
  errno = saved;
  Blocking b(g_sem, caller);
  return wait(s, args...);
}
}  // namespace
}  // namespace plx::threads

using plx::threads::Contended;
using plx::threads::g_real;
using plx::threads::Real;
using plx::threads::SemContended;

#define PLX_CALLER __builtin_return_address(0)

#pragma GCC visibility push(default)
extern "C" {

int pthread_mutex_lock(pthread_mutex_t* m) {
  return Contended(plx::threads::g_mutex, PLX_CALLER, Real(g_real.mutex_trylock),
                   Real(g_real.mutex_lock), m);
}

int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* abstime) {
  return Contended(plx::threads::g_mutex, PLX_CALLER, Real(g_real.mutex_trylock),
                   Real(g_real.mutex_timedlock), m, abstime);
}

int pthread_mutex_clocklock(pthread_mutex_t* m, clockid_t clock, const struct timespec* abstime) {
  return Contended(plx::threads::g_mutex, PLX_CALLER, Real(g_real.mutex_trylock),
                   Real(g_real.mutex_clocklock), m, clock, abstime);
}

int pthread_rwlock_rdlock(pthread_rwlock_t* l) {
  return Contended(plx::threads::g_rdlock, PLX_CALLER, Real(g_real.rwlock_tryrdlock),
                   Real(g_real.rwlock_rdlock), l);
}

int pthread_rwlock_wrlock(pthread_rwlock_t* l) {
  return Contended(plx::threads::g_wrlock, PLX_CALLER, Real(g_real.rwlock_trywrlock),
                   Real(g_real.rwlock_wrlock), l);
}

int pthread_rwlock_timedrdlock(pthread_rwlock_t* l, const struct timespec* abstime) {
  return Contended(plx::threads::g_rdlock, PLX_CALLER, Real(g_real.rwlock_tryrdlock),
                   Real(g_real.rwlock_timedrdlock), l, abstime);
}

int pthread_rwlock_timedwrlock(pthread_rwlock_t* l, const struct timespec* abstime) {
  return Contended(plx::threads::g_wrlock, PLX_CALLER, Real(g_real.rwlock_trywrlock),
                   Real(g_real.rwlock_timedwrlock), l, abstime);
}

int pthread_rwlock_clockrdlock(pthread_rwlock_t* l, clockid_t clock,
                               const struct timespec* abstime) {
  return Contended(plx::threads::g_rdlock, PLX_CALLER, Real(g_real.rwlock_tryrdlock),
                   Real(g_real.rwlock_clockrdlock), l, clock, abstime);
}

int pthread_rwlock_clockwrlock(pthread_rwlock_t* l, clockid_t clock,
                               const struct timespec* abstime) {
  return Contended(plx::threads::g_wrlock, PLX_CALLER, Real(g_real.rwlock_trywrlock),
                   Real(g_real.rwlock_clockwrlock), l, clock, abstime);
}

int sem_wait(sem_t* s) {
  return SemContended(PLX_CALLER, Real(g_real.sem_wait), s);
}

int sem_timedwait(sem_t* s, const struct timespec* abstime) {
  return SemContended(PLX_CALLER, Real(g_real.sem_timedwait), s, abstime);
}

int sem_clockwait(sem_t* s, clockid_t clock, const struct timespec* abstime) {
  return SemContended(PLX_CALLER, Real(g_real.sem_clockwait), s, clock, abstime);
}

}  // extern "C"
#pragma GCC visibility pop
