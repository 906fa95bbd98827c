// Cost of the pthread interposition (src/threads) per lock/unlock pair, next
// to the C library's own functions in the same binary. The wrappers are called
// directly: libparallax-mpi.so is dlopen'ed (RTLD_LOCAL, so it interposes
// nothing here) and its pthread_mutex_lock is called through a pointer, as a
// program's PLT call would reach it when the library is preloaded.
//
// Uncontended: lock + unlock of a free mutex (the wrapper's trylock succeeds,
// nothing is recorded). Contended path: an error-checking mutex this thread
// already holds, so the trylock fails and the wrapper records its state
// around the real lock, which returns EDEADLK at once: the recording cost of
// one contended acquisition without the kernel's futex wait around it (the
// ring is flushed with the timer paused, like capture_bench's "burst").
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <pthread.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using LockFn = int (*)(pthread_mutex_t*);

LockFn g_real_lock = nullptr;     // the C library's
LockFn g_wrapped_lock = nullptr;  // libparallax-mpi.so's wrapper
void (*g_flush)() = nullptr;      // its plx_flush
// Contended acquisitions between ring flushes (timer paused): 2 slots each,
// well inside the 4 MiB ring (262,144 slots), as when the writer keeps up.
constexpr int64_t kFlushEvery = 50'000;

void Load() {
  g_real_lock = &pthread_mutex_lock;
  void* lib = ::dlopen(PLX_MPI_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "threads_bench: %s\n", ::dlerror());
    std::exit(1);
  }
  g_wrapped_lock = reinterpret_cast<LockFn>(::dlsym(lib, "pthread_mutex_lock"));
  g_flush = reinterpret_cast<void (*)()>(::dlsym(lib, "plx_flush"));
  if (g_wrapped_lock == nullptr || g_wrapped_lock == g_real_lock || g_flush == nullptr) {
    std::fprintf(stderr, "threads_bench: no wrapper in %s\n", PLX_MPI_LIBRARY);
    std::exit(1);
  }
}

void Uncontended(benchmark::State& state, LockFn lock) {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  LockFn volatile fn = lock;
  for (auto _ : state) {
    fn(&m);
    pthread_mutex_unlock(&m);
  }
  state.SetItemsProcessed(state.iterations());
}

void ContendedPath(benchmark::State& state, LockFn lock) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_t m;
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  LockFn volatile fn = lock;
  int64_t n = 0;
  for (auto _ : state) {
    if (fn(&m) != EDEADLK) state.SkipWithError("expected EDEADLK");
    if (++n % kFlushEvery == 0) {
      state.PauseTiming();
      g_flush();
      state.ResumeTiming();
    }
  }
  pthread_mutex_unlock(&m);
  state.SetItemsProcessed(state.iterations());
}

void UncontendedReal(benchmark::State& state) {
  Uncontended(state, g_real_lock);
}
void UncontendedWrapped(benchmark::State& state) {
  Uncontended(state, g_wrapped_lock);
}
void ContendedPathReal(benchmark::State& state) {
  ContendedPath(state, g_real_lock);
}
void ContendedPathWrapped(benchmark::State& state) {
  ContendedPath(state, g_wrapped_lock);
}
BENCHMARK(UncontendedReal);
BENCHMARK(UncontendedWrapped);
BENCHMARK(ContendedPathReal);
BENCHMARK(ContendedPathWrapped);

}  // namespace

int main(int argc, char** argv) {
  // The wrapper records into a trace; keep it out of the way unless told.
  setenv("PLX_TRACE", "1", 0);
  setenv("PLX_OUTPUT", "/tmp/threads-bench.plx", 0);
  Load();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
