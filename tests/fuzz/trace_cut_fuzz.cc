// libFuzzer target for `parallax cut` (src/store/trace_cut.h): the input (as
// is, and with its checksums repaired) is opened as a trace and cut twice,
// whole and to a window and process chosen from its bytes. Whatever the
// input, a trace that opens must cut, and the cut must be a valid file that
// opens with its index, without problems, holding no more records than the
// cut says it wrote.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "fuzz/repair_checksums.h"
#include "store/trace_cut.h"
#include "store/trace_store.h"

namespace {

using namespace plx;

const std::string& Dir() {
  static const std::string dir = [] {
    char pattern[] = "/tmp/plx-cut-fuzz-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    if (made == nullptr) std::abort();
    return std::string(made);
  }();
  return dir;
}

void CheckCut(const store::TraceStore& store, const store::CutOptions& options) {
  const std::string out = Dir() + "/cut.plx";
  auto cut = store::CutTrace(store, out, options);
  if (!cut.ok()) {  // valid options: only a failed write may stop a cut
    std::fprintf(stderr, "%s\n", cut.status().message().c_str());
    std::abort();
  }
  auto opened = format::TraceFile::Open(out);
  if (!opened.ok()) std::abort();
  const format::OpenReport& report = (*opened)->report();
  if (!report.used_index || !report.problems.empty() || report.damaged_chunks != 0) std::abort();
  if ((*opened)->total_records() != cut->records_written) std::abort();
  if (options.from_ns == 0 && options.to_ns == INT64_MAX && options.processes.empty() &&
      cut->records_written > cut->records_read)
    std::abort();  // a whole cut makes no records
  store::StoreOptions so;
  so.index.enabled = false;
  if (!store::TraceStore::Open(**opened, so).ok()) std::abort();
}

void CutOne(const std::vector<uint8_t>& bytes) {
  const std::string input = Dir() + "/input.plx";
  FILE* f = std::fopen(input.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) std::abort();
  std::fclose(f);
  auto file = format::TraceFile::Open(input);
  if (!file.ok()) return;
  store::StoreOptions so;
  so.index.enabled = false;
  auto store = store::TraceStore::Open(**file, so);
  if (!store.ok()) return;
  CheckCut(**store, {});

  // A window and a process from the input's last bytes.
  uint64_t h = 0;
  for (size_t i = bytes.size() > 8 ? bytes.size() - 8 : 0; i < bytes.size(); ++i)
    h = h * 131 + bytes[i];
  const model::Trace& t = (*store)->trace();
  const __int128 span = t.end_ns > t.begin_ns ? __int128{t.end_ns} - t.begin_ns : 1;
  auto part = [&](uint64_t quarters) {
    const __int128 ns = span / 4 * quarters;
    return ns > INT64_MAX ? INT64_MAX : static_cast<int64_t>(ns);
  };
  store::CutOptions window;
  window.from_ns = part(h % 4);
  window.to_ns = part(h % 4 + (h >> 2) % 4 + 1);
  if (!t.processes.empty() && (h >> 4) % 2 == 1)
    window.processes.push_back(static_cast<uint32_t>((h >> 5) % t.processes.size()));
  CheckCut(**store, window);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  CutOne(bytes);
  plx::fuzz::RepairChecksums(&bytes);
  CutOne(bytes);
  return 0;
}
