// libFuzzer target for ImportOtf2. An OTF2 archive is a directory, so the
// target writes one small valid archive per process (with ExportOtf2) and
// lets the input replace one of its files: the first byte picks which (the
// global definitions, a location's events or local definitions),
// the rest is its new content. The import may fail, but never crash or leak.
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "interop/otf2/otf2.h"
#include "interop/trace_builder.h"
#include "model/load_trace.h"

namespace {

using plx::interop::TraceBuilder;

// Two ranks, rank 0 with a second thread: states, a message with its post,
// a collective, RMA, int and double counters, int and string instants.
bool WriteSmallTrace(const std::string& path) {
  auto made = TraceBuilder::Create(path);
  if (!made.ok()) return false;
  TraceBuilder& b = **made;
  const int64_t members[] = {0, 1};
  uint32_t th[3], comm[2];
  for (uint32_t r = 0; r < 2; ++r) {
    const uint32_t p = b.AddProcess({"rank " + std::to_string(r), r, 10 + r, "node", "", "", 0});
    th[r] = b.AddThread(p, {10 + r, "main"});
    comm[r] = b.Communicator(p, "MPI_COMM_WORLD", 0, 1, members);
  }
  th[2] = b.AddThread(0, {20, "worker"});
  const uint32_t work = b.State("work"), send = b.State("MPI_Send", "comm");
  const uint32_t recv = b.State("MPI_Recv", "comm");
  const uint32_t ins = b.Counter("instructions", "", plx::model::ValueKind::kInt);
  const uint32_t mem = b.Counter("memory", "bytes", plx::model::ValueKind::kDouble);
  const uint32_t step = b.EventType("step", plx::model::ValueKind::kInt);
  const uint32_t note = b.EventType("note", plx::model::ValueKind::kString);
  const int64_t t = 1000000;
  bool ok = b.Enter(th[0], t, work) && b.CounterInt(th[0], t + 1, ins, 5) &&
            b.CounterDouble(th[0], t + 2, mem, 1.5) && b.InstantInt(th[0], t + 3, step, 1) &&
            b.Leave(th[0], t + 10, work) && b.Enter(th[0], t + 20, send) &&
            b.Send(th[0], t + 21, comm[0], 1, 7, 64, 1) && b.Leave(th[0], t + 22, send) &&
            b.Collective(th[0], t + 30, 2, comm[0], 0, 8, 0) &&
            b.Rma(th[0], t + 40, 0, comm[0], 0, 1, 128) &&
            b.InstantString(th[0], t + 50, note, "done") && b.Enter(th[1], t + 5, recv) &&
            b.RecvPost(th[1], t + 6, comm[1], 0, 7, 1) &&
            b.Recv(th[1], t + 25, comm[1], 0, 7, 64, 1) && b.Leave(th[1], t + 26, recv) &&
            b.Collective(th[1], t + 30, 2, comm[1], 0, 0, 8) && b.Enter(th[2], t + 2, work) &&
            b.Leave(th[2], t + 4, work);
  return b.Finish().ok() && ok;
}

struct Archive {
  std::string dir;
  std::vector<std::string> files;     // what the first input byte chooses from
  std::vector<std::string> contents;  // their original bytes
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteAll(const std::string& path, const char* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
}

const Archive& TheArchive() {
  static const Archive* archive = [] {
    char pattern[] = "/tmp/plx-otf2-fuzz-XXXXXX";
    const char* dir = ::mkdtemp(pattern);
    if (dir == nullptr) std::abort();
    auto* a = new Archive;
    a->dir = dir;
    if (!WriteSmallTrace(a->dir + "/small.plx")) std::abort();
    auto file = plx::format::TraceFile::Open(a->dir + "/small.plx");
    if (!file.ok()) std::abort();
    auto trace = plx::model::LoadTrace(**file);
    if (!trace.ok()) std::abort();
    if (!plx::interop::ExportOtf2(*trace, a->dir + "/a.otf2").ok()) std::abort();
    // Not the anchor: OTF2 3.0.2 leaks when it cannot open a damaged one
    // (the importer refuses anchors without the magic, which covers junk).
    a->files = {a->dir + "/a.def", a->dir + "/a/0.evt", a->dir + "/a/1.evt", a->dir + "/a/2.evt",
                a->dir + "/a/0.def"};
    for (const std::string& f : a->files)
      a->contents.push_back(ReadAll(f));
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(TheArchive().dir, ec);
    });
    return a;
  }();
  return *archive;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Archive& a = TheArchive();
  const size_t which = data[0] % a.files.size();
  WriteAll(a.files[which], reinterpret_cast<const char*>(data + 1), size - 1);
  {
    auto builder = TraceBuilder::Create(a.dir + "/out.plx");
    if (builder.ok()) {
      (void)plx::interop::ImportOtf2(a.dir + "/a.otf2", **builder);
      (void)(*builder)->Finish();
    }
  }
  WriteAll(a.files[which], a.contents[which].data(), a.contents[which].size());
  return 0;
}
