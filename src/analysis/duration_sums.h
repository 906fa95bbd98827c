// DurationSums: count, total, min, max and exact integer sums of a set of
// durations (and of their squares), so that partial sums merge in any
// order to the same bits. The state statistics are made of them, whether
// computed over the whole model or streamed chunk by chunk.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "base/saturating.h"

namespace plx::analysis {

struct DurationSums {
  using U128 = unsigned __int128;

  uint64_t count = 0;
  int64_t total = 0;  // saturating
  int64_t self = 0;   // saturating: exclusive time
  int64_t min = std::numeric_limits<int64_t>::max();
  int64_t max = std::numeric_limits<int64_t>::min();
  __int128 sum = 0;  // of durations, exact
  U128 sum_sq = 0;   // of squared durations, exact below 2^128 (then saturated)

  void Add(int64_t duration, int64_t self_ns) {
    ++count;
    total = SaturatingAdd(total, duration);
    self = SaturatingAdd(self, self_ns);
    min = std::min(min, duration);
    max = std::max(max, duration);
    sum += duration;
    const uint64_t magnitude =
        duration < 0 ? 0 - static_cast<uint64_t>(duration) : static_cast<uint64_t>(duration);
    sum_sq = Saturating128(sum_sq, static_cast<U128>(magnitude) * magnitude);
  }

  void Merge(const DurationSums& o) {
    if (o.count == 0) return;
    count += o.count;
    total = SaturatingAdd(total, o.total);
    self = SaturatingAdd(self, o.self);
    min = std::min(min, o.min);
    max = std::max(max, o.max);
    sum += o.sum;
    sum_sq = Saturating128(sum_sq, o.sum_sq);
  }

  double Mean() const {
    return count > 0 ? static_cast<double>(total) / static_cast<double>(count) : 0.0;
  }

  // Population standard deviation: sqrt(n * sum_sq - sum^2) / n, exact in
  // 128 bits where it fits (every real trace), else in long double.
  double Stddev() const {
    if (count == 0) return 0;
    const U128 n = count;
    const U128 abs_sum = sum < 0 ? static_cast<U128>(-sum) : static_cast<U128>(sum);
    const U128 kMax = ~U128{0};
    if (sum_sq != kMax && sum_sq <= kMax / n && (abs_sum == 0 || abs_sum <= kMax / abs_sum)) {
      const U128 scaled = n * sum_sq, square = abs_sum * abs_sum;
      const U128 numerator = scaled > square ? scaled - square : 0;
      return static_cast<double>(std::sqrt(static_cast<long double>(numerator)) /
                                 static_cast<long double>(count));
    }
    const long double mean = static_cast<long double>(sum) / static_cast<long double>(count);
    const long double variance =
        static_cast<long double>(sum_sq) / static_cast<long double>(count) - mean * mean;
    return static_cast<double>(std::sqrt(std::max(0.0L, variance)));
  }

 private:
  static U128 Saturating128(U128 a, U128 b) {
    const U128 s = a + b;
    return s < a ? ~U128{0} : s;
  }
};

}  // namespace plx::analysis
