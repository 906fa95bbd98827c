// Thread-pass visitors riding along a message pass (store/lockstep.h) see
// every slice of every thread once and begin and end each thread once,
// whichever workers decode its chunks, and an attempt of the pass that
// stops early lets them start over: on every test trace, with slabs of a
// few records and a horizon of 1 ns, so that records come out of order
// past the horizon and attempts stop.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "format/trace_file.h"
#include "store/message_pass.h"
#include "store/trace_store.h"
#include "support/test_support.h"
#include "support/test_traces.h"
#include "support/trace_script.h"

namespace plx::store {
namespace {

class Counter : public ChunkVisitor {
 public:
  explicit Counter(uint32_t threads) : begun(threads, 0), ended(threads, 0) {}
  void BeginThread(uint32_t t) override { ++begun[t]; }
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    slices += rows.tables->slices.size() - rows.carried;
  }
  void EndThread(uint32_t t) override { ++ended[t]; }
  std::vector<int> begun, ended;
  uint64_t slices = 0;
};

class LockstepVisitsTest : public testing::TestTracesSuite {};

// Three messages between two streams received in the order 3, 1, 2, far
// apart: with a short horizon, the receive of 1 comes behind 3 released.
std::string OutOfOrderScript() {
  std::string s = "option chunk=16 zstd=0\nprocess 0 pid=7\n";
  s += "thread 0 0 name=a\nthread 0 1 name=b\nstate 0 1 work\ncomm 0 1 jobs kind=streams\n";
  for (int m = 1; m <= 3; ++m)
    s += "send 0 0 t=" + std::to_string(100 * m) +
         " comm=jobs peer=1 tag=0 bytes=8 match=" + std::to_string(m) + "\n";
  s += "recv 0 1 t=1000 comm=jobs peer=0 tag=0 bytes=8 match=3\n";
  for (int i = 0; i < 200; ++i)
    for (int t = 0; t < 2; ++t)
      s += "enter 0 " + std::to_string(t) + " t=" + std::to_string(2000 + 100 * i) +
           " work\nleave 0 " + std::to_string(t) + " t=" + std::to_string(2050 + 100 * i) +
           " work\n";
  s += "recv 0 1 t=30000 comm=jobs peer=0 tag=0 bytes=8 match=1\n";
  s += "recv 0 1 t=30100 comm=jobs peer=0 tag=0 bytes=8 match=2\n";
  return s;
}

TEST_F(LockstepVisitsTest, VisitorsSeeEverySliceOnceAndStartOverWithEachAttempt) {
  ThreadPool pool(3);
  int stopped_early = 0, traces = 0;
  testing::TempDir dir;
  std::vector<testing::TestTrace> all = *traces_;
  all.push_back({"out_of_order", dir.path() + "/out_of_order.plx"});
  ASSERT_TRUE(testing::WriteTraceScript(OutOfOrderScript(), all.back().path).ok());
  for (const testing::TestTrace& tt : all) {
    SCOPED_TRACE(tt.name);
    StatusOr<std::unique_ptr<format::TraceFile>> file = format::TraceFile::Open(tt.path);
    if (!file.ok()) continue;
    StoreOptions so;
    so.pool = &pool;
    so.index.enabled = false;
    StatusOr<std::unique_ptr<TraceStore>> store = TraceStore::Open(**file, so);
    if (!store.ok()) continue;
    const uint32_t threads = (*store)->threads();
    std::vector<Counter> counters;
    std::vector<ChunkVisitor*> visitors;
    int attempts = 0;
    MessagePassOptions options;
    options.slab_records = 8;
    options.horizon_ns = 1;
    options.visits.visitors = &visitors;
    options.begin_attempt = [&](int64_t) {
      ++attempts;
      counters.assign(pool.size(), Counter(threads));
      visitors.clear();
      for (Counter& c : counters)
        visitors.push_back(&c);
    };
    RunMessagePass(
        **store, [](size_t) { return std::make_unique<MessageConsumer>(); }, options);
    uint64_t slices = 0;
    std::vector<int> begun(threads, 0), ended(threads, 0);
    for (const Counter& c : counters) {
      slices += c.slices;
      for (uint32_t t = 0; t < threads; ++t) {
        begun[t] += c.begun[t];
        ended[t] += c.ended[t];
      }
    }
    EXPECT_EQ(slices, (*store)->totals().slices());
    for (uint32_t t = 0; t < threads; ++t) {
      EXPECT_EQ(begun[t], 1) << "thread " << t;
      EXPECT_EQ(ended[t], 1) << "thread " << t;
    }
    stopped_early += attempts > 1;
    ++traces;
  }
  EXPECT_GT(traces, 5);
  EXPECT_GT(stopped_early, 0);  // the restart was exercised
}

}  // namespace
}  // namespace plx::store
