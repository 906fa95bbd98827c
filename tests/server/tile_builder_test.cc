// BuildTile: exact tiles of small hand-built traces (nesting, merging, dominant
// state, instants, arrows, counters), bad requests and output bounds on a huge
// row. Brute-force and random checks: tile_builder_property_test.cc.
#include "server/timeline/tile_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <tuple>

#include "timeline_test_trace.h"

namespace plx::server {
namespace {

using testing::DecodedTile;
using testing::DecodeTile;
using testing::TimelineTrace;

DecodedTile Tile(const TimelineIndex& index, const TileRequest& request) {
  return testing::BuildDecodedTile(index, request);
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

}  // namespace
}  // namespace plx::server
