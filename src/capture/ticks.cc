// TSC detection and (tick, ns) sync pairs.
#include "capture/ticks.h"

#if PLX_HAVE_TSC
#include <cpuid.h>
#endif

namespace plx::capture {

ClockKind g_clock_kind = ClockKind::kMonotonic;

bool HasInvariantTsc() {
#if PLX_HAVE_TSC
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u) return false;
  if (__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

SyncPair TakeSyncPair() {
  if (g_clock_kind == ClockKind::kMonotonic) {
    uint64_t ns = MonotonicNs();
    return {ns, ns};
  }
  SyncPair best{0, 0};
  uint64_t best_width = ~0ull;
  for (int i = 0; i < 5; ++i) {
    uint64_t t0 = ReadTicks();
    uint64_t ns = MonotonicNs();
    uint64_t t1 = ReadTicks();
    if (t1 >= t0 && t1 - t0 < best_width) {
      best_width = t1 - t0;
      best = {t0 + (t1 - t0) / 2, ns};
    }
  }
  return best;
}

}  // namespace plx::capture
