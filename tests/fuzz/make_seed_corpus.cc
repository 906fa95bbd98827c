// Writes a few small, valid .plx files into <dir>/seeds as the fuzzers' seed
// corpus, and empties <dir>/work, where fuzzing runs keep what they find (one
// subdirectory per fuzzer NAME given): every record kind, compressed and not,
// with and without an index.
//   make_seed_corpus DIR [NAME...]
#include <cstdio>
#include <filesystem>
#include <string>

#include "format/records.gen.h"
#include "format/trace_writer.h"

namespace {

using namespace plx::format;

void Definitions(TraceWriter& w, uint32_t p, uint64_t domain) {
  w.Def(p, StringDef{1, "host"});
  w.Def(p, StringDef{2, "compute"});
  w.Def(p, StringDef{3, "ü-名前"});
  w.Def(p, ProcessDef{100 + p, static_cast<int64_t>(p) - 1, 1, 2, 3, 0});
  w.Def(p, ClockDef{domain, 2.5e9, 1700000000000000000ull, 1000});
  w.Def(p, ClockSyncDef{1000, 1000});
  w.Def(p, ClockSyncDef{26000, 11000});
  w.Def(p, StreamDef{0, 100 + p, 3});
  w.Def(p, CategoryDef{1, 2});
  w.Def(p, StateDef{1, 2, 1, (1u << 24) | 0x3366ff});
  w.Def(p, EventTypeDef{1, 3, 1, 1});
  w.Def(p, CallsiteDef{1, 3, 42, 2});
  w.Def(p, CounterDef{1, 2, 3, 2, 1});
  w.Def(p, CommunicatorDef{1, 1, 0});
  w.Def(p, AttributeDef{1, 2});
}

void EveryEvent(TraceWriter& w, uint32_t p, uint32_t s, uint64_t t) {
  w.Event(p, s, t, ThreadBeginRecord{});
  w.Event(p, s, t + 1, EnterRecord{1, 1});
  w.Event(p, s, t + 2, EventIntRecord{1, 1, -42});
  w.Event(p, s, t + 3, EventDoubleRecord{1, 0, 2.5});
  w.Event(p, s, t + 4, EventStringRecord{1, 1, "annotation"});
  w.Event(p, s, t + 5, SendRecord{1, 1, 7, 1024, 3});
  w.Event(p, s, t + 300, RecvRecord{1, 0, 7, 1024, 4});
  w.Event(p, s, t + 301, CounterIntRecord{1, 12345});
  w.Event(p, s, t + 302, CounterDoubleRecord{1, 0.125});
  w.Event(p, s, t + 303, RmaRecord{1, 1, 0, 1, 64});
  w.Event(p, s, t + 304, ControlRecord{0});
  w.Event(p, s, t + 305, ControlRecord{1});
  w.Event(p, s, t + 306, LostRecord{3});
  const uint8_t body[] = {1, 2, 3};
  w.RawEvent(p, s, t + 307, 200, body);  // a kind from the future
  w.Event(p, s, t + 20000, LeaveRecord{1});
  w.Event(p, s, t + 20001, ThreadEndRecord{});
}

bool Write(const std::string& path, WriterOptions options, int processes, int rounds) {
  auto w = TraceWriter::Create(path, options);
  if (!w.ok()) {
    std::fprintf(stderr, "%s\n", w.status().message().c_str());
    return false;
  }
  for (int p = 1; p <= processes; ++p)
    Definitions(**w, static_cast<uint32_t>(p), p % 2);
  for (int r = 0; r < rounds; ++r) {
    for (int p = 1; p <= processes; ++p) {
      for (uint32_t s = 0; s < 2; ++s)
        EveryEvent(**w, static_cast<uint32_t>(p), s, 1000 + r * 30000);
    }
    // A definition between rounds: a DEFS chunk lands between EVENTS chunks.
    (*w)->Def(1, StateDef{static_cast<uint64_t>(2 + r), 2, 1, 0});
  }
  plx::Status s = (*w)->Finish();
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.message().c_str());
  return s.ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [FUZZER...]\n", argv[0]);
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path dir(argv[1]);
  std::error_code ec;
  fs::remove_all(dir / "seeds", ec);
  fs::remove_all(dir / "work", ec);
  fs::create_directories(dir / "seeds", ec);
  fs::create_directories(dir / "work", ec);
  for (int i = 2; i < argc && !ec; ++i)
    fs::create_directories(dir / "work" / argv[i], ec);
  if (ec) {
    std::fprintf(stderr, "%s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  const std::string seeds = (dir / "seeds").string() + "/";
  WriterOptions zstd_index;  // defaults: zstd level 1, index
  WriterOptions raw_scan;
  raw_scan.zstd_level = 0;
  raw_scan.write_index = false;
  WriterOptions small_chunks;
  small_chunks.chunk_raw_size = 200;
  WriterOptions small_raw = small_chunks;
  small_raw.zstd_level = 0;
  bool ok = Write(seeds + "empty.plx", zstd_index, 0, 0) &&
            Write(seeds + "one_process_zstd_index.plx", zstd_index, 1, 1) &&
            Write(seeds + "two_processes_raw_scan.plx", raw_scan, 2, 1) &&
            Write(seeds + "small_chunks_zstd.plx", small_chunks, 2, 3) &&
            Write(seeds + "small_chunks_raw.plx", small_raw, 1, 3);
  return ok ? 0 : 1;
}
