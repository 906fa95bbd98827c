// BuildTile: exact tiles of small hand-built traces (nesting, merging, dominant
// state, instants, arrows, counters), bad requests, output bounds on a huge
// row, and a property test over random traces and windows.
#include "server/timeline/tile_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "timeline_test_trace.h"

namespace plx::server {
namespace {

using testing::DecodedTile;
using testing::DecodeTile;
using testing::TimelineTrace;

DecodedTile Tile(const TimelineIndex& index, const TileRequest& request) {
  std::string out;
  const Status s = BuildTile(index, request, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return DecodeTile(out);
}

// begin, end, row, state, ref, depth, flags
using SliceTuple = std::tuple<double, double, uint32_t, uint32_t, uint32_t, uint16_t, uint16_t>;
std::vector<SliceTuple> Slices(const DecodedTile& t) {
  std::vector<SliceTuple> v;
  for (const auto& s : t.slices)
    v.emplace_back(s.begin, s.end, s.row, s.state, s.ref, s.depth, s.flags);
  return v;
}

TEST(TileBuilderTest, HeaderAndNestingAndUnclosed) {
  TimelineTrace t(2);
  const int64_t B = 1000;  // trace time 0
  const uint32_t a = t.Slice(0, B + 100, B + 900, 1);
  const uint32_t b = t.Slice(0, B + 200, B + 400, 2, 1);
  const uint32_t c = t.Slice(0, B + 500, B + 950, 3, 1, /*unclosed=*/true);
  t.Slice(0, B + 1100, B + 1200, 1);  // after the window
  t.Slice(1, B + 300, B + 700, 2);    // a row not asked for
  t.Finish(B, B + 1200);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  TileRequest r;
  r.rows = {0};
  r.from = 150;
  r.to = 1000;
  r.width = 850;
  const DecodedTile tile = Tile(index, r);
  EXPECT_EQ(tile.header.magic, 0x544c5850u);
  EXPECT_EQ(tile.header.version, wire::kApiVersion);
  EXPECT_EQ(tile.header.from, 150);
  EXPECT_EQ(tile.header.to, 1000);
  EXPECT_EQ(tile.header.width, 850u);
  EXPECT_EQ(tile.header.reserved, 0u);
  EXPECT_EQ(Slices(tile), (std::vector<SliceTuple>{
                              {100, 900, 0, 1, a, 0, 0},
                              {200, 400, 0, 2, b, 1, 0},
                              {500, 950, 0, 3, c, 1, 2},
                          }));
  EXPECT_TRUE(tile.instants.empty());
  EXPECT_TRUE(tile.arrows.empty());
  EXPECT_TRUE(tile.points.empty());
}

TEST(TileBuilderTest, MergesTinySlicesPerPixelWithDominantState) {
  TimelineTrace t(1);
  t.Slice(0, 0, 10, 1);
  t.Slice(0, 20, 30, 1);
  t.Slice(0, 40, 80, 2);  // pixel 0: state 2 covers most
  const uint32_t lone = t.Slice(0, 150, 160, 3);
  const uint32_t wide = t.Slice(0, 200, 390, 1);  // 1.9 px
  t.Slice(0, 500, 510, 1);
  t.Slice(0, 520, 530, 1);
  t.Slice(0, 600, 610, 1);  // pixel 6 joins pixel 5's bar
  t.Slice(0, 620, 630, 1);
  t.Slice(0, 800, 805, 2);
  t.Slice(0, 810, 815, 2);
  const uint32_t last = t.Slice(0, 850, 990, 3);  // begins in pixel 8, 1.4 px
  t.Finish(0, 1000);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  TileRequest r;
  r.rows = {0};
  r.from = 0;
  r.to = 1000;
  r.width = 10;
  EXPECT_EQ(Slices(Tile(index, r)), (std::vector<SliceTuple>{
                                        {0, 80, 0, 2, 3, 0, 1},
                                        {150, 160, 0, 3, lone, 0, 0},
                                        {200, 390, 0, 1, wide, 0, 0},
                                        {500, 630, 0, 1, 4, 0, 1},
                                        {800, 815, 0, 2, 2, 0, 1},
                                        {850, 990, 0, 3, last, 0, 0},
                                    }));
  // Zoomed in, every slice is itself.
  r.width = 1000;
  EXPECT_EQ(Tile(index, r).slices.size(), t.trace.slices.size());
}

TEST(TileBuilderTest, InstantsMergePerPixel) {
  TimelineTrace t(2);
  t.Instant(0, 5, 1);
  t.Instant(0, 50, 2);
  t.Instant(0, 99, 3);
  const uint32_t lone = t.Instant(0, 250, 2);
  const uint32_t edge = t.Instant(0, 1000, 4);
  t.Instant(0, 1001, 4);
  t.Instant(1, 300, 1);
  t.Finish(0, 1100);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  TileRequest r;
  r.rows = {0};
  r.from = 0;
  r.to = 1000;
  r.width = 10;
  const DecodedTile tile = Tile(index, r);
  ASSERT_EQ(tile.instants.size(), 3u);
  EXPECT_EQ(tile.instants[0].time, 5);
  EXPECT_EQ(tile.instants[0].type, 1u);
  EXPECT_EQ(tile.instants[0].ref, 3u);
  EXPECT_EQ(tile.instants[0].flags, 1u);
  EXPECT_EQ(tile.instants[1].time, 250);
  EXPECT_EQ(tile.instants[1].ref, lone);
  EXPECT_EQ(tile.instants[1].flags, 0u);
  EXPECT_EQ(tile.instants[2].ref, edge);
  EXPECT_EQ(tile.instants[2].row, 0u);
}

TEST(TileBuilderTest, ArrowsOverlapMergeAndLongMessages) {
  TimelineTrace t(3);
  t.Message(0, 1010, 1, 1500);
  t.Message(0, 1050, 1, 1450);  // same pixel as the one before: merged
  const uint32_t m3 = t.Message(0, 1250, 1, 1300);
  const uint32_t m4 = t.Message(1, 1020, 0, 1100);
  const uint32_t before = t.Message(1, 950, 0, 1020);  // sent before the window
  t.Message(0, 500, 1, 600);                           // ends before it
  t.Message(0, 2500, 1, 2600);                         // after it
  const uint32_t spanning = t.Message(2, 100, 1, 5000);
  for (int i = 0; i < 1000; ++i)
    t.Message(1, 10000 + i * 10, 2, 10001 + i * 10);
  t.Finish(0, 20000);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  ASSERT_EQ(index.long_arrows().size(), 1u);  // the spanning one
  TileRequest r;
  r.rows = {0, 1, 2};
  r.from = 1000;
  r.to = 2000;
  r.width = 10;
  using ArrowTuple = std::tuple<double, double, uint32_t, uint32_t, uint32_t, uint32_t>;
  auto arrows = [&] {
    std::vector<ArrowTuple> v;
    for (const auto& a : Tile(index, r).arrows)
      v.emplace_back(a.send, a.recv, a.from_row, a.to_row, a.ref, a.flags);
    return v;
  };
  EXPECT_EQ(arrows(), (std::vector<ArrowTuple>{
                          {1010, 1500, 0, 1, 2, 1},
                          {1250, 1300, 0, 1, m3, 0},
                          {950, 1020, 1, 0, before, 0},
                          {1020, 1100, 1, 0, m4, 0},
                          {100, 5000, 2, 1, spanning, 0},
                      }));
  // Only row 2: the spanning message (it leaves row 2).
  r.rows = {2};
  EXPECT_EQ(arrows(), (std::vector<ArrowTuple>{{100, 5000, 2, 1, spanning, 0}}));
  r.arrows = false;
  r.rows = {0, 1, 2};
  EXPECT_TRUE(arrows().empty());
}

TEST(TileBuilderTest, ManyRowPairsMergeArrowsOverAFewPixels) {
  // 16 rows in a ring, each sending to both neighbours every 10 ns: 32 row
  // pairs with messages in every pixel of a 100 px tile.
  constexpr uint32_t kRows = 16;
  TimelineTrace t(kRows);
  uint64_t messages = 0;
  for (int64_t time = 0; time < 100000; time += 10)
    for (uint32_t r = 0; r < kRows; ++r) {
      t.Message(r, time, (r + 1) % kRows, time + 5);
      t.Message(r, time, (r + kRows - 1) % kRows, time + 5);
      messages += 2;
    }
  t.Finish(0, 100010);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  TileRequest r;
  for (uint32_t row = 0; row < kRows; ++row)
    r.rows.push_back(row);
  r.from = 0;
  r.to = 100000;
  r.width = 100;
  const DecodedTile tile = Tile(index, r);
  // 32 pairs at about 4 arrows per pixel column: groups of 8 pixels.
  EXPECT_LE(tile.arrows.size(), 32u * (100 / 8 + 1));
  uint64_t counted = 0;
  for (const auto& a : tile.arrows)
    counted += (a.flags & 1) ? a.ref : 1;
  EXPECT_EQ(counted, messages);  // every message is in one arrow
  // Two rows: the pairs touching them (6) merge over 2 pixels only.
  r.rows = {0, 1};
  const DecodedTile two = Tile(index, r);
  EXPECT_LE(two.arrows.size(), 6u * (100 / 2 + 1));
  EXPECT_GE(two.arrows.size(), 6u * (100 / 2));
}

TEST(TileBuilderTest, CounterPointsPerPixelAndThePointBefore) {
  TimelineTrace t(1);
  t.Sample(0, 50, 0, 1);
  t.Sample(0, 120, 0, 5);
  t.Sample(0, 130, 0, 2);
  t.Sample(0, 140, 0, 9);
  t.Sample(0, 300, 0, 4);
  t.Sample(0, 2000, 0, 0);
  t.Finish(0, 2000);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  TileRequest r;
  r.rows = {0};
  r.from = 100;
  r.to = 1000;
  r.width = 9;
  r.counters = {0};
  const DecodedTile tile = Tile(index, r);
  using PointTuple = std::tuple<double, double, double, double, uint32_t, uint32_t>;
  std::vector<PointTuple> points;
  for (const auto& p : tile.points)
    points.emplace_back(p.time, p.min, p.max, p.last, p.track, p.count);
  EXPECT_EQ(points, (std::vector<PointTuple>{
                        {50, 1, 1, 1, 0, 1},
                        {120, 2, 9, 9, 0, 3},
                        {300, 4, 4, 4, 0, 1},
                    }));
}

TEST(TileBuilderTest, CounterPointsUseThePyramid) {
  TimelineTrace t(1);
  for (int i = 0; i < 100000; ++i)
    t.Sample(0, i, 0, (i * 7919) % 1000 + (i == 54321 ? 5000 : 0));
  t.Finish(0, 100000);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  TileRequest r;
  r.rows = {0};
  r.from = 0;
  r.to = 100000;
  r.width = 10;
  r.counters = {0};
  const DecodedTile tile = Tile(index, r);
  ASSERT_EQ(tile.points.size(), 10u);
  EXPECT_EQ(tile.points[5].count, 10000u);
  EXPECT_EQ(tile.points[5].max, 54321 * 7919 % 1000 + 5000);
  EXPECT_EQ(tile.points[5].min, 0);
  EXPECT_EQ(tile.points[4].max, 999);
}

TEST(TileBuilderTest, BadRequestsNameTheField) {
  TimelineTrace t(2);
  t.Sample(0, 1, 0, 1);
  t.Finish(0, 100);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  TileRequest good;
  good.rows = {0, 1};
  good.from = 0;
  good.to = 100;
  good.width = 100;
  good.counters = {0};
  std::string out = "keep";
  ASSERT_TRUE(BuildTile(index, good, &out).ok());
  EXPECT_EQ(out.substr(0, 4), "keep");  // appended
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    const char* field;
    TileRequest request;
  };
  std::vector<Case> cases;
  auto with = [&](const char* field, auto change) {
    TileRequest r = good;
    change(r);
    cases.push_back({field, r});
  };
  with("rows", [](TileRequest& r) { r.rows = {0, 2}; });
  with("width", [](TileRequest& r) { r.width = 0; });
  with("width", [](TileRequest& r) { r.width = 16385; });
  with("to", [](TileRequest& r) { r.to = r.from; });
  with("to", [](TileRequest& r) { r.to = -5; });
  with("from", [&](TileRequest& r) { r.from = nan; });
  with("from", [&](TileRequest& r) { r.from = -inf; });
  with("to", [&](TileRequest& r) { r.to = inf; });
  with("counters", [](TileRequest& r) { r.counters = {1}; });
  for (const Case& c : cases) {
    std::string bytes = "x";
    const Status s = BuildTile(index, c.request, &bytes);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.field;
    EXPECT_EQ(s.message().rfind(std::string(c.field) + ":", 0), 0u) << s.message();
    EXPECT_EQ(bytes, "x");
  }
  TileRequest widest = good;
  widest.width = kMaxTileWidth;
  EXPECT_TRUE(BuildTile(index, widest, &out).ok());
}

TEST(TileBuilderTest, MillionTinySlicesStayBounded) {
  TimelineTrace t(1);
  const int n = 1'000'000;
  // Depth 0: state 1 covers most time in the first half, state 2 in the second.
  for (int i = 0; i < n; ++i) {
    const bool first = i < n / 2;
    const bool one = i % 2 == 0;
    t.Slice(0, i * 10LL, i * 10LL + ((one == first) ? 8 : 1), one ? 1 : 2);
  }
  t.Finish(0, n * 10LL);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  const uint32_t width = 1600;
  std::mt19937_64 rng(7);
  for (int q = 0; q < 20; ++q) {
    TileRequest r;
    r.rows = {0};
    r.width = width;
    if (q == 0) {
      r.from = 0;
      r.to = n * 10.0;
    } else {
      const double span = n * 10.0 / std::pow(10.0, q % 6);
      r.from = std::uniform_real_distribution<double>(-span / 2, n * 10.0)(rng);
      r.to = r.from + span;
    }
    const DecodedTile tile = Tile(index, r);
    EXPECT_LE(tile.slices.size(), 2u * width) << q;
    uint64_t covered = 0;
    for (const auto& s : tile.slices)
      covered += (s.flags & 1) ? s.ref : 1;
    uint64_t expected = 0;
    for (int i = 0; i < n; ++i)
      if (i * 10.0 <= r.to && i * 10.0 + ((i % 2 == 0) == (i < n / 2) ? 8 : 1) >= r.from)
        ++expected;
    EXPECT_EQ(covered, expected) << q;
    if (q == 0) {
      for (const auto& s : tile.slices) {
        if (s.end < n * 5.0 - 100) {
          EXPECT_EQ(s.state, 1u) << s.begin;
        }
        if (s.begin > n * 5.0 + 100) {
          EXPECT_EQ(s.state, 2u) << s.begin;
        }
      }
      EXPECT_LE(tile.slices.size(), 4u);  // one bar per state, coalesced
    }
  }
}

// Coarse tiles extend merged bars by the time buckets: counts and extents stay
// exact, and where every bucket's dominant state is the pixel's, so is the
// bar's; a slice a pixel long still stops the bar.
TEST(TileBuilderTest, CoarseBarsMatchBruteForce) {
  TimelineTrace t(1);
  // Regions of 20000 slices (200 us); in each, per 4 slices 3 of the region's
  // state (6 ns) and one other (8 ns): the region's covers 18 of 26 ns.
  const int n = 200000;
  struct S {
    int64_t b, e;
    uint32_t state;
  };
  std::vector<S> all;
  uint32_t long_id = 0;
  for (int i = 0; i < n; ++i) {
    const uint32_t region = static_cast<uint32_t>(i / 20000) % 3 + 1;
    if (i >= 130000 && i < 130500) {  // a gap, then one slice of 4.9 us
      if (i == 130000) {
        long_id = t.Slice(0, i * 10LL, i * 10LL + 4900, 3);
        all.push_back({i * 10LL, i * 10LL + 4900, 3});
      }
      continue;
    }
    const bool other = i % 4 == 3;
    const S s{i * 10LL, i * 10LL + (other ? 8 : 6), other ? region % 3 + 1 : region};
    t.Slice(0, s.b, s.e, s.state);
    all.push_back(s);
  }
  t.Finish(0, n * 10LL);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  ASSERT_LE(index.lane(0, 0)->bucket_ns * 4, 2000);  // pixels of 2 us use the buckets
  auto check = [&](const TileRequest& r) {
    const DecodedTile tile = Tile(index, r);
    uint64_t total = 0, expected = 0;
    for (const S& s : all)
      if (s.b <= r.to && s.e >= r.from) ++expected;
    for (const auto& bar : tile.slices) {
      total += (bar.flags & 1) ? bar.ref : 1;
      if (!(bar.flags & 1)) continue;
      // Brute force over the slices the bar spans.
      uint32_t count = 0;
      double last_end = -1;
      std::map<uint32_t, int64_t> ns;
      for (const S& s : all) {
        if (s.b < bar.begin || s.b > bar.end) continue;
        ++count;
        last_end = std::max(last_end, static_cast<double>(s.e));
        ns[s.state] += s.e - s.b;
      }
      EXPECT_EQ(bar.ref, count) << bar.begin;
      EXPECT_EQ(bar.end, last_end) << bar.begin;
      const auto best = std::max_element(
          ns.begin(), ns.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
      EXPECT_EQ(bar.state, best->first) << bar.begin;
    }
    EXPECT_EQ(total, expected);
    return tile;
  };
  TileRequest r;
  r.rows = {0};
  r.from = 0;
  r.to = n * 10.0;
  r.width = 1000;  // 2 us a pixel, 200 slices
  const DecodedTile whole = check(r);
  // One bar per region (two around the gap) and the long slice itself.
  EXPECT_EQ(whole.slices.size(), 12u);
  bool found = false;
  for (const auto& s : whole.slices)
    if (!(s.flags & 1) && s.ref == long_id) found = true;
  EXPECT_TRUE(found);
  std::mt19937_64 rng(11);
  for (int q = 0; q < 30; ++q) {
    const double span = n * 10.0 / std::uniform_real_distribution<double>(1, 20)(rng);
    r.from = std::uniform_real_distribution<double>(-span / 4, n * 10.0 - span / 2)(rng);
    r.to = r.from + span;
    r.width = 50 + static_cast<uint32_t>(rng() % 2000);
    check(r);
  }
}

// A random trace: nested slices with heavy-tailed durations on a few rows,
// instants, messages (some very long) and a counter.
TimelineTrace RandomTrace(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t rows = 4;
  TimelineTrace t(rows, 6);
  auto duration = [&] {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    return static_cast<int64_t>(std::pow(10.0, u * 5));  // 1 ns .. 100 us
  };
  const int64_t base = 1'000'000;
  int64_t end_all = base;
  for (uint32_t row = 0; row < rows; ++row) {
    // Generate nested slices recursively and emit them sorted by begin.
    struct S {
      int64_t b, e;
      uint32_t state;
      uint16_t depth;
    };
    std::vector<S> out;
    std::function<void(int64_t, int64_t, uint16_t)> fill = [&](int64_t b, int64_t e,
                                                               uint16_t depth) {
      int64_t now = b;
      while (now < e && out.size() < 20000) {
        now += duration() / 4;
        const int64_t d = std::min<int64_t>(duration(), e - now);
        if (d < 0 || now >= e) break;
        out.push_back({now, now + d, static_cast<uint32_t>(rng() % 6), depth});
        if (depth < 3 && d > 20 && rng() % 3 == 0) fill(now + 1, now + d - 1, depth + 1);
        now += d;
      }
    };
    fill(base, base + 3'000'000, 0);
    std::stable_sort(out.begin(), out.end(), [](const S& x, const S& y) { return x.b < y.b; });
    for (size_t i = 0; i < out.size(); ++i) {
      t.Slice(row, out[i].b, out[i].e, out[i].state, out[i].depth, i + 1 == out.size());
      end_all = std::max(end_all, out[i].e);
    }
    int64_t now = base;
    for (int i = 0; i < 3000; ++i) {
      now += duration() / 10;
      t.Instant(row, now, static_cast<uint32_t>(rng() % 3));
    }
  }
  for (int i = 0; i < 5000; ++i) {
    const uint32_t from = static_cast<uint32_t>(rng() % rows),
                   to = static_cast<uint32_t>(rng() % rows);
    const int64_t s = base + static_cast<int64_t>(rng() % 3'000'000);
    const int64_t latency =
        rng() % 100 == 0 ? static_cast<int64_t>(rng() % 2'000'000) : duration() / 10;
    t.Message(from, s, to, s + latency);
  }
  int64_t now = base;
  for (int i = 0; i < 20000; ++i) {
    now += duration() / 20 + 1;
    t.Sample(1, now, 0, static_cast<double>(rng() % 1000));
  }
  t.Finish(base, std::max(end_all, now));
  return t;
}

TEST(TileBuilderTest, PropertyEverythingInTheWindowIsAccountedFor) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const TimelineTrace t = RandomTrace(seed);
    const model::Trace& tr = t.trace;
    const TimelineIndex index = TimelineIndex::Build(tr, t.pairs);
    std::mt19937_64 rng(seed * 100);
    const double duration = static_cast<double>(tr.end_ns - tr.begin_ns);
    for (int q = 0; q < 30; ++q) {
      TileRequest r;
      r.rows = {0, 1, 2, 3};
      if (q % 3 == 0) r.rows = {static_cast<uint32_t>(rng() % 4)};
      r.width = 1 + static_cast<uint32_t>(rng() % 2000);
      const double span =
          duration / std::pow(10.0, std::uniform_real_distribution<double>(0, 5)(rng));
      r.from = std::uniform_real_distribution<double>(-span / 2, duration)(rng);
      r.to = r.from + span;
      r.counters = {0};
      const DecodedTile tile = Tile(index, r);
      std::set<uint32_t> rows(r.rows.begin(), r.rows.end());
      auto T = [&](int64_t ns) { return static_cast<double>(ns - tr.begin_ns); };

      // Slices: per (row, depth), unmerged ones are overlapping slices, and
      // every other overlapping slice lies in a merged bar; counts add up.
      std::map<std::pair<uint32_t, uint16_t>, std::vector<const wire::TileSlice*>> lanes;
      for (const auto& s : tile.slices)
        lanes[{s.row, s.depth}].push_back(&s);
      std::map<std::pair<uint32_t, uint16_t>, uint64_t> expected;
      std::set<uint32_t> unmerged;
      for (const auto& s : tile.slices)
        if (!(s.flags & 1)) unmerged.insert(s.ref);
      for (size_t i = 0; i < tr.slices.size(); ++i) {
        if (!rows.count(tr.slices.thread[i])) continue;
        const double b = T(tr.slices.begin[i]), e = T(tr.slices.end[i]);
        if (b > r.to || e < r.from) {
          EXPECT_FALSE(unmerged.count(static_cast<uint32_t>(i)));
          continue;
        }
        const auto key = std::make_pair(tr.slices.thread[i], tr.slices.depth[i]);
        ++expected[key];
        if (unmerged.count(static_cast<uint32_t>(i))) continue;
        bool covered = false;
        for (const wire::TileSlice* s : lanes[key])
          if ((s->flags & 1) && s->begin <= b && b <= s->end) covered = true;
        EXPECT_TRUE(covered) << "slice " << i << " seed " << seed << " q " << q;
      }
      for (const auto& [key, records] : lanes) {
        uint64_t count = 0;
        for (const wire::TileSlice* s : records)
          count += (s->flags & 1) ? s->ref : 1;
        EXPECT_EQ(count, expected[key]) << key.first << "/" << key.second;
        EXPECT_LE(records.size(), 2u * (r.width + 2));
      }
      for (const auto& [key, n] : expected)
        EXPECT_TRUE(lanes.count(key)) << n;

      // Instants: counts add up to the events in the window.
      uint64_t instants = 0, got_instants = 0;
      for (size_t i = 0; i < tr.instants.size(); ++i)
        if (rows.count(tr.instants.thread[i]) && T(tr.instants.time[i]) >= r.from &&
            T(tr.instants.time[i]) <= r.to)
          ++instants;
      for (const auto& in : tile.instants)
        got_instants += (in.flags & 1) ? in.ref : 1;
      EXPECT_EQ(got_instants, instants);

      // Arrows: counts add up to the messages crossing the window.
      uint64_t arrows = 0, got_arrows = 0;
      for (const auto& p : t.pairs.pairs) {
        const double s = T(tr.messages.time[p.send]), v = T(tr.messages.time[p.recv]);
        if ((rows.count(tr.messages.thread[p.send]) || rows.count(tr.messages.thread[p.recv])) &&
            std::min(s, v) <= r.to && std::max(s, v) >= r.from)
          ++arrows;
      }
      for (const auto& a : tile.arrows)
        got_arrows += (a.flags & 1) ? a.ref : 1;
      EXPECT_EQ(got_arrows, arrows) << "seed " << seed << " q " << q;

      // Counter points: the samples in the window, and one before it.
      const TimelineIndex::Track& track = index.track(0);
      uint64_t samples = 0, before = 0, got_samples = 0;
      for (uint32_t id : track.samples) {
        const double s = T(tr.counter_samples.time[id]);
        if (s >= r.from && s <= r.to) ++samples;
        if (s < r.from) ++before;
      }
      for (const auto& p : tile.points)
        got_samples += p.count;
      EXPECT_EQ(got_samples, samples + (before > 0 ? 1 : 0));
    }
  }
}

}  // namespace
}  // namespace plx::server
