// The live server's load cache (model/load_cache.h) on the images of a
// growing window: after every arriving chunk, and as the window drops its
// oldest chunks, loading through the cache gives exactly the trace a load
// without it gives — every column of every table, the threads, the counts
// and the problem lines — while decoding only what is new.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "live_test_client.h"
#include "model/load_cache.h"
#include "model/load_trace.h"
#include "server/live/live_replay.h"
#include "server/live/live_snapshot.h"
#include "server/live/live_window.h"
#include "support/model_equality.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::server::live {
namespace {

// Two processes. Process 0 counts TSC ticks (2 per ns) with a sync pair every
// 40 iterations, so later pairs change the ns of ticks past the last one; its
// two threads keep an outer slice open across many chunks, send to process 1,
// and write string events and counters. Process 1 counts ns; it leaves a
// state it never entered, and once uses a state id it never defined.
std::string Script() {
  std::string s = "option chunk=200 zstd=0\n";
  s += "process 0 pid=10 rank=0\nprocess 1 pid=11 rank=1\n";
  s += "clock 0 tsc=2000000000\nsync 0 tick=0 ns=1000\n";
  for (int p = 0; p < 2; ++p) {
    const std::string P = std::to_string(p);
    s += "thread " + P + " 0 name=main\n";
    s += "state " + P + " 1 outer\nstate " + P + " 2 work\nstate " + P + " 3 MPI_Send\n";
    s += "state " + P + " 4 MPI_Recv\n";
    s += "comm " + P + " 1 world members=0,1\n";
    s += "event_type " + P + " 1 note kind=string\ncounter_def " + P + " 1 bytes kind=int\n";
  }
  s += "thread 0 1 name=helper\n";
  // ticks of process 0 for ns `ns` (its clock runs 2 ticks per ns from ns 1000).
  const auto tick = [](int64_t ns) { return std::to_string((ns - 1000) * 2); };
  s += "enter 0 0 t=" + tick(2000) + " outer\nenter 0 1 t=" + tick(2000) + " outer\n";
  for (int i = 0; i < 900; ++i) {
    const int64_t base = 3000 + int64_t{i} * 1000;
    const std::string I = std::to_string(i);
    if (i % 40 == 39) {
      // A pair slightly off the first one's line, as real pairs are.
      s += "sync 0 tick=" + tick(base) + " ns=" + std::to_string(base + (i % 80 == 39 ? 3 : -2)) +
           "\n";
    }
    for (int t = 0; t < 2; ++t) {
      const std::string T = std::to_string(t);
      s += "enter 0 " + T + " t=" + tick(base + 10) + " work\n";
      if (i % 7 == 0) s += "event 0 " + T + " t=" + tick(base + 20) + " note value=step" + I + "\n";
      s += "counter 0 " + T + " t=" + tick(base + 30) + " bytes value=" + I + "\n";
      s += "leave 0 " + T + " t=" + tick(base + 200) + " work\n";
    }
    s += "enter 0 0 t=" + tick(base + 300) + " MPI_Send\n";
    s += "send 0 0 t=" + tick(base + 310) +
         " comm=world peer=1 tag=1 bytes=8 match=" + std::to_string(i + 1) + "\n";
    s += "leave 0 0 t=" + tick(base + 320) + " MPI_Send\n";
    const auto ns = [&](int64_t dt) { return std::to_string(base + dt); };
    s += "enter 1 0 t=" + ns(400) + " MPI_Recv\n";
    s += "recv 1 0 t=" + ns(500) +
         " comm=world peer=0 tag=1 bytes=8 match=" + std::to_string(i + 1) + "\n";
    s += "leave 1 0 t=" + ns(510) + " MPI_Recv\n";
    if (i == 150) s += "leave 1 0 t=" + ns(600) + " work\n";  // never entered
    if (i == 850) s += "enter 1 0 t=" + ns(700) + " 77\nleave 1 0 t=" + ns(710) + " 77\n";
  }
  return s;
}

struct Step {
  SnapshotInput input;
  std::vector<uint32_t> process_of{0, 1};
};

model::Trace Load(const std::vector<uint8_t>& image, model::LoadCache* cache) {
  auto file = format::TraceFile::FromBytes("live", image);
  EXPECT_TRUE(file.ok()) << file.status().message();
  model::LoadOptions options;
  options.cache = cache;
  auto trace = model::LoadTrace(**file, options);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return std::move(*trace);
}

TEST(LiveLoadCacheTest, GrowingAndSlidingWindowLoadsAsWithoutTheCache) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/grow.plx";
  ASSERT_TRUE(testing::WriteTraceScript(Script(), path).ok());
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok()) << chunks.status().message();
  ASSERT_EQ(chunks->size(), 2u);

  // Arrival: the two processes' chunks interleaved, each in its file order.
  struct Arrival {
    uint32_t connection;
    const std::vector<uint8_t>* bytes;
    format::ChunkHeader header;
  };
  std::vector<Arrival> arrivals;
  uint64_t event_bytes = 0;
  for (size_t i = 0; i < std::max(chunks->at(0).size(), chunks->at(1).size()); ++i) {
    for (uint32_t c = 0; c < 2; ++c) {
      const auto& list = chunks->at(c);
      if (i >= list.size()) continue;
      Arrival a{c, &list[i], {}};
      ASSERT_EQ(format::ParseChunkHeader(list[i].data(), &a.header), nullptr);
      if (a.header.type == format::ChunkType::kEvents) event_bytes += list[i].size();
      arrivals.push_back(a);
    }
  }
  ASSERT_GT(arrivals.size(), 300u);

  // The live server's window, holding about a third of the chunks: it drops
  // in batches once the run is a third through.
  HistoryWindow window(int64_t{1} << 60, event_bytes / 3);
  model::LoadCache cache;
  model::LoadCache::Counters growing;
  size_t steps = 0;
  uint64_t unclosed = 0;
  size_t texts = 0;
  for (size_t i = 0; i < arrivals.size(); ++i) {
    const Arrival& a = arrivals[i];
    const auto bytes = std::make_shared<const std::vector<uint8_t>>(*a.bytes);
    if (a.header.type != format::ChunkType::kEvents) {
      window.AddDefs(a.connection, bytes);
    } else {
      // ns as the connection's clock reads them (process 0: 2 ticks per ns).
      const auto ns = [&](uint64_t tick) {
        return static_cast<int64_t>(a.connection == 0 ? tick / 2 + 1000 : tick);
      };
      window.AddEvents(a.connection, a.header, bytes, ns(a.header.tick_begin),
                       ns(a.header.tick_end));
    }
    if (window.dropped_records() == 0) growing = cache.counters();
    if (i % 3 != 0 && i + 1 != arrivals.size()) continue;  // a snapshot every third chunk
    SnapshotInput input;
    window.Collect(&input);
    const std::vector<uint8_t> image = BuildImage(input, {0, 1});
    const model::Trace expected = Load(image, nullptr);
    const model::Trace actual = Load(image, &cache);
    ASSERT_EQ(testing::ModelDifferences(expected, actual), std::vector<std::string>{})
        << "after chunk " << i;
    unclosed = std::max(unclosed, expected.stats.unclosed_slices);
    texts = std::max(texts, expected.texts.size());
    ++steps;
  }
  EXPECT_GT(window.dropped_records(), 0u);
  const model::LoadCache::Counters& n = cache.counters();
  // While the window grew, most chunks were decoded once and kept after;
  // some again (new sync pairs, the undefined state). Its drops decode all
  // again, but only once per batch.
  EXPECT_GT(growing.chunks_kept, growing.chunks_decoded * 3) << steps;
  EXPECT_GT(growing.chunks_redecoded, 0u);
  EXPECT_GT(n.chunks_kept, n.chunks_decoded);

  // The steps had the cases the cache must carry over.
  EXPECT_GT(unclosed, 0u);
  EXPECT_GT(texts, 0u);
}

// A clock made from more sync pairs converts the same below the segment
// before the first new pair, and differently from there.
TEST(LiveLoadCacheTest, TickClockSameBelow) {
  std::vector<format::ClockSyncDef> pairs = {{0, 1000}, {2000, 2000}, {4000, 3000}};
  format::ClockDef def;
  def.domain = 1;
  def.ticks_per_second = 2e9;
  const format::TickClock three(def, pairs);
  pairs.push_back({6000, 4010});
  const format::TickClock four(def, pairs);
  EXPECT_EQ(three.SameBelow(three), UINT64_MAX);
  EXPECT_EQ(three.SameBelow(four), 4000u);
  EXPECT_EQ(three.ToNs(3999), four.ToNs(3999));
  EXPECT_NE(three.ToNs(5000), four.ToNs(5000));
  const format::TickClock identity;
  EXPECT_EQ(identity.SameBelow(identity), UINT64_MAX);
  EXPECT_EQ(identity.SameBelow(three), 0u);
  pairs[0].ns = 999;  // the first pair moved: nothing is safe
  EXPECT_EQ(three.SameBelow(format::TickClock(def, pairs)), 0u);
}

}  // namespace
}  // namespace plx::server::live
