// TickClock: ticks -> CLOCK_MONOTONIC ns as docs/format.md specifies.
#include "format/tick_clock.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

namespace plx::format {
namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

ClockDef Tsc(double ticks_per_second) {
  return ClockDef{1, ticks_per_second, 0, 0};
}

TEST(TickClock, IdentityWithoutClockOrInNsDomain) {
  TickClock none;
  EXPECT_TRUE(none.is_identity());
  EXPECT_EQ(none.ToNs(0), 0);
  EXPECT_EQ(none.ToNs(123456789012345ull), 123456789012345);
  EXPECT_DOUBLE_EQ(none.ticks_per_second(), 1e9);

  // Domain 0 ignores ticks_per_second and any pairs.
  TickClock ns(ClockDef{0, 3e9, 0, 0}, {{100, 5}, {200, 7}});
  EXPECT_TRUE(ns.is_identity());
  EXPECT_EQ(ns.ToNs(150), 150);
  EXPECT_DOUBLE_EQ(ns.ticks_per_second(), 1e9);

  TickClock absent(std::nullopt, {{100, 5}, {200, 7}});
  EXPECT_TRUE(absent.is_identity());
  EXPECT_EQ(absent.ToNs(150), 150);
}

TEST(TickClock, NoPairsUsesTicksPerSecondFromZero) {
  TickClock c(Tsc(2e9), {});
  EXPECT_FALSE(c.is_identity());
  EXPECT_EQ(c.ToNs(0), 0);
  EXPECT_EQ(c.ToNs(2000), 1000);
  EXPECT_EQ(c.ToNs(3), 2);  // 1.5 rounds to nearest
  EXPECT_DOUBLE_EQ(c.ticks_per_second(), 2e9);
  // A useless ticks_per_second falls back to 1e9.
  for (double bad : {0.0, -5.0, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    TickClock d(Tsc(bad), {});
    EXPECT_EQ(d.ToNs(777), 777) << bad;
    EXPECT_DOUBLE_EQ(d.ticks_per_second(), 1e9);
  }
}

TEST(TickClock, OnePairAndTicksPerSecond) {
  TickClock c(Tsc(4e9), {{1000, 50000}});
  EXPECT_EQ(c.sync_points(), 1u);
  EXPECT_EQ(c.ToNs(1000), 50000);
  EXPECT_EQ(c.ToNs(5000), 51000);
  EXPECT_EQ(c.ToNs(0), 49750);  // before the pair: same slope
  EXPECT_DOUBLE_EQ(c.ticks_per_second(), 4e9);
}

TEST(TickClock, PiecewiseLinearBetweenPairs) {
  // Slopes: 0.5 ns/tick, then 2 ns/tick, then 1 ns/tick.
  TickClock c(Tsc(1e9), {{1000, 10000}, {3000, 11000}, {4000, 13000}, {6000, 15000}});
  EXPECT_EQ(c.sync_points(), 4u);
  EXPECT_EQ(c.ToNs(1000), 10000);
  EXPECT_EQ(c.ToNs(2000), 10500);
  EXPECT_EQ(c.ToNs(3000), 11000);
  EXPECT_EQ(c.ToNs(3500), 12000);
  EXPECT_EQ(c.ToNs(4000), 13000);
  EXPECT_EQ(c.ToNs(5000), 14000);
  EXPECT_EQ(c.ToNs(6000), 15000);
  EXPECT_EQ(c.ToNs(0), 9500);       // extrapolated with the first segment
  EXPECT_EQ(c.ToNs(10000), 19000);  // extrapolated with the last segment
  // ticks per second over the whole span: 5000 ticks in 5000 ns.
  EXPECT_DOUBLE_EQ(c.ticks_per_second(), 1e9);
}

TEST(TickClock, PairsAreSortedAndFiltered) {
  // Out of order; a repeated tick (the first in file order wins); a pair
  // whose ns goes backwards; an ns that does not fit int64.
  std::vector<ClockSyncDef> syncs = {{3000, 11000}, {1000, 10000}, {3000, 99999},
                                     {2000, 9000},  {4000, 13000}, {5000, kU64Max}};
  TickClock c(Tsc(1e9), syncs);
  EXPECT_EQ(c.sync_points(), 3u);  // (1000,10000) (3000,11000) (4000,13000)
  EXPECT_EQ(c.ToNs(2000), 10500);
  EXPECT_EQ(c.ToNs(3500), 12000);
  EXPECT_EQ(c.ToNs(5000), 15000);

  // Only non-increasing pairs: one survives, with ticks_per_second.
  TickClock d(Tsc(2e9), {{100, 1000}, {100, 2000}, {200, 500}});
  EXPECT_EQ(d.sync_points(), 1u);
  EXPECT_EQ(d.ToNs(100), 1000);
  EXPECT_EQ(d.ToNs(300), 1100);
}

TEST(TickClock, MonotonicAndHintIndependent) {
  std::vector<ClockSyncDef> syncs;
  std::mt19937_64 rng(99);
  uint64_t tick = 1'000'000, ns = 5'000'000;
  for (int i = 0; i < 50; ++i) {
    tick += 1000 + rng() % 100000;
    ns += 500 + rng() % 50000;
    syncs.push_back({tick, ns});
  }
  TickClock c(Tsc(3e9), syncs);
  EXPECT_EQ(c.sync_points(), 50u);
  size_t hint = 0;
  int64_t prev = std::numeric_limits<int64_t>::min();
  for (uint64_t t = 0; t < tick + 500000; t += 997) {
    const int64_t with_hint = c.ToNs(t, &hint);
    EXPECT_EQ(with_hint, c.ToNs(t)) << t;
    ASSERT_GE(with_hint, prev) << "not monotonic at tick " << t;
    prev = with_hint;
  }
  // Hints from a later segment (or nonsense) still give the right answer.
  size_t far = 40;
  EXPECT_EQ(c.ToNs(syncs[2].tick, &far), static_cast<int64_t>(syncs[2].ns));
  size_t junk = 12345;
  EXPECT_EQ(c.ToNs(syncs[7].tick, &junk), static_cast<int64_t>(syncs[7].ns));
  for (const ClockSyncDef& s : syncs)
    EXPECT_EQ(c.ToNs(s.tick), static_cast<int64_t>(s.ns));
}

TEST(TickClock, ExtrapolationStaysMonotonicWhereTheFastPathEnds) {
  // Past the last pair, ticks up to 2^40 convert in fixed point, later ones in
  // double: the two must agree to the nanosecond at the seam.
  const uint64_t t0 = 1000000;
  TickClock c(Tsc(3e9), {{t0, 5000000}, {t0 + 3000000000ull, 1005000000}});  // 3 ticks per ns
  const uint64_t seam = t0 + 3000000000ull + (uint64_t{1} << 40);
  size_t hint = 0;
  int64_t prev = c.ToNs(seam - 4, &hint);
  for (uint64_t t = seam - 3; t < seam + 4; ++t) {
    const int64_t ns = c.ToNs(t, &hint);
    EXPECT_GE(ns, prev) << t;
    EXPECT_EQ(ns, c.ToNs(t)) << t;
    EXPECT_NEAR(static_cast<double>(ns),
                1005000000.0 + static_cast<double>(t - t0 - 3000000000ull) / 3.0, 1.0);
    prev = ns;
  }
}

TEST(TickClock, SaturatesInsteadOfOverflowing) {
  // A steep slope and extreme ticks (damaged files) must not overflow.
  TickClock steep(Tsc(1e9), {{0, 0}, {1, static_cast<uint64_t>(kI64Max) - 1}});
  EXPECT_EQ(steep.ToNs(kU64Max), kI64Max);
  TickClock tiny(Tsc(1e-300), {});
  EXPECT_EQ(tiny.ToNs(kU64Max), kI64Max);
  EXPECT_EQ(tiny.ToNs(0), 0);
  TickClock late(Tsc(1e9), {{kU64Max - 10, 1000}, {kU64Max, 2000}});
  EXPECT_LT(late.ToNs(0), std::numeric_limits<int64_t>::min() / 2);  // clamped, not wrapped
  EXPECT_EQ(late.ToNs(kU64Max - 5), 1500);
}

}  // namespace
}  // namespace plx::format
