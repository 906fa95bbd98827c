// LogHistogram: buckets tile the integers in order, are exact below 256 and
// at most 1/128 of their values wide; ranks are found in the right bucket.
#include "store/log_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace plx::store {
namespace {

TEST(LogHistogram, BucketsTileTheIntegers) {
  uint64_t next = 0;
  for (uint32_t i = 0; i < LogHistogram::kBuckets; ++i) {
    const auto [lo, hi] = LogHistogram::Bounds(i);
    ASSERT_EQ(lo, next) << i;
    ASSERT_GE(hi, lo);
    if (lo < 256) {
      EXPECT_EQ(hi, lo);
    } else {
      EXPECT_LE((hi - lo + 1) * 128, lo) << i;
    }
    EXPECT_EQ(LogHistogram::Index(lo), i);
    EXPECT_EQ(LogHistogram::Index(hi), i);
    next = hi + 1;
  }
  EXPECT_EQ(next, uint64_t{1} << 63);
}

TEST(LogHistogram, FindsTheBucketOfARank) {
  std::mt19937_64 random(7);
  std::vector<uint64_t> values;
  LogHistogram h;
  for (int i = 0; i < 20000; ++i) {
    const uint64_t v = (random() >> 2) >> (random() % 60);
    values.push_back(v);
    h.Add(v);
  }
  std::sort(values.begin(), values.end());
  EXPECT_EQ(h.total(), values.size());
  for (uint64_t rank :
       {uint64_t{0}, uint64_t{1}, uint64_t{9999}, uint64_t{10000}, uint64_t{19999}}) {
    const auto [bucket, below] = h.Find(rank);
    const auto [lo, hi] = LogHistogram::Bounds(bucket);
    EXPECT_GE(values[rank], lo);
    EXPECT_LE(values[rank], hi);
    EXPECT_EQ(below, static_cast<uint64_t>(std::lower_bound(values.begin(), values.end(), lo) -
                                           values.begin()));
  }
  LogHistogram twice;
  twice.Merge(h);
  twice.Merge(h);
  EXPECT_EQ(twice.total(), 2 * h.total());
  EXPECT_EQ(twice.count(LogHistogram::Index(values[5])),
            2 * h.count(LogHistogram::Index(values[5])));
}

}  // namespace
}  // namespace plx::store
