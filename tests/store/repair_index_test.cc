// The causal repair kept in the trace index: the first repair with some
// options is written into the index, the next open with the same options
// reads it instead of repairing (and gets what repairing gives), other
// options repair again and take its place, and a repair section that does
// not fit the trace is warned about and computed again, never used; and
// however its pass is cut into slabs, the repair is the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "format/trace_file.h"
#include "store/index_file.h"
#include "store/stream_repair.h"
#include "store/trace_store.h"
#include "support/opened_store.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::store {
namespace {

// Every field, so that a field the codec forgets fails here.
std::vector<std::string> Differences(const StreamedRepair& a, const StreamedRepair& b) {
  std::vector<std::string> out;
  const time::RepairReport &x = a.report, &y = b.report;
  auto check = [&](bool same, const char* what) {
    if (!same) out.push_back(what);
  };
  check(x.before.messages == y.before.messages && x.before.collectives == y.before.collectives,
        "before");
  check(x.after.messages == y.after.messages && x.after.collectives == y.after.collectives,
        "after");
  check(x.violations_before == y.violations_before, "violations_before");
  check(x.violations_after == y.violations_after, "violations_after");
  check(x.constraints == y.constraints, "constraints");
  check(x.events_moved == y.events_moved, "events_moved");
  check(x.max_shift_ns == y.max_shift_ns, "max_shift_ns");
  check(x.max_duration_change_ns == y.max_duration_change_ns, "max_duration_change_ns");
  check(x.max_relative_change == y.max_relative_change, "max_relative_change");
  check(x.thread_max_shift_ns == y.thread_max_shift_ns, "thread_max_shift_ns");
  check(x.updates == y.updates, "updates");
  check(x.converged == y.converged, "converged");
  check(x.repairs.size() == y.repairs.size(), "repairs");
  for (size_t i = 0; i < std::min(x.repairs.size(), y.repairs.size()); ++i) {
    const time::Repair &p = x.repairs[i], &q = y.repairs[i];
    check(p.kind == q.kind && p.thread == q.thread && p.row == q.row && p.send_row == q.send_row &&
              p.time_ns == q.time_ns && p.violation_ns == q.violation_ns &&
              p.shift_ns == q.shift_ns,
          "a repair");
  }
  check(a.maps.size() == b.maps.size(), "maps");
  for (size_t t = 0; t < std::min(a.maps.size(), b.maps.size()); ++t)
    check(a.maps[t].anchors == b.maps[t].anchors && a.maps[t].shifts == b.maps[t].shifts,
          "a thread's map");
  return out;
}

class RepairIndexTest : public testing::TestTracesSuite {};

TEST_F(RepairIndexTest, TheNextOpenReadsTheRepairTheFirstKept) {
  size_t repaired = 0;
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    std::filesystem::remove(t.path + "i");
    auto plain = Open(t.path, IndexSettings{false, ""});
    ASSERT_TRUE(plain->store);
    auto expected = StreamRepair(*plain->store);
    ASSERT_TRUE(expected.ok()) << expected.status().message();
    repaired += expected->report.repairs.empty() ? 0 : 1;

    auto first = Open(t.path);
    ASSERT_TRUE(first->store);
    EXPECT_FALSE(first->store->FindRepair({}).has_value());  // the skeletons only, so far
    auto computed = StreamRepair(*first->store);
    ASSERT_TRUE(computed.ok());
    EXPECT_EQ(Differences(*computed, *expected), std::vector<std::string>{});

    auto second = Open(t.path);
    ASSERT_TRUE(second->store);
    EXPECT_TRUE(second->store->index_reused());
    ASSERT_TRUE(second->store->FindRepair({}).has_value());
    auto kept = StreamRepair(*second->store);
    ASSERT_TRUE(kept.ok());
    EXPECT_EQ(Differences(*kept, *expected), std::vector<std::string>{});
    EXPECT_EQ(second->warnings, std::vector<std::string>{});
  }
  EXPECT_GT(repaired, 0u) << "no test trace needs a repair";
}

TEST_F(RepairIndexTest, OtherOptionsRepairAgainAndTakeItsPlace) {
  const testing::TestTrace& t = traces_->front();
  std::filesystem::remove(t.path + "i");
  time::RepairOptions wide;
  wide.min_latency_ns = 5000;
  auto plain = Open(t.path, IndexSettings{false, ""});
  auto expected = StreamRepair(*plain->store, wide);
  ASSERT_TRUE(expected.ok());

  ASSERT_TRUE(StreamRepair(*Open(t.path)->store).ok());  // the defaults, kept
  auto o = Open(t.path);
  EXPECT_TRUE(o->store->FindRepair({}).has_value());
  EXPECT_FALSE(o->store->FindRepair(wide).has_value());
  auto computed = StreamRepair(*o->store, wide);
  ASSERT_TRUE(computed.ok());
  EXPECT_EQ(Differences(*computed, *expected), std::vector<std::string>{});
  auto again = Open(t.path);
  EXPECT_FALSE(again->store->FindRepair({}).has_value());
  ASSERT_TRUE(again->store->FindRepair(wide).has_value());
  EXPECT_EQ(Differences(*StreamRepair(*again->store, wide), *expected), std::vector<std::string>{});
}

