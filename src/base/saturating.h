// Saturating integer arithmetic for sums over untrusted input (a damaged
// trace must give large numbers, never undefined behaviour).
#pragma once

#include <cstdint>
#include <limits>

namespace plx {

/// a + b, clamped to the int64_t range.
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

/// a - b, clamped to the int64_t range.
inline int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

}  // namespace plx
