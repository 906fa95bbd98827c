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
  std::atomic<int (*)(pthread_mutex_t*)> mutex_lock;
  std::atomic<int (*)(pthread_mutex_t*)> mutex_trylock;
  std::atomic<int (*)(pthread_mutex_t*, const struct timespec*)> mutex_timedlock;
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_rdlock;
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_tryrdlock;
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_wrlock;
  std::atomic<int (*)(pthread_rwlock_t*)> rwlock_trywrlock;
  std::atomic<int (*)(pthread_cond_t*, pthread_mutex_t*)> cond_wait;
  std::atomic<int (*)(pthread_cond_t*, pthread_mutex_t*, const struct timespec*)> cond_timedwait;
  std::atomic<int (*)(pthread_cond_t*, pthread_mutex_t*, clockid_t, const struct timespec*)>
      cond_clockwait;
  std::atomic<int (*)(pthread_barrier_t*)> barrier_wait;
  std::atomic<int (*)(sem_t*)> sem_wait;
  std::atomic<int (*)(sem_t*)> sem_trywait;
  std::atomic<int (*)(sem_t*, const struct timespec*)> sem_timedwait;
  std::atomic<int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)> create;
  std::atomic<int (*)(pthread_t, void**)> join;
  std::atomic<void (*)(void*)> exit;
  std::atomic<int (*)(pthread_t, const char*)> setname_np;
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
