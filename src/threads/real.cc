// Finding the real functions: dlsym(RTLD_NEXT), and dlvsym for the condition
// variable functions, whose plain dlsym lookup on x86-64 glibc can return the
// GLIBC_2.2.5 compatibility versions (the old condvar layout). Elsewhere than
// x86-64 glibc the hot entries start null and are resolved on first use.
#include "threads/real.h"

#include <dlfcn.h>

#include "capture/fast_path.h"

// glibc's own names for the lock functions (compatibility symbols, so bound
// by version): the bootstrap values, in use until dlsym has answered and
// whenever a lock is taken while dlsym runs (a malloc that locks).
#if defined(__x86_64__) && defined(__GLIBC__)
#define PLX_GLIBC_ALIAS(ret, name, alias, ...) \
  extern "C" ret name(__VA_ARGS__);            \
  __asm__(".symver " #name "," #alias "@GLIBC_2.2.5");
PLX_GLIBC_ALIAS(int, plx_glibc_mutex_lock, __pthread_mutex_lock, pthread_mutex_t*)
PLX_GLIBC_ALIAS(int, plx_glibc_mutex_trylock, __pthread_mutex_trylock, pthread_mutex_t*)
PLX_GLIBC_ALIAS(int, plx_glibc_rwlock_rdlock, __pthread_rwlock_rdlock, pthread_rwlock_t*)
PLX_GLIBC_ALIAS(int, plx_glibc_rwlock_tryrdlock, __pthread_rwlock_tryrdlock, pthread_rwlock_t*)
PLX_GLIBC_ALIAS(int, plx_glibc_rwlock_wrlock, __pthread_rwlock_wrlock, pthread_rwlock_t*)
PLX_GLIBC_ALIAS(int, plx_glibc_rwlock_trywrlock, __pthread_rwlock_trywrlock, pthread_rwlock_t*)
#define PLX_BOOT(name) &plx_glibc_##name
#else
#define PLX_BOOT(name) nullptr
#endif

namespace plx::threads {

constinit RealFunctions g_real(PLX_BOOT(mutex_lock), PLX_BOOT(mutex_trylock),
                               PLX_BOOT(rwlock_rdlock), PLX_BOOT(rwlock_tryrdlock),
                               PLX_BOOT(rwlock_wrlock), PLX_BOOT(rwlock_trywrlock));

namespace {

std::atomic<bool> g_resolved{false};
thread_local bool tls_resolving PLX_TLS = false;

void* Lookup(const char* name, const char* version) {
  void* p = version != nullptr ? ::dlvsym(RTLD_NEXT, name, version) : nullptr;
  if (p == nullptr) p = ::dlsym(RTLD_NEXT, name);
  // Our own wrapper (possible when the library is both linked and preloaded)
  // would recurse forever: keep the bootstrap value instead.
  Dl_info mine, found;
  if (p != nullptr && ::dladdr(reinterpret_cast<void*>(&ResolveReal), &mine) != 0 &&
      ::dladdr(p, &found) != 0 && mine.dli_fbase == found.dli_fbase)
    return nullptr;
  return p;
}

template <typename F>
void Set(std::atomic<F>& slot, const char* name, const char* version = nullptr) {
  if (void* p = Lookup(name, version))
    slot.store(reinterpret_cast<F>(p), std::memory_order_relaxed);
}

}  // namespace

void ResolveReal() {
  if (g_resolved.load(std::memory_order_acquire) || tls_resolving) return;
  tls_resolving = true;
  Set(g_real.mutex_lock, "pthread_mutex_lock");
  Set(g_real.mutex_trylock, "pthread_mutex_trylock");
  Set(g_real.mutex_timedlock, "pthread_mutex_timedlock");
  Set(g_real.mutex_clocklock, "pthread_mutex_clocklock");
  Set(g_real.rwlock_rdlock, "pthread_rwlock_rdlock");
  Set(g_real.rwlock_tryrdlock, "pthread_rwlock_tryrdlock");
  Set(g_real.rwlock_wrlock, "pthread_rwlock_wrlock");
  Set(g_real.rwlock_trywrlock, "pthread_rwlock_trywrlock");
  Set(g_real.rwlock_timedrdlock, "pthread_rwlock_timedrdlock");
  Set(g_real.rwlock_timedwrlock, "pthread_rwlock_timedwrlock");
  Set(g_real.rwlock_clockrdlock, "pthread_rwlock_clockrdlock");
  Set(g_real.rwlock_clockwrlock, "pthread_rwlock_clockwrlock");
  Set(g_real.cond_wait, "pthread_cond_wait", "GLIBC_2.3.2");
  Set(g_real.cond_timedwait, "pthread_cond_timedwait", "GLIBC_2.3.2");
  Set(g_real.cond_clockwait, "pthread_cond_clockwait");
  Set(g_real.barrier_wait, "pthread_barrier_wait");
  Set(g_real.sem_wait, "sem_wait");
  Set(g_real.sem_trywait, "sem_trywait");
  Set(g_real.sem_timedwait, "sem_timedwait");
  Set(g_real.sem_clockwait, "sem_clockwait");
  Set(g_real.create, "pthread_create");
  Set(g_real.join, "pthread_join");
  Set(g_real.exit, "pthread_exit");
  Set(g_real.setname_np, "pthread_setname_np");
  tls_resolving = false;
  g_resolved.store(true, std::memory_order_release);
}

}  // namespace plx::threads
