// The server's statistics and analyses in the trace index: found again only
// for what they were made with, kept beside the repair and the summary (and
// dropped with a repair of other options), never used when they do not fit
// the trace, and their codec refuses any cut. That the answers read back are
// the computed ones is server/store_analyses_test.cc's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/index_file.h"
#include "store/index_results.h"
#include "store/mountain_bins.h"
#include "store/stream_repair.h"
#include "store/timeline_summary.h"
#include "support/opened_store.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::store {
namespace {

class ResultsIndexTest : public testing::TestTracesSuite {};

// Results shaped for `store`'s trace, with a row or a wait in each part.
IndexedStatistics StatisticsOf(const TraceStore& store, const time::RepairOptions& repair) {
  IndexedStatistics s;
  s.repair = repair;
  const model::Trace& trace = store.trace();
  analysis::StateStats row;
  row.state = 0;
  row.count = 3;
  row.total_ns = 30;
  row.mean_ns = 10;
  s.report.all.states = {row};
  s.report.processes.resize(trace.processes.size());
  s.report.threads.resize(trace.threads.size());
  s.report.threads[0].states = {row};
  s.callsites = {row};
  s.mountain = MountainBins(trace, 1 << 16).Counts();
  s.mountain.ns[0] = 7;
  return s;
}

IndexedAnalyses AnalysesOf(const TraceStore& store, const time::RepairOptions& repair) {
  IndexedAnalyses a;
  a.key.repair = repair;
  a.key.longest_waits = 10;
  const model::Trace& trace = store.trace();
  const size_t processes = trace.processes.size(), threads = trace.threads.size();
  a.repair.thread_max_shift_ns.assign(threads, 0);
  a.waits.processes.resize(processes);
  a.waits.threads.resize(threads);
  analysis::WaitInstance wait;
  wait.slice = 0;
  wait.wait_ns = 5;
  wait.thread = 0;
  a.waits.instances = {wait};
  a.path.processes.assign(processes, 0);
  analysis::CommMatrixBuilder matrix(processes);
  matrix.AddPair(0, 0, 8, 10);
  matrix.AddPair(0, 0, 8, 30);
  if (processes > 1) matrix.AddPair(static_cast<uint32_t>(processes - 1), 0, 4, -5);
  a.matrix = matrix.Finish();
  a.rma = analysis::RmaMatrixBuilder(trace).matrix();
  return a;
}

std::string MpiTrace(const std::vector<testing::TestTrace>& traces) {
  for (const testing::TestTrace& tt : traces)
    if (tt.name.find("mpi") != std::string::npos) return tt.path;
  return "";
}

TEST_F(ResultsIndexTest, FoundOnlyForWhatTheyWereMadeWithAndKeptBesideTheRest) {
  testing::TempDir dir;
  const std::string path = MpiTrace(*traces_);
  ASSERT_FALSE(path.empty());
  IndexSettings settings;
  settings.dir = dir.path();
  auto o = Open(path, settings);
  ASSERT_TRUE(o->store);
  const time::RepairOptions options;
  auto repair = StreamRepair(*o->store, options);  // keeps the repair
  ASSERT_TRUE(repair.ok()) << repair.status().message();
  IndexedSummary summary{options, BuildTimelineSummary(*o->store, &repair->maps, 1 << 20)};
  o->store->KeepSummary(&summary);
  EXPECT_FALSE(o->store->FindStatistics(options).has_value());

  IndexedStatistics statistics = StatisticsOf(*o->store, options);
  IndexedAnalyses analyses = AnalysesOf(*o->store, options);
  o->store->KeepStatistics(&statistics);
  o->store->KeepAnalyses(&analyses);
  EXPECT_EQ(statistics.mountain.ns[0], 7) << "lent, not taken";
  EXPECT_EQ(analyses.waits.instances.size(), 1u) << "lent, not taken";
  // Kept again: replaced, not added (the other sections copied as they are).
  const std::string index = o->store->index_path();
  const size_t size = ReadBytes(index).size();
  statistics.mountain.ns[0] = 8;
  o->store->KeepStatistics(&statistics);
  EXPECT_EQ(ReadBytes(index).size(), size);

  auto again = Open(path, settings);
  ASSERT_TRUE(again->store);
  const TraceStore& store = *again->store;
  auto s = store.FindStatistics(options);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->report.threads[0].states.size(), 1u);
  EXPECT_EQ(s->callsites[0].total_ns, 30);
  EXPECT_EQ(s->mountain.ns, statistics.mountain.ns);
  auto a = store.FindAnalyses(analyses.key);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->waits.instances.size(), 1u);
  EXPECT_EQ(a->matrix.at(0, 0).count, 2u);
  EXPECT_EQ(a->matrix.at(0, 0).mean_latency_ns, 20.0);
  EXPECT_EQ(a->matrix.keys, analyses.matrix.keys);
  EXPECT_EQ(a->matrix.cells.size(), analyses.matrix.cells.size());
  EXPECT_TRUE(store.FindSummary(options).has_value()) << "the summary stays";
  EXPECT_TRUE(store.FindRepair(options).has_value()) << "the repair stays";

  AnalysesKey more = analyses.key;
  more.longest_waits += 1;
  EXPECT_FALSE(store.FindAnalyses(more).has_value());
  AnalysesKey stricter = analyses.key;
  stricter.anomalies.threshold += 1;
  EXPECT_FALSE(store.FindAnalyses(stricter).has_value());
  time::RepairOptions other = options;
  other.min_latency_ns += 1;
  EXPECT_FALSE(store.FindStatistics(other).has_value());

  // A repair of other options replaces everything on the old one's times.
  IndexedRepair replaced{other, repair->report, repair->maps};
  store.KeepRepair(&replaced);
  EXPECT_FALSE(store.FindStatistics(options).has_value());
  EXPECT_FALSE(store.FindAnalyses(analyses.key).has_value());
  EXPECT_TRUE(again->warnings.empty()) << again->warnings.front();
}

