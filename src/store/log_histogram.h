// LogHistogram: counts of non-negative integers in buckets of at most 1/128
// of their value (values below 256 exactly), allocated by octave as they
// are used. The streaming engine finds a group's order statistics (median,
// MAD, percentiles) from it: the histogram says which bucket holds a rank,
// and a second pass collects only that bucket's values.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <utility>

namespace plx::store {

class LogHistogram {
 public:
  static constexpr uint32_t kBuckets = 256 + 55 * 128;  // covers [0, 2^63)

  static uint32_t Index(uint64_t v) {
    if (v < 256) return static_cast<uint32_t>(v);
    if (v >> 63) return kBuckets - 1;     // durations stay below 2^62; keep others in range
    const int e = std::bit_width(v) - 8;  // >= 1
    return 256 + static_cast<uint32_t>(e - 1) * 128 + static_cast<uint32_t>((v >> e) - 128);
  }
  /// The values of bucket `i`: [first, last].
  static std::pair<uint64_t, uint64_t> Bounds(uint32_t i) {
    if (i < 256) return {i, i};
    const int e = static_cast<int>((i - 256) / 128) + 1;
    const uint64_t m = (i - 256) % 128 + 128;
    return {m << e, ((m + 1) << e) - 1};
  }

  void Add(uint64_t v, uint64_t n = 1) {
    const uint32_t i = Index(v);
    std::unique_ptr<Block>& b = blocks_[i / kBlock];
    if (!b) b = std::make_unique<Block>(Block{});
    (*b)[i % kBlock] += n;
    total_ += n;
  }
  uint64_t count(uint32_t i) const {
    const std::unique_ptr<Block>& b = blocks_[i / kBlock];
    return b ? (*b)[i % kBlock] : 0;
  }
  uint64_t total() const { return total_; }
  void Merge(const LogHistogram& o) {
    for (uint32_t k = 0; k < blocks_.size(); ++k) {
      if (!o.blocks_[k]) continue;
      if (!blocks_[k]) blocks_[k] = std::make_unique<Block>(Block{});
      for (uint32_t j = 0; j < kBlock; ++j)
        (*blocks_[k])[j] += (*o.blocks_[k])[j];
    }
    total_ += o.total_;
  }
  /// The bucket holding the value of 0-based rank `rank`, and how many
  /// values lie in the buckets below it.
  std::pair<uint32_t, uint64_t> Find(uint64_t rank) const {
    uint64_t below = 0;
    for (uint32_t k = 0; k < blocks_.size(); ++k) {
      if (!blocks_[k]) continue;
      for (uint32_t j = 0; j < kBlock; ++j) {
        const uint64_t c = (*blocks_[k])[j];
        if (rank < below + c) return {k * kBlock + j, below};
        below += c;
      }
    }
    return {kBuckets, below};
  }
  /// Calls f(bucket, count) for every bucket in use, ascending.
  template <typename F>
  void ForEach(F&& f) const {
    for (uint32_t k = 0; k < blocks_.size(); ++k) {
      if (!blocks_[k]) continue;
      for (uint32_t j = 0; j < kBlock; ++j)
        if ((*blocks_[k])[j] > 0) f(k * kBlock + j, (*blocks_[k])[j]);
    }
  }

 private:
  static constexpr uint32_t kBlock = 128;
  using Block = std::array<uint64_t, kBlock>;
  std::array<std::unique_ptr<Block>, (kBuckets + kBlock - 1) / kBlock> blocks_;
  uint64_t total_ = 0;
};

}  // namespace plx::store
