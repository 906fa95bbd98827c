// The calling thread's stack of traced functions it is inside: what each exit
// hook closes, and how exits that never come (longjmp, exceptions unwound
// through clang-instrumented code) are detected from stack addresses.
#pragma once

#include <cstddef>
#include <cstdint>

#include "capture/fast_path.h"

#define PLX_NO_INSTRUMENT __attribute__((no_instrument_function))

namespace plx::functions {

struct Frame {
  uintptr_t address;    // the function
  uintptr_t sp;         // where the enter hook's frame was: deeper calls have lower values
  uintptr_t call_site;  // the hook's call_site: a function inlined into another has its
                        // container's (both are the container's return address)
  uint32_t handle;      // its state
};

struct CallStack {
  static constexpr uint32_t kMaxDepth = 16384;  // deeper calls are counted, not recorded

  Frame* frames = nullptr;  // `capacity` of them, reserved (touched as used)
  uint32_t capacity = 0;    // kMaxDepth; 0 once the thread is exiting
  uint32_t depth = 0;
  uint32_t overflow = 0;  // traced calls entered beyond kMaxDepth and not yet left
  uintptr_t stack_low = 0, stack_high = 0;  // the thread's own stack (0, 0: unknown)

  /// Whether `a` and `b` are both on the thread's own stack, so that a lower
  /// address means a deeper call (a signal's alternate stack or a coroutine's
  /// stack is not comparable).
  bool Comparable(uintptr_t a, uintptr_t b) const {
    return a - stack_low < stack_high - stack_low && b - stack_low < stack_high - stack_low;
  }
};

/// The calling thread's stack; null before its first traced call.
extern constinit thread_local CallStack* tls_call_stack PLX_TLS;

/// Makes the calling thread's stack on its first traced call (an allocation
/// and the stack bounds); null when none can be made. Released at thread exit.
CallStack* MakeThreadCallStack();

}  // namespace plx::functions
