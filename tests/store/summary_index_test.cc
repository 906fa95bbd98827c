// The timeline summary in the trace index: it round-trips through the
// encoder (stored and compressed), is found again only for the repair it was
// built on, survives beside the repair, and a damaged one is never used.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/index_file.h"
#include "store/index_summary.h"
#include "store/stream_repair.h"
#include "store/timeline_summary.h"
#include "support/opened_store.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::store {
namespace {

class SummaryIndexTest : public testing::TestTracesSuite {};

TEST_F(SummaryIndexTest, EveryTraceRoundTrips) {
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    IndexSettings none;
    none.enabled = false;
    auto o = Open(tt.path, none);
    if (!o->store) continue;
    IndexContents c;
    c.identity = IdentityOf(*o->file, o->store->threads());
    for (uint32_t t = 0; t < o->store->threads(); ++t)
      c.skeletons.push_back(o->store->skeleton(t));
    c.summary = IndexedSummary{std::nullopt, BuildTimelineSummary(*o->store, nullptr, 1 << 20)};
    ASSERT_EQ(c.summary->summary.threads.size(), o->store->threads());
    EXPECT_TRUE(CheckSummaryFits(c.summary->summary, o->store->trace(), "x").ok());
    for (bool compress : {false, true}) {
      auto back = DecodeIndex(EncodeIndex(c, compress), "x.plxi", false, true);
      ASSERT_TRUE(back.ok()) << back.status().message();
      ASSERT_TRUE(back->summary.has_value());
      EXPECT_FALSE(back->summary->repair.has_value());
      EXPECT_EQ(back->summary->summary, c.summary->summary);
      // Not asked for: skipped.
      auto without = DecodeIndex(EncodeIndex(c, compress), "x.plxi");
      ASSERT_TRUE(without.ok());
      EXPECT_FALSE(without->summary.has_value());
    }
  }
}

TEST_F(SummaryIndexTest, FoundOnlyForItsRepairAndKeptBesideIt) {
  testing::TempDir dir;
  std::string path;
  for (const testing::TestTrace& tt : *traces_)
    if (tt.name.find("mpi") != std::string::npos) path = tt.path;
  ASSERT_FALSE(path.empty());
  IndexSettings settings;
  settings.dir = dir.path();
  auto o = Open(path, settings);
  ASSERT_TRUE(o->store);
  const time::RepairOptions options;
  auto repair = StreamRepair(*o->store, options);  // keeps the repair
  ASSERT_TRUE(repair.ok()) << repair.status().message();
  EXPECT_FALSE(o->store->FindSummary(options).has_value());
  IndexedSummary keep{options, BuildTimelineSummary(*o->store, &repair->maps, 1 << 20)};
  const TimelineSummary built = keep.summary;
  o->store->KeepSummary(&keep);
  EXPECT_EQ(keep.summary, built);  // lent, not taken

  auto again = Open(path, settings);
  ASSERT_TRUE(again->store);
  auto found = again->store->FindSummary(options);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, built);
  EXPECT_TRUE(again->store->FindRepair(options).has_value()) << "the repair stays";
  EXPECT_FALSE(again->store->FindSummary(std::nullopt).has_value());
  time::RepairOptions other = options;
  other.min_latency_ns += 1;
  EXPECT_FALSE(again->store->FindSummary(other).has_value());
}

TEST(SummaryCodecTest, DamageIsRefused) {
  IndexedSummary s;
  s.summary.threads.resize(1);
  ThreadSummary& t = s.summary.threads[0];
  t.origin = 100;
  t.instants.bucket_ns = 8;
  t.instants.levels = {{}};
  t.depths.resize(1);
  t.depths[0].bucket_ns = 8;
  t.depths[0].levels = {{SliceBucket{0, 5, 2, 7}, SliceBucket{}, SliceBucket{0, 3, 1, 3}}};
  BuildLevels(&t.depths[0]);
  IndexWriter w;
  PutSummary(&w, s);
  const std::vector<uint8_t> bytes = w.bytes();
  {
    IndexReader r(bytes.data(), bytes.data() + bytes.size());
    IndexedSummary back;
    ASSERT_TRUE(GetSummary(&r, &back));
    EXPECT_TRUE(r.at_end());
    EXPECT_EQ(back.summary, s.summary);
    ASSERT_EQ(back.summary.threads[0].depths[0].levels.size(), 2u);
    EXPECT_EQ(back.summary.threads[0].depths[0].levels[1][0].count, 3u);
  }
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    IndexReader r(bytes.data(), bytes.data() + cut);
    IndexedSummary back;
    EXPECT_FALSE(GetSummary(&r, &back) && r.at_end()) << "cut at " << cut;
  }
  model::Trace defs;  // no states: the bucket's state 0 is not defined
  defs.threads.resize(1);
  EXPECT_FALSE(CheckSummaryFits(s.summary, defs, "x").ok());
}

}  // namespace
}  // namespace plx::store
