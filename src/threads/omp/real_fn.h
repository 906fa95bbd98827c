// The OpenMP runtime's own entry point below this library, for the wrappers
// of loops.cc (libomp) and gomp_*.cc (libgomp).
#pragma once

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace plx::omp {

/// The real `name`, found once (RTLD_NEXT: the next object after this
/// library that defines it). Only compiled OpenMP code calls these, and the
/// runtime it links defines them: aborts when none does.
template <typename F>
F Real(std::atomic<F>& slot, const char* name) {
  F f = slot.load(std::memory_order_acquire);
  if (__builtin_expect(f != nullptr, 1)) return f;
  f = reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
  if (f == nullptr) {
    std::fprintf(stderr, "parallax: %s not found below the preload library\n", name);
    std::abort();
  }
  slot.store(f, std::memory_order_release);
  return f;
}

}  // namespace plx::omp

// In a wrapper of the entry point NAME: its slot for the real one, then the
// real one itself (both named after NAME, so the two cannot disagree).
#define PLX_DECLARE_REAL(NAME)                      \
  static std::atomic<decltype(&NAME)> real_##NAME { \
    nullptr                                         \
  }
#define PLX_REAL(NAME) ::plx::omp::Real(real_##NAME, #NAME)
