// Every chunk decoded on its own, from the thread's skeleton, gives exactly
// the rows the whole-trace loader gives it: the model assembled from chunks
// (store::LoadModel) equals model::LoadTrace on every test trace, on one
// worker or several. The parallel loader equals the sequential one too.
#include "store/chunk_decoder.h"

#include <gtest/gtest.h>

#include "base/thread_pool.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "store/model_loader.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"
#include "support/model_equality.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::store {
namespace {

class ChunkDecoderTest : public testing::TestTracesSuite {};

model::Trace Sequential(const format::TraceFile& file) {
  auto trace = model::LoadTrace(file);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return std::move(*trace);
}

TEST_F(ChunkDecoderTest, ModelFromChunksEqualsTheLoader) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    auto file = format::TraceFile::Open(t.path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    const model::Trace expected = Sequential(**file);
    for (size_t threads : {1u, 2u, 3u}) {
      SCOPED_TRACE(threads);
      ThreadPool pool(threads);
      StoreOptions options;
      options.pool = &pool;
      auto store = TraceStore::Open(**file, options);
      ASSERT_TRUE(store.ok()) << store.status().message();
      // Definitions, threads and counters before any chunk is decoded.
      model::Trace skeleton_only = expected;
      model::ForEachTable(skeleton_only, [](auto& table) { model::ResizeTable(table, 0); });
      skeleton_only.texts.clear();
      EXPECT_EQ(testing::ModelDifferences(skeleton_only, (*store)->trace()),
                std::vector<std::string>{});
      auto assembled = LoadModel(**store);
      ASSERT_TRUE(assembled.ok()) << assembled.status().message();
      EXPECT_EQ(testing::ModelDifferences(expected, *assembled), std::vector<std::string>{});
    }
  }
}

TEST_F(ChunkDecoderTest, ParallelLoaderEqualsTheSequentialOne) {
  ThreadPool pool(3);
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    auto file = format::TraceFile::Open(t.path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    model::LoadOptions options;
    options.pool = &pool;
    auto parallel = model::LoadTrace(**file, options);
    ASSERT_TRUE(parallel.ok()) << parallel.status().message();
    EXPECT_EQ(testing::ModelDifferences(Sequential(**file), *parallel), std::vector<std::string>{});
  }
}

// Decoded for their slices alone, chunks give the very slices a full
// decode gives, and nothing else.
TEST_F(ChunkDecoderTest, SlicesOnlyGivesTheSameSlicesAndNothingElse) {
  uint64_t skipped = 0;  // rows of other tables left out
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    auto file = format::TraceFile::Open(t.path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    auto store = TraceStore::Open(**file, {});
    ASSERT_TRUE(store.ok()) << store.status().message();
    const TraceStore& s = **store;
    ChunkDecoder full, slices;
    slices.set_slices_only(true);
    model::UndefinedLog full_log(&s.undefined()), slices_log(&s.undefined());
    for (uint32_t th = 0; th < s.threads(); ++th)
      for (size_t c = 0; c < s.skeleton(th).chunks.size(); ++c) {
        SCOPED_TRACE(::testing::Message() << "thread " << th << " chunk " << c);
        const ChunkRows& a =
            full.Decode(s.source(th), s.skeleton(th), c, s.thread_first(th), &full_log);
        const ChunkRows& b =
            slices.Decode(s.source(th), s.skeleton(th), c, s.thread_first(th), &slices_log);
        EXPECT_FALSE(a.slices_only);
        EXPECT_TRUE(b.slices_only);
        EXPECT_EQ(a.carried, b.carried);
        EXPECT_EQ(a.first, b.first);
        EXPECT_TRUE(a.tables->slices.columns() == b.tables->slices.columns());
        size_t table = 0;
        model::ForEachTable(*b.tables, [&](const auto& rows) {
          if (table++ != kSlices) {
            EXPECT_EQ(rows.size(), 0u);
          }
        });
        EXPECT_TRUE(b.tables->texts.empty());
        skipped += a.tables->messages.size() + a.tables->instants.size() +
                   a.tables->counter_samples.size() + a.tables->collectives.size();
      }
  }
  EXPECT_GT(skipped, 0u);
}

// A thread pass decodes slices alone exactly when every visitor reads
// nothing else and nobody counts what the maps moved.
class SeesChunks : public ChunkVisitor {
 public:
  explicit SeesChunks(bool slices_only) : slices_only_(slices_only) {}
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    ++chunks;
    alone += rows.slices_only ? 1 : 0;
  }
  bool SlicesOnly() const override { return slices_only_; }
  size_t chunks = 0, alone = 0;

 private:
  bool slices_only_;
};

TEST_F(ChunkDecoderTest, AThreadPassDecodesSlicesAloneWhenNoVisitorReadsMore) {
  const testing::TestTrace& t = traces_->front();
  auto file = format::TraceFile::Open(t.path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ThreadPool pool(1);  // one worker: one visitor
  StoreOptions store_options;
  store_options.pool = &pool;
  auto store = TraceStore::Open(**file, store_options);
  ASSERT_TRUE(store.ok()) << store.status().message();
  const auto run = [&](std::vector<bool> slices_only, time::TimeMapStats* moved) {
    std::vector<SeesChunks> seen;
    for (bool s : slices_only)
      seen.emplace_back(s);
    std::vector<ChunkVisitor*> all;
    for (SeesChunks& s : seen)
      all.push_back(&s);
    FanOutVisitor fan(all);
    std::vector<time::ThreadTimeMap> maps((*store)->threads());
    ThreadPassOptions options = WithProgress({}, &maps);
    options.moved = moved;
    RunThreadPass(**store, {&fan}, options);
    EXPECT_GT(seen[0].chunks, 0u);
    return seen[0].alone == seen[0].chunks;
  };
  time::TimeMapStats moved;
  EXPECT_TRUE(run({true, true}, nullptr));
  EXPECT_FALSE(run({true, false}, nullptr));
  EXPECT_FALSE(run({true}, &moved));
}

// The catalogue holds what the comparisons need to mean something.
TEST_F(ChunkDecoderTest, TheTestTracesCoverTheEdgeCases) {
  uint64_t long_slices = 0, undefined = 0, damaged = 0, unclosed = 0, mismatched = 0;
  for (const testing::TestTrace& t : *traces_) {
    auto file = format::TraceFile::Open(t.path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    auto store = TraceStore::Open(**file, {});
    ASSERT_TRUE(store.ok());
    for (uint32_t th = 0; th < (*store)->threads(); ++th)
      long_slices += (*store)->skeleton(th).long_slices.size();
    const model::LoadStats& s = (*store)->trace().stats;
    undefined += s.undefined_refs;
    damaged += s.damaged_chunks;
    unclosed += s.unclosed_slices;
    mismatched += s.leave_mismatch + s.leave_without_enter;
  }
  EXPECT_GT(long_slices, 20u);
  EXPECT_GT(undefined, 10u);
  EXPECT_GT(damaged, 0u);
  EXPECT_GT(unclosed, 3u);
  EXPECT_GT(mismatched, 1u);
}

}  // namespace
}  // namespace plx::store
