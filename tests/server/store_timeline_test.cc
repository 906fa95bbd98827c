// A trace served from its file draws what the in-memory server draws: on
// every test trace (support/test_traces.h), a tile whose pixels are finer
// than the timeline summary's buckets is byte for byte the in-memory tile
// (without arrows), and a coarse tile from the summary holds every slice,
// instant and counter sample of its rows once. The summary is kept in the
// trace's index and read on the next open.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "served_both_ways.h"
#include "server/api/api.h"
#include "server/api/served_trace.h"
#include "server/timeline/tile_builder.h"
#include "support/test_support.h"
#include "support/test_traces.h"
#include "time/message_pairs.h"

namespace plx::server {
namespace {

class StoreTimelineTest : public testing::TestTracesSuite {
 protected:
  // The trace loaded as the server loads it: whole (max_records high) or
  // from its file, its index in `index_dir`, with a budget so small that
  // summaries double their buckets and decoded chunks are evicted at once.
  static std::unique_ptr<ServedTrace> Load(const std::string& path, bool from_file,
                                           const std::string& index_dir) {
    auto t = std::make_unique<ServedTrace>("t", path);
    StoreServing serving;
    serving.index.dir = index_dir;
    serving.memory_bytes = 64 << 10;
    t->ServeLargeFromFile(serving, from_file ? 0 : UINT64_MAX);
    t->Load({});
    return t;
  }
  // The trace loaded both ways; nothing when it does not load, or when it
  // has no record (then it is never over a budget).
  struct Both {
    std::unique_ptr<ServedTrace> memory, file;
  };
  static std::optional<Both> LoadBoth(const std::string& path, const std::string& index_dir) {
    Both b{Load(path, false, index_dir), nullptr};
    if (!b.memory->ready()) return std::nullopt;
    b.file = Load(path, true, index_dir);
    EXPECT_TRUE(b.file->ready()) << b.file->progress().error;
    if (!b.file->ready() || !b.file->from_store()) return std::nullopt;
    return b;
  }
  static std::vector<uint32_t> AllRows(const model::Trace& t) {
    std::vector<uint32_t> rows(t.threads.size());
    for (uint32_t r = 0; r < rows.size(); ++r)
      rows[r] = r;
    return rows;
  }
  static std::vector<uint32_t> AllRows(const ServedTrace& t) { return AllRows(t.trace()); }
  // Tiles of 7 windows whose pixels are finer than every thread's buckets,
  // from `st` and from `memory` (the index of trace `t`), byte for byte;
  // how many were compared.
  static int CompareFineTiles(const TimelineIndex& memory, const model::Trace& t,
                              const StoreTimeline& st) {
    int64_t finest = INT64_MAX;
    for (const auto& ts : st.summary().threads)
      finest = std::min(finest, ts.instants.bucket_ns);
    EXPECT_EQ(st.counter_tracks().size(), memory.counter_tracks().size());
    const double duration = static_cast<double>(t.end_ns - t.begin_ns);
    const uint32_t width = 400;
    const double span = std::min(duration + 2, static_cast<double>(finest) * width / 4);
    int compared = 0;
    for (int k = 0; k < 7; ++k) {
      TileRequest r;
      r.rows = AllRows(t);
      r.from = -1 + (duration + 2 - span) * k / 6.0;
      r.to = r.from + span;
      r.width = width;
      r.arrows = false;
      for (uint32_t c = 0; c < st.counter_tracks().size(); ++c)
        r.counters.push_back(c);
      std::string want, got;
      EXPECT_TRUE(BuildTile(memory, r, &want).ok());
      EXPECT_TRUE(st.Tile(r, &got).ok());
      EXPECT_EQ(got, want) << "window " << r.from << " .. " << r.to;
      got.clear();
      EXPECT_TRUE(st.Tile(r, &got).ok());  // chunks from the cache, where still there
      EXPECT_EQ(got, want) << "again, window " << r.from << " .. " << r.to;
      ++compared;
    }
    return compared;
  }
};

TEST_F(StoreTimelineTest, FineTilesAreTheInMemoryTiles) {
  testing::TempDir index;
  int compared = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    auto memory = Load(tt.path, false, index.path());
    auto file = Load(tt.path, true, index.path());
    if (memory->progress().status == LoadStatus::kFailed) {
      EXPECT_EQ(file->progress().status, LoadStatus::kFailed);
      continue;
    }
    ASSERT_TRUE(file->ready()) << file->progress().error;
    if (file->file_records() == 0) continue;  // nothing over any budget
    ASSERT_TRUE(file->from_store());
    const model::Trace& t = memory->trace();
    ASSERT_EQ(file->trace().begin_ns, t.begin_ns);
    ASSERT_EQ(file->trace().end_ns, t.end_ns);
    compared += CompareFineTiles(memory->index(), t, file->store_timeline());
  }
  EXPECT_GT(compared, 20);
}

// Without the repair in the index, the recorded times are served first:
// tiles as the in-memory ones of the trace left unrepaired; then the
// repaired timeline replaces them, and the next open reads the repair.
TEST_F(StoreTimelineTest, TheRecordedTimesAreServedWhileTheRepairRuns) {
  testing::TempDir index;
  int compared = 0, repaired = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    StatusOr<std::unique_ptr<format::TraceFile>> opened = format::TraceFile::Open(tt.path);
    if (!opened.ok() || (*opened)->total_records() == 0) continue;
    StatusOr<model::Trace> unrepaired = model::LoadTrace(**opened);
    if (!unrepaired.ok()) continue;
    const time::MessagePairs pairs = time::MatchMessages(*unrepaired);
    const TimelineIndex memory = TimelineIndex::Build(*unrepaired, pairs, {});

    TraceStore served;
    StoreServing serving;
    serving.index.dir = index.path();
    serving.memory_bytes = 64 << 10;
    ServedTrace& file = served.Add(tt.path);
    file.ServeLargeFromFile(serving, 0);
    Api api(served);
    std::shared_ptr<StoreTimeline> recorded;
    std::string summary;
    file.Load([&](const LoadProgressInfo& p) {
      if (p.status != LoadStatus::kReady || p.phase != "recorded") return;
      recorded = file.store_timeline_held();
      summary = api.Handle("/traces/" + file.id() + "/summary", "").body;
    });
    ASSERT_TRUE(file.ready()) << file.progress().error;
    ASSERT_NE(recorded, nullptr);
    EXPECT_TRUE(recorded->recorded_times());
    EXPECT_NE(summary.find("\"repairing\":true"), std::string::npos) << summary;
    EXPECT_EQ(recorded->trace().begin_ns, unrepaired->begin_ns);
    compared += CompareFineTiles(memory, *unrepaired, *recorded);

    EXPECT_FALSE(file.repairing());
    EXPECT_FALSE(file.store_timeline().recorded_times());
    summary = api.Handle("/traces/" + file.id() + "/summary", "").body;
    EXPECT_NE(summary.find("\"repairing\":false"), std::string::npos) << summary;
    repaired += !file.store_timeline().repair().repairs.empty();

    ServedTrace& again = served.Add(tt.path);
    again.ServeLargeFromFile(serving, 0);
    bool early = false;
    again.Load([&](const LoadProgressInfo& p) { early |= p.phase == "recorded"; });
    EXPECT_FALSE(early) << "the index holds the repair";
  }
  EXPECT_GT(compared, 20);
  EXPECT_GT(repaired, 0);  // some traces' times differ
}

