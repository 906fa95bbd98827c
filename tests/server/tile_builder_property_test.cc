// BuildTile against brute force: coarse bars over many tiny slices keep
// exact counts and extents, and over random traces and windows every slice,
// instant and arrow in a tile's window is accounted for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "server/timeline/tile_builder.h"
#include "timeline_test_trace.h"

namespace plx::server {
namespace {

using testing::DecodedTile;
using testing::TimelineTrace;

DecodedTile Tile(const TimelineIndex& index, const TileRequest& request) {
  return testing::BuildDecodedTile(index, request);
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