TEST_F(RepairIndexTest, ARepairThatDoesNotFitIsComputedAgain) {
  const testing::TestTrace& t = traces_->front();
  const std::string index = t.path + "i";
  std::filesystem::remove(index);
  auto o = Open(t.path);
  ASSERT_TRUE(o->store);
  auto expected = StreamRepair(*o->store);
  ASSERT_TRUE(expected.ok());
  ASSERT_GT(o->store->threads(), 0u);

  const std::vector<uint8_t> bytes = ReadBytes(index);
  auto contents = DecodeIndex(bytes, index, /*with_repair=*/true);
  ASSERT_TRUE(contents.ok()) << contents.status().message();
  ASSERT_TRUE(contents->repair);
  // Each a well-formed section that names what the trace does not have.
  std::vector<IndexedRepair> bad(4, *contents->repair);
  bad[0].maps.pop_back();           // a thread short
  bad[1].maps[0].anchors = {5, 5};  // anchors not ascending
  bad[1].maps[0].shifts = {1, 2};
  bad[2].maps[0].anchors = {1};
  bad[2].maps[0].shifts = {int64_t{1} << 61};  // a shift past any trace
  bad[3].report.repairs.push_back({time::CausalConstraints::Kind::kMessage, 0,
                                   std::numeric_limits<uint32_t>::max() - 1});  // no such row
  for (IndexedRepair& r : bad) {
    IndexContents damaged{contents->identity, contents->skeletons, std::move(r), {}, {}, {}};
    WriteBytes(index, EncodeIndex(damaged));
    auto reopened = Open(t.path);
    ASSERT_TRUE(reopened->store);
    EXPECT_TRUE(reopened->store->index_reused());  // the skeletons still fit
    auto again = StreamRepair(*reopened->store);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(Differences(*again, *expected), std::vector<std::string>{});
    ASSERT_EQ(reopened->warnings.size(), 1u);
    EXPECT_NE(reopened->warnings[0].find("repairing again"), std::string::npos)
        << reopened->warnings[0];
  }
}

// The repair's pass cut into slabs of a few records with a 1 ns first
// horizon: many slabs handed to the solver's thread, attempts that stop
// early (records further out of order than the horizon, a window too short)
// and start again. The repair is the one the default cut gives; only the
// count of shift updates, which follows the order constraints come in, may
// differ.
TEST_F(RepairIndexTest, TinySlabsAndAttemptsThatStopEarlyRepairAlike) {
  size_t repaired = 0;
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    auto plain = Open(t.path, IndexSettings{false, ""});
    ASSERT_TRUE(plain->store);
    auto expected = StreamRepair(*plain->store);
    ASSERT_TRUE(expected.ok()) << expected.status().message();
    repaired += expected->report.repairs.empty() ? 0 : 1;
    for (uint64_t slab : {1u, 8u, 100u}) {
      SCOPED_TRACE(slab);
      auto cut = StreamRepair(*plain->store, {}, {}, RepairPassSize{slab, 1});
      ASSERT_TRUE(cut.ok()) << cut.status().message();
      cut->report.updates = expected->report.updates;
      EXPECT_EQ(Differences(*cut, *expected), std::vector<std::string>{});
    }
  }
  EXPECT_GT(repaired, 0u) << "no test trace needs a repair";
}

TEST(RepairSectionTest, ExtremeValuesRoundTrip) {
  IndexContents c;
  c.repair.emplace();
  IndexedRepair& r = *c.repair;
  r.options.min_latency_ns = std::numeric_limits<int64_t>::max();
  r.options.max_slope = 1e-300;
  r.options.max_updates = std::numeric_limits<uint64_t>::max();
  r.report.max_shift_ns = std::numeric_limits<int64_t>::min();
  r.report.max_relative_change = -0.0;
  r.report.converged = false;
  r.report.thread_max_shift_ns = {std::numeric_limits<int64_t>::min(), 0};
  r.report.repairs.push_back({time::CausalConstraints::Kind::kCollective, 7, 9, model::kNone,
                              std::numeric_limits<int64_t>::min(), -1,
                              std::numeric_limits<int64_t>::max()});
  r.maps.resize(2);
  r.maps[1].anchors = {std::numeric_limits<int64_t>::min(), 0, std::numeric_limits<int64_t>::max()};
  r.maps[1].shifts = {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(), 3};
  for (bool compress : {false, true}) {
    auto back = DecodeIndex(EncodeIndex(c, compress), "x.plxi", /*with_repair=*/true);
    ASSERT_TRUE(back.ok()) << back.status().message();
    ASSERT_TRUE(back->repair);
    EXPECT_TRUE(SameRepairOptions(back->repair->options, r.options));
    EXPECT_EQ(Differences({back->repair->report, back->repair->maps}, {r.report, r.maps}),
              std::vector<std::string>{});
    EXPECT_TRUE(std::signbit(back->repair->report.max_relative_change));
    auto without = DecodeIndex(EncodeIndex(c, compress), "x.plxi");
    ASSERT_TRUE(without.ok());
    EXPECT_FALSE(without->repair);  // skipped unread
  }
}

}  // namespace
}  // namespace plx::store
