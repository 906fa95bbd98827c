// ComputeConcurrencyProfile on a hand-built trace: innermost states, buckets
// partly covered, the per-process union, windows, and errors.
#include "analysis/concurrency_profile.h"

#include <gtest/gtest.h>

#include <vector>

#include "stats_test_trace.h"

namespace plx::analysis {
namespace {

class ConcurrencyProfileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = t_.State("A");
    b_ = t_.State("B");
    t_.State("unused");
    const uint32_t p0 = t_.Process(), p1 = t_.Process();
    const uint32_t t0 = t_.Thread(p0), t1 = t_.Thread(p0), t2 = t_.Thread(p1);
    // t0: A [0, 60) with B [10, 30) nested: innermost A, B, A.
    t_.Slice(t0, a_, 0, 60, 0);
    t_.Slice(t0, b_, 10, 30, 1);
    t_.Slice(t1, a_, 20, 50, 0);
    t_.Slice(t2, b_, 40, 100, 0);
  }
  static std::vector<double> Row(const std::vector<double>& values, size_t row, size_t buckets) {
    return std::vector<double>(values.begin() + static_cast<long>(row * buckets),
                               values.begin() + static_cast<long>((row + 1) * buckets));
  }

  // Fractions of buckets are sums of doubles: equal to within rounding.
  static void ExpectRow(const std::vector<double>& got, const std::vector<double>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 1e-12) << "bucket " << i;
  }

  testing::StatsTestTrace t_;
  uint32_t a_ = 0, b_ = 0;
};

TEST_F(ConcurrencyProfileTest, ThreadsAndProcesses) {
  ConcurrencyOptions o;
  o.buckets = 4;
  o.processes = true;
  StatusOr<ConcurrencyProfile> p = ComputeConcurrencyProfile(t_.trace, o);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->from_ns, 0);
  EXPECT_EQ(p->to_ns, 100);
  EXPECT_EQ(p->bucket_ns, 25.0);
  ASSERT_EQ(p->states, (std::vector<uint32_t>{a_, b_}));
  // A: t0 [0,10) + [30,60), t1 [20,50). B: t0 [10,30), t2 [40,100).
  ExpectRow(Row(p->threads, 0, 4), {0.6, 1.8, 0.4, 0.0});
  ExpectRow(Row(p->threads, 1, 4), {0.6, 0.6, 1.0, 1.0});
  EXPECT_EQ(p->threads_at(1, 2), 1.0);
  // Process 0 is in A over [0,10) and [20,60), counted once where t0 and t1 overlap.
  ExpectRow(Row(p->processes, 0, 4), {0.6, 1.0, 0.4, 0.0});
  ExpectRow(Row(p->processes, 1, 4), {0.6, 0.6, 1.0, 1.0});
}

TEST_F(ConcurrencyProfileTest, LongIntervalsAndWindows) {
  ConcurrencyOptions o;
  o.buckets = 10;
  StatusOr<ConcurrencyProfile> p = ComputeConcurrencyProfile(t_.trace, o);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->processes.empty());
  ExpectRow(Row(p->threads, 0, 10), {1.0, 0.0, 1.0, 2.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0});
  ExpectRow(Row(p->threads, 1, 10), {0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});

  o.from_ns = 45;  // [45, 65) in 2 buckets of 10
  o.to_ns = 65;
  o.buckets = 2;
  p = ComputeConcurrencyProfile(t_.trace, o);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->states, (std::vector<uint32_t>{a_, b_}));
  ExpectRow(Row(p->threads, 0, 2), {1.5, 0.5});  // t0 [45,60), t1 [45,50)
  ExpectRow(Row(p->threads, 1, 2), {1.0, 1.0});

  o.from_ns = 0;
  o.to_ns = 8;  // only A, 1 thread in 3 buckets of 8/3 ns each
  o.buckets = 3;
  p = ComputeConcurrencyProfile(t_.trace, o);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->states, (std::vector<uint32_t>{a_}));
  for (size_t b = 0; b < 3; ++b)
    EXPECT_NEAR(p->threads_at(0, b), 1.0, 1e-12);
}

TEST_F(ConcurrencyProfileTest, Errors) {
  ConcurrencyOptions o;
  o.buckets = 0;
  EXPECT_EQ(ComputeConcurrencyProfile(t_.trace, o).status().code(), StatusCode::kInvalidArgument);
  o.buckets = 5;
  o.from_ns = 10;
  o.to_ns = 10;
  EXPECT_EQ(ComputeConcurrencyProfile(t_.trace, o).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace plx::analysis