TEST_F(ResultsIndexTest, ResultsThatDoNotFitAreNotUsed) {
  testing::TempDir dir;
  const std::string path = MpiTrace(*traces_);
  IndexSettings settings;
  settings.dir = dir.path();
  auto o = Open(path, settings);
  ASSERT_TRUE(o->store);
  const time::RepairOptions options;
  const model::Trace& trace = o->store->trace();

  IndexedStatistics statistics = StatisticsOf(*o->store, options);
  statistics.report.all.states[0].state = static_cast<uint32_t>(trace.states.size());
  o->store->KeepStatistics(&statistics);
  EXPECT_FALSE(o->store->FindStatistics(options).has_value());

  IndexedAnalyses analyses = AnalysesOf(*o->store, options);
  analyses.waits.instances[0].thread = static_cast<uint32_t>(trace.threads.size());
  o->store->KeepAnalyses(&analyses);
  EXPECT_FALSE(o->store->FindAnalyses(analyses.key).has_value());
  ASSERT_EQ(o->warnings.size(), 2u);
  EXPECT_NE(o->warnings[0].find("statistics do not fit"), std::string::npos) << o->warnings[0];
  EXPECT_NE(o->warnings[1].find("analyses do not fit"), std::string::npos) << o->warnings[1];

  // Bins of another span are computed again.
  IndexedStatistics wide = StatisticsOf(*o->store, options);
  wide.mountain.bins += 1;
  wide.mountain.ns.resize(wide.mountain.bins * wide.mountain.states);
  EXPECT_EQ(MountainBins::FromCounts(trace, wide.mountain, 1 << 20), nullptr);
  EXPECT_NE(MountainBins::FromCounts(trace, StatisticsOf(*o->store, options).mountain, 1 << 20),
            nullptr);
}

// The fuzzer's seeds are whole sections; no cut of them is.
TEST(ResultsCodecTest, SeedsReadWholeAndNoCutDoes) {
  const auto check = [](const std::string& name, const auto& get) {
    const std::vector<uint8_t> bytes =
        ReadBytes(testing::SourcePath("tests/fuzz/index_inputs/" + name));
    ASSERT_FALSE(bytes.empty()) << name;
    {
      IndexReader r(bytes.data(), bytes.data() + bytes.size());
      EXPECT_TRUE(get(&r) && r.at_end()) << name;
    }
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      IndexReader r(bytes.data(), bytes.data() + cut);
      EXPECT_FALSE(get(&r) && r.at_end()) << name << " cut at " << cut;
    }
  };
  check("statistics", [](IndexReader* r) {
    IndexedStatistics s;
    return GetStatistics(r, &s, 1 << 16);
  });
  check("analyses", [](IndexReader* r) {
    IndexedAnalyses a;
    return GetAnalyses(r, &a, 64);
  });
  // A matrix of more processes than allowed is refused before it is made.
  const std::vector<uint8_t> bytes =
      ReadBytes(testing::SourcePath("tests/fuzz/index_inputs/analyses"));
  IndexReader r(bytes.data(), bytes.data() + bytes.size());
  IndexedAnalyses a;
  EXPECT_FALSE(GetAnalyses(&r, &a, 1));
}

}  // namespace
}  // namespace plx::store
