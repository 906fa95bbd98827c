// The real pthread and semaphore functions the wrappers forward to: found with
// dlsym(RTLD_NEXT) (so another interposer below us still sees every call),
// with glibc's own exported aliases as the bootstrap value of the mutex and
// rwlock entries, so a lock taken while dlsym itself runs never recurses.
#pragma once

#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include <atomic>

namespace plx::threads {

struct RealFunctions {
  /// The bootstrap values (glibc's own aliases, or null); every other entry
  /// starts null and is resolved on first use. constexpr: set before any
  /// constructor of the program runs.
  using MutexFn = int (*)(pthread_mutex_t*);
  using RwlockFn = int (*)(pthread_rwlock_t*);
  constexpr RealFunctions(MutexFn lock, MutexFn trylock, RwlockFn rdlock, RwlockFn tryrdlock,
                          RwlockFn wrlock, RwlockFn trywrlock)
      : mutex_lock{lock},
        mutex_trylock{trylock},
        rwlock_rdlock{rdlock},
        rwlock_tryrdlock{tryrdlock},
        rwlock_wrlock{wrlock},
        rwlock_trywrlock{trywrlock} {}

  std::atomic<int (*)(pthread_mutex_t*)> mutex_lock{nullptr};
  std::atomic<int (*)(pthread_mutex_t*)> mutex_trylock{nullptr};
  std::atomic<int (*)(pthread_mutex_t*, const struct timespec*)> mutex_timedlock{nullptr};
  std::atomic<int (*)(pthread_mutex_t*, clockid_t, const struct timespec*)> mutex_clocklock{
      nullptr};
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_rdlock{nullptr};
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_tryrdlock{nullptr};
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_wrlock{nullptr};
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_trywrlock{nullptr};
  std::atomic<int (*)(pthread_rwlock_t*, const struct timespec*)> rwlock_timedrdlock{nullptr};
  std::atomic<int (*)(pthread_rwlock_t*, const struct timespec*)> rwlock_timedwrlock{nullptr};
  std::atomic<int (*)(pthread_rwlock_t*, clockid_t, const struct timespec*)> rwlock_clockrdlock{
      nullptr};
  std::atomic<int (*)(pthread_rwlock_t*, clockid_t, const struct timespec*)> rwlock_clockwrlock{
      nullptr};
  std::atomic<int (*)(pthread_cond_t*, pthread_mutex_t*)> cond_wait{nullptr};
  std::atomic<int (*)(pthread_cond_t*, pthread_mutex_t*, const struct timespec*)> cond_timedwait{
      nullptr};
  std::atomic<int (*)(pthread_cond_t*, pthread_mutex_t*, clockid_t, const struct timespec*)>
      cond_clockwait{nullptr};
  std::atomic<int (*)(pthread_barrier_t*)> barrier_wait{nullptr};
  std::atomic<int (*)(sem_t*)> sem_wait{nullptr};
  std::atomic<int (*)(sem_t*)> sem_trywait{nullptr};
  std::atomic<int (*)(sem_t*, const struct timespec*)> sem_timedwait{nullptr};
  std::atomic<int (*)(sem_t*, clockid_t, const struct timespec*)> sem_clockwait{nullptr};
  std::atomic<int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)> create{nullptr};
  std::atomic<int (*)(pthread_t, void**)> join{nullptr};
  std::atomic<void (*)(void*)> exit{nullptr};
  std::atomic<int (*)(pthread_t, const char*)> setname_np{nullptr};
};

extern RealFunctions g_real;

/// Looks every function up once (idempotent; a call made while this thread
/// is already resolving returns at once and the bootstrap values stay).
void ResolveReal();

/// The real function behind `f`, resolving on first use; null only when the
/// C library has no such function.
template <typename F>
inline F Real(std::atomic<F>& f) {
  F p = f.load(std::memory_order_relaxed);
  if (__builtin_expect(p == nullptr, 0)) {
    ResolveReal();
    p = f.load(std::memory_order_relaxed);
  }
  return p;
}

}  // namespace plx::threads
