// MakeThreadCallStack: one reserved (not committed) array of frames per thread,
// the thread's stack bounds from pthread_getattr_np, release at thread exit.
#include "threads/functions/call_stack.h"

#include <pthread.h>
#include <sys/mman.h>

#include <new>

namespace plx::functions {

constinit thread_local CallStack* tls_call_stack PLX_TLS = nullptr;

namespace {

pthread_key_t g_key;
pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
CallStack g_dead_stack;  // capacity 0: what an exiting thread gets

constexpr size_t kFramesBytes = sizeof(Frame) * CallStack::kMaxDepth;

PLX_NO_INSTRUMENT void Release(void* arg) {
  auto* s = static_cast<CallStack*>(arg);
  tls_call_stack = &g_dead_stack;
  ::munmap(s->frames, kFramesBytes);
  delete s;
}

PLX_NO_INSTRUMENT void MakeKey() {
  ::pthread_key_create(&g_key, Release);
}

}  // namespace

PLX_NO_INSTRUMENT CallStack* MakeThreadCallStack() {
  ::pthread_once(&g_key_once, MakeKey);
  void* mem = ::mmap(nullptr, kFramesBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) return nullptr;
  auto* s = new (std::nothrow) CallStack;
  if (s == nullptr) {
    ::munmap(mem, kFramesBytes);
    return nullptr;
  }
  s->frames = static_cast<Frame*>(mem);
  s->capacity = CallStack::kMaxDepth;
  pthread_attr_t attr;
  if (::pthread_getattr_np(::pthread_self(), &attr) == 0) {
    void* low = nullptr;
    size_t size = 0;
    if (::pthread_attr_getstack(&attr, &low, &size) == 0) {
      s->stack_low = reinterpret_cast<uintptr_t>(low);
      s->stack_high = s->stack_low + size;
    }
    ::pthread_attr_destroy(&attr);
  }
  ::pthread_setspecific(g_key, s);
  tls_call_stack = s;
  return s;
}

}  // namespace plx::functions