TEST_F(StoreTimelineTest, CoarseTilesHoldEveryRecordOnce) {
  testing::TempDir index;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    std::optional<Both> both = LoadBoth(tt.path, index.path());
    if (!both) continue;
    const auto& [memory, file] = *both;
    const model::Trace& t = memory->trace();
    const StoreTimeline& st = file->store_timeline();
    TileRequest r;
    r.rows = AllRows(*memory);
    r.from = 0;
    // One pixel of four times the trace: wider than any thread's buckets
    // (at most twice its span), so every row comes from the summary.
    r.to = 4.0 * static_cast<double>(t.end_ns - t.begin_ns) + 4;
    r.width = 1;
    for (uint32_t c = 0; c < st.counter_tracks().size(); ++c)
      r.counters.push_back(c);
    std::string got;
    ASSERT_TRUE(st.Tile(r, &got).ok());
    const TileRecords records = ReadTile(got);
    uint64_t slices = 0, instants = 0, samples = 0;
    for (const wire::TileSlice& s : records.slices) {
      EXPECT_EQ(s.flags, 1);
      EXPECT_LT(s.state, t.states.size());
      EXPECT_LE(s.begin, s.end);
      slices += s.ref;
    }
    for (const wire::TileInstant& i : records.instants)
      instants += i.ref;
    for (const wire::TileCounterPoint& p : records.points)
      samples += p.count;
    EXPECT_EQ(slices, t.slices.size());
    EXPECT_EQ(instants, t.instants.size());
    EXPECT_EQ(samples, t.counter_samples.size());
    EXPECT_EQ(st.slices(), t.slices.size());
    for (uint32_t row = 0; row < t.threads.size(); ++row)
      EXPECT_EQ(st.max_depth(row), memory->index().max_depth(row)) << "row " << row;
    // And the same statistics.
    EXPECT_EQ(file->stats().all.states.size(), memory->stats().all.states.size());
  }
}

