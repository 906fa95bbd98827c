// Read and write throughput of the .plx format, and bytes per record, on the
// demo trace (demo_trace.h).
#include <benchmark/benchmark.h>
#include <sys/stat.h>

#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "demo_trace.h"
#include "format/records.gen.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"

namespace {

using namespace plx::format;

const TraceFile& Trace() {
  return plx::bench::DemoTrace();
}

struct Counter : EventVisitorBase {
  using EventVisitorBase::On;
  uint64_t n = 0;
  void On(uint64_t, const EnterRecord&) { ++n; }
  void On(uint64_t, const LeaveRecord&) { ++n; }
  void On(uint64_t, const SendRecord&) { ++n; }
  void On(uint64_t, const RecvRecord&) { ++n; }
  void On(uint64_t, const CounterIntRecord&) { ++n; }
  void On(uint64_t, const EventStringRecord&) { ++n; }
};

// Decompress, check and decode every chunk on one core.
void ReadDecode(benchmark::State& state) {
  const TraceFile& file = Trace();
  std::vector<uint8_t> scratch;
  for (auto _ : state) {
    Counter counter;
    for (const ChunkInfo& c : file.event_chunks()) {
      plx::Status s = file.DecodeChunk(c, counter, &scratch);
      if (!s.ok()) state.SkipWithError(s.message().c_str());
    }
    benchmark::DoNotOptimize(counter.n);
  }
  state.SetItemsProcessed(state.iterations() * file.total_records());
  state.counters["records"] = static_cast<double>(file.total_records());
}
BENCHMARK(ReadDecode)->Unit(benchmark::kMillisecond);

// Opening: index, definitions, stream lists.
void Open(benchmark::State& state) {
  const std::string path = plx::bench::DemoTracePath();
  for (auto _ : state) {
    auto f = TraceFile::Open(path);
    benchmark::DoNotOptimize(f.ok());
  }
}
BENCHMARK(Open)->Unit(benchmark::kMicrosecond);

struct Item {
  uint32_t process, stream;
  uint64_t tick;
  AnyEventRecord record;
};

// Collects records; copies strings out of the chunk scratch buffer.
struct Collect {
  std::vector<Item>* out;
  std::deque<std::string>* strings;
  uint32_t process, stream;
  void On(uint64_t tick, EventStringRecord r) {
    r.text = strings->emplace_back(r.text);
    out->push_back({process, stream, tick, r});
  }
  template <typename R>
  void On(uint64_t tick, const R& r) {
    out->push_back({process, stream, tick, r});
  }
  void OnUnknown(uint8_t, uint64_t, const uint8_t*, size_t) {}
};

// Every record of the demo trace in memory.
const std::vector<Item>& Items() {
  static std::deque<std::string> strings;
  static std::vector<Item> items = [] {
    std::vector<Item> out;
    const TraceFile& file = Trace();
    std::vector<uint8_t> scratch;
    for (const ChunkInfo& c : file.event_chunks()) {
      Collect v{&out, &strings, c.header.process, c.header.stream};
      (void)file.DecodeChunk(c, v, &scratch);
    }
    return out;
  }();
  return items;
}

// Encode, compress and write every record with TraceWriter (definitions aside).
void WriteEncode(benchmark::State& state) {
  const std::vector<Item>& items = Items();
  const std::string path = "/tmp/plx-bench-write.plx";
  for (auto _ : state) {
    auto w = TraceWriter::Create(path);
    if (!w.ok()) state.SkipWithError(w.status().message().c_str());
    for (const Item& it : items)
      std::visit([&](const auto& r) { (*w)->Event(it.process, it.stream, it.tick, r); }, it.record);
    plx::Status s = (*w)->Finish();
    if (!s.ok()) state.SkipWithError(s.message().c_str());
  }
  state.SetItemsProcessed(state.iterations() * items.size());
  struct stat st;
  ::stat(path.c_str(), &st);
  state.counters["bytes_per_record"] = static_cast<double>(st.st_size) / items.size();
}
BENCHMARK(WriteEncode)->Unit(benchmark::kMillisecond);

// Size of the trace as the runtime wrote it.
void DemoTraceSize(benchmark::State& state) {
  const TraceFile& file = Trace();
  for (auto _ : state)
    benchmark::DoNotOptimize(file.size());
  state.counters["records"] = static_cast<double>(file.total_records());
  state.counters["bytes"] = static_cast<double>(file.size());
  state.counters["bytes_per_record"] =
      static_cast<double>(file.size()) / static_cast<double>(file.total_records());
}
BENCHMARK(DemoTraceSize)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
