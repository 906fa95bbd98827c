// TimelineIndex::Build on hand-built traces: depths, lanes and their summary
// pyramids (by slice index and by time), counter tracks, message channels, progress and memory.
#include "server/timeline/timeline_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "timeline_test_trace.h"

namespace plx::server {
namespace {

TEST(TimelineIndexTest, MaxDepthPerRow) {
  testing::TimelineTrace t(3);
  t.Slice(0, 0, 100, 1);
  t.Slice(0, 10, 50, 2, 1);
  t.Slice(0, 20, 30, 3, 2);
  t.Slice(2, 5, 6, 1);
  t.Finish(0, 100);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  EXPECT_EQ(index.max_depth(0), 2);
  EXPECT_EQ(index.max_depth(1), 0);  // no slices
  EXPECT_EQ(index.max_depth(2), 0);
  EXPECT_EQ(index.max_depth(7), 0);  // no such row
  ASSERT_NE(index.lane(0, 2), nullptr);
  EXPECT_EQ(index.lane(0, 2)->count, 1u);
  EXPECT_EQ(index.slice_id(*index.lane(0, 1), 0), 1u);
  EXPECT_EQ(index.lane(0, 3), nullptr);
  EXPECT_EQ(index.lane(1, 0)->count, 0u);
}

TEST(TimelineIndexTest, LanesKeepBeginOrderAndSummarise) {
  testing::TimelineTrace t(1);
  // 16 * 8 + 5 slices at depth 0: state 1 long, states 2 short.
  for (int i = 0; i < 133; ++i)
    t.Slice(0, i * 100, i * 100 + (i % 4 == 0 ? 90 : 10), i % 4 == 0 ? 1 : 2);
  t.Finish(0, 13300);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  const TimelineIndex::Lane& lane = *index.lane(0, 0);
  EXPECT_EQ(lane.count, 133u);
  ASSERT_EQ(lane.sampled_begin.size(), 9u);
  EXPECT_EQ(lane.sampled_begin[1], 1600);
  ASSERT_EQ(lane.levels.size(), 2u);  // 8 blocks of 16, 1 of 128
  EXPECT_EQ(lane.levels[0].size(), 8u);
  EXPECT_EQ(lane.levels[1].size(), 1u);
  // Per block of 16: state 1 covers 4 * 90 ns, state 2 12 * 10 ns.
  EXPECT_EQ(lane.levels[0][3].state, 1u);
  EXPECT_FLOAT_EQ(lane.levels[0][3].ns, 360.f);
  EXPECT_EQ(lane.levels[1][0].state, 1u);
  EXPECT_FLOAT_EQ(lane.levels[1][0].ns, 8 * 360.f);
}

TEST(TimelineIndexTest, TimeBucketsSummariseByTime) {
  testing::TimelineTrace t(1);
  // Irregular gaps; state 1 long, state 2 short, state 3 once very long.
  int64_t now = 0;
  std::vector<std::tuple<int64_t, int64_t, uint32_t>> slices;
  for (int i = 0; i < 5000; ++i) {
    const int64_t d = i == 2500 ? 40000 : (i % 3 == 0 ? 50 : 7);
    const uint32_t state = i == 2500 ? 3 : (i % 3 == 0 ? 1 : 2);
    t.Slice(0, now, now + d, state);
    slices.emplace_back(now, now + d, state);
    now += d + (i % 7) * 13 + 1;
  }
  t.Finish(0, now);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  const TimelineIndex::Lane& lane = *index.lane(0, 0);
  ASSERT_FALSE(lane.time_levels.empty());
  EXPECT_EQ(lane.t0, 0);
  EXPECT_EQ(lane.bucket_ns & (lane.bucket_ns - 1), 0);  // a power of two
  EXPECT_LE(lane.time_levels[0].size(), lane.count / TimelineIndex::kBlock + 1);
  EXPECT_EQ(lane.time_levels.back().size(), 1u);
  EXPECT_EQ(lane.time_levels.back()[0].count, lane.count);
  EXPECT_GE(lane.time_levels.back()[0].max_ns, 40000.f);
  // Level 0 against brute force: count, longest slice, dominant state.
  const std::vector<TimelineIndex::TimeBucket>& l0 = lane.time_levels[0];
  for (size_t b = 0; b < l0.size(); ++b) {
    const int64_t lo = lane.t0 + static_cast<int64_t>(b) * lane.bucket_ns;
    const int64_t hi = lo + lane.bucket_ns;
    uint32_t count = 0;
    int64_t longest = -1;
    std::map<uint32_t, int64_t> ns;
    for (const auto& [sb, se, state] : slices) {
      if (sb < lo || sb >= hi) continue;
      ++count;
      longest = std::max(longest, se - sb);
      ns[state] += se - sb;
    }
    EXPECT_EQ(l0[b].count, count) << b;
    if (count == 0) {
      EXPECT_LT(l0[b].max_ns, 0.f);
      continue;
    }
    EXPECT_GE(l0[b].max_ns, static_cast<float>(longest));
    EXPECT_LE(l0[b].max_ns, static_cast<float>(longest) * 1.001f);
    const auto best = std::max_element(
        ns.begin(), ns.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    EXPECT_EQ(l0[b].state, best->first) << b;
    EXPECT_FLOAT_EQ(l0[b].ns, static_cast<float>(best->second)) << b;
  }
  // Every level's counts add up; a bucket's longest is its children's.
  for (size_t k = 1; k < lane.time_levels.size(); ++k) {
    const auto& below = lane.time_levels[k - 1];
    const auto& level = lane.time_levels[k];
    EXPECT_EQ(level.size(),
              (below.size() + TimelineIndex::kTimeFanout - 1) / TimelineIndex::kTimeFanout);
    for (size_t b = 0; b < level.size(); ++b) {
      uint32_t count = 0;
      float longest = -1;
      for (size_t c = b * TimelineIndex::kTimeFanout;
           c < std::min(below.size(), (b + 1) * TimelineIndex::kTimeFanout); ++c) {
        count += below[c].count;
        longest = std::max(longest, below[c].max_ns);
      }
      EXPECT_EQ(level[b].count, count);
      EXPECT_EQ(level[b].max_ns, longest);
    }
  }
  // Short lanes have none.
  testing::TimelineTrace few(1);
  few.Slice(0, 0, 10, 1);
  few.Finish(0, 10);
  EXPECT_TRUE(TimelineIndex::Build(few.trace, few.pairs).lane(0, 0)->time_levels.empty());
}

TEST(TimelineIndexTest, CounterTracksByThreadThenCounter) {
  testing::TimelineTrace t(3);
  t.Sample(0, 10, 2, 5);
  t.Sample(0, 11, 0, -1);
  t.Sample(0, 20, 2, 7);
  t.Sample(0, 30, 2, 1);
  t.Sample(2, 5, 1, 3.5);
  t.Finish(0, 100);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  const auto& tracks = index.counter_tracks();
  ASSERT_EQ(tracks.size(), 3u);
  EXPECT_EQ(tracks[0].thread, 0u);
  EXPECT_EQ(tracks[0].counter, 0u);
  EXPECT_EQ(tracks[0].samples, 1u);
  EXPECT_EQ(tracks[1].thread, 0u);
  EXPECT_EQ(tracks[1].counter, 2u);
  EXPECT_EQ(tracks[1].samples, 3u);
  EXPECT_EQ(tracks[1].min, 1);
  EXPECT_EQ(tracks[1].max, 7);
  EXPECT_EQ(tracks[2].thread, 2u);
  EXPECT_EQ(tracks[2].counter, 1u);
  EXPECT_EQ(tracks[2].min, 3.5);
  EXPECT_EQ(index.track(1).samples, (std::vector<uint32_t>{0, 2, 3}));
}

TEST(TimelineIndexTest, ChannelsAndLongMessages) {
  testing::TimelineTrace t(3);
  // 2000 messages 0 -> 1 of latency 10, one of latency 100000; 1 -> 0 one.
  for (int i = 0; i < 2000; ++i)
    t.Message(0, i * 100, 1, i * 100 + 10);
  const uint32_t long_send = t.Message(0, 50, 1, 100050);
  t.Message(1, 500, 0, 400);  // negative latency (unrepaired)
  t.Finish(0, 300000);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  ASSERT_EQ(index.channels().size(), 2u);
  EXPECT_EQ(index.channels()[0].from_row, 0u);
  EXPECT_EQ(index.channels()[0].to_row, 1u);
  EXPECT_EQ(index.channels()[0].count, 2001u);
  EXPECT_EQ(index.channels()[0].max_short_latency, 10);
  EXPECT_EQ(index.channels_from_begin(1), 1u);
  EXPECT_EQ(index.channels_from_end(1), 2u);
  EXPECT_EQ(index.channels_to(0), (std::vector<uint32_t>{1}));
  ASSERT_EQ(index.long_arrows().size(), 2u);
  EXPECT_EQ(index.arrow_send_row(index.long_arrows()[0]), long_send);
  EXPECT_TRUE(index.is_long(index.long_arrows()[1]));
  // Sorted by send time within the channel.
  for (uint64_t k = 1; k < 2001; ++k)
    EXPECT_LE(index.arrow_send(k - 1), index.arrow_send(k));
}

TEST(TimelineIndexTest, ProgressAndModestMemory) {
  testing::TimelineTrace t(4);
  const int per_row = 100000;
  for (uint32_t r = 0; r < 4; ++r)
    for (int i = 0; i < per_row; ++i) {
      t.Slice(r, i * 10, i * 10 + 9, 1);
      t.Slice(r, i * 10 + 1, i * 10 + 5, 2, 1);
    }
  t.Finish(0, per_row * 10);
  uint64_t last_done = 0, last_total = 0, calls = 0;
  const TimelineIndex index =
      TimelineIndex::Build(t.trace, t.pairs, [&](uint64_t done, uint64_t total) {
        EXPECT_GE(done, last_done);
        last_done = done;
        last_total = total;
        ++calls;
      });
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(last_done, last_total);
  EXPECT_EQ(last_total, t.trace.slices.size());
  const double per_slice = static_cast<double>(index.memory_bytes()) / t.trace.slices.size();
  EXPECT_LT(per_slice, 8.0);
  EXPECT_GT(per_slice, 4.0);
}

TEST(TimelineIndexTest, EmptyTrace) {
  testing::TimelineTrace t(0);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  EXPECT_EQ(index.rows(), 0u);
  EXPECT_TRUE(index.counter_tracks().empty());
  EXPECT_GT(index.memory_bytes(), 0u);
}

}  // namespace
}  // namespace plx::server