TEST_F(StoreTimelineTest, CoarseTilesShowSlicesReachingIntoTheWindow) {
  testing::TempDir index;
  int reaching = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    std::optional<Both> both = LoadBoth(tt.path, index.path());
    if (!both) continue;
    const auto& [memory, file] = *both;
    const model::Trace& t = memory->trace();
    const double duration = static_cast<double>(t.end_ns - t.begin_ns);
    for (double at : {0.3, 0.5, 0.7}) {
      TileRequest r;
      r.rows = AllRows(*memory);
      r.from = std::floor(duration * at);
      r.to = r.from + 4 * duration + 4;  // one pixel wider than any bucket
      r.width = 1;
      std::string got;
      ASSERT_TRUE(file->store_timeline().Tile(r, &got).ok());
      const TileRecords records = ReadTile(got);
      const model::SliceTable& s = t.slices;
      for (size_t i = 0; i < s.size(); ++i) {
        const double begin = static_cast<double>(s.begin[i] - t.begin_ns);
        const double end = static_cast<double>(s.end[i] - t.begin_ns);
        if (!(begin < r.from && end > r.from)) continue;
        ++reaching;
        const bool drawn = std::any_of(records.slices.begin(), records.slices.end(),
                                       [&](const wire::TileSlice& b) {
                                         return b.row == s.thread[i] && b.depth == s.depth[i] &&
                                                b.begin <= begin && b.end >= r.from;
                                       });
        EXPECT_TRUE(drawn) << "slice " << i << " [" << begin << ", " << end << "] at " << r.from;
      }
    }
  }
  EXPECT_GT(reaching, 10);
}

TEST_F(StoreTimelineTest, TheSummaryIsKeptInTheIndex) {
  testing::TempDir index;
  const std::string& path = traces_->front().path;
  auto first = Load(path, true, index.path());
  ASSERT_TRUE(first->ready()) << first->progress().error;
  auto second = Load(path, true, index.path());
  ASSERT_TRUE(second->ready()) << second->progress().error;
  EXPECT_TRUE(second->store_timeline().store().index_reused());
  EXPECT_EQ(second->store_timeline().summary(), first->store_timeline().summary());
}

TEST_F(StoreTimelineTest, BadRequestsNameTheField) {
  testing::TempDir index;
  auto file = Load(traces_->front().path, true, index.path());
  ASSERT_TRUE(file->ready());
  TileRequest r;
  r.rows = {9999};
  r.from = 0;
  r.to = 1;
  r.width = 10;
  std::string out;
  Status s = file->store_timeline().Tile(r, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("rows"), std::string::npos) << s.message();
  EXPECT_TRUE(out.empty());
  r.rows = {0};
  r.width = 0;
  EXPECT_NE(file->store_timeline().Tile(r, &out).message().find("width"), std::string::npos);
}

TEST_F(StoreTimelineTest, DetailsAreTheInMemoryDetails) {
  testing::TempDir index;
  int compared = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    const ServedTrace& memory = *both.memory;
    const ServedTrace& file = *both.file;
    Api api(both.served);
    const model::Trace& t = memory.trace();
    for (const char* kind : {"slice", "instant"}) {
      const size_t n = std::string(kind) == "slice" ? t.slices.size() : t.instants.size();
      for (size_t id = 0; id <= n; ++id) {  // and one past the last
        const std::string q = std::string("kind=") + kind + "&id=" + std::to_string(id);
        const ApiResponse want = api.Handle("/traces/" + memory.id() + "/details", q);
        const ApiResponse got = api.Handle("/traces/" + file.id() + "/details", q);
        EXPECT_EQ(got.status, want.status) << q;
        EXPECT_EQ(got.body, want.body) << q;
        ++compared;
      }
    }
    const ApiResponse message =
        api.Handle("/traces/" + file.id() + "/details", "kind=message&id=0");
    EXPECT_EQ(message.status, 501);
  }
  EXPECT_GT(compared, 1000);
}

TEST_F(StoreTimelineTest, TheApiAnswersWhatTheFileCanTell) {
  testing::TempDir index;
  const testing::TestTrace* mpi = nullptr;
  for (const testing::TestTrace& tt : *traces_)
    if (tt.name.find("mpi") != std::string::npos) mpi = &tt;
  ASSERT_NE(mpi, nullptr);
  TraceStore served;
  StoreServing serving;
  serving.index.dir = index.path();
  ServedTrace& t = served.Add(mpi->path);
  t.ServeLargeFromFile(serving, 0);
  Api api(served);
  const std::string prefix = "/traces/" + t.id() + "/";
  // As a server loads it: ready once the timeline is, the analyses after,
  // asked for again until then.
  bool checked = false;
  t.Load([&](const LoadProgressInfo& p) {
    if (p.status != LoadStatus::kReady || checked) return;
    checked = true;
    const ApiResponse waits = api.Handle(prefix + "waits", "");
    EXPECT_EQ(waits.status, 503) << waits.body;
    EXPECT_TRUE(waits.retry_after);
    EXPECT_NE(waits.body.find("/waits"), std::string::npos) << waits.body;
    // Search counts from the statistics, histograms select from the analyses.
    for (const auto& [endpoint, query] :
         {std::pair{"search", "q=MPI"}, std::pair{"histogram", "state=0"}}) {
      const ApiResponse r = api.Handle(prefix + endpoint, query);
      EXPECT_EQ(r.status, 503) << endpoint << ": " << r.body;
      EXPECT_TRUE(r.retry_after) << endpoint;
    }
  });
  EXPECT_TRUE(checked);
  ASSERT_TRUE(t.ready()) << t.progress().error;
  EXPECT_EQ(api.Handle(prefix + "waits", "").status, 200);
  EXPECT_EQ(api.Handle(prefix + "search", "q=MPI").status, 200);
  EXPECT_EQ(api.Handle(prefix + "histogram", "state=0").status, 200);
  const ApiResponse summary = api.Handle(prefix + "summary", "");
  EXPECT_EQ(summary.status, 200) << summary.body;
  EXPECT_NE(summary.body.find("\"from_file\":true"), std::string::npos) << summary.body;
  const ApiResponse tile = api.Handle(prefix + "tile", "rows=0,1&from=0&to=1000000&width=100");
  EXPECT_EQ(tile.status, 200) << tile.body;
  EXPECT_EQ(api.Handle(prefix + "stats", "").status, 200);
  EXPECT_EQ(api.Handle(prefix + "processes", "").status, 200);
  const ApiResponse lamport = api.Handle(prefix + "lamport", "from=0&to=1000000");
  EXPECT_EQ(lamport.status, 501);
  EXPECT_NE(lamport.body.find("served from its file"), std::string::npos) << lamport.body;
}

}  // namespace
}  // namespace plx::server
