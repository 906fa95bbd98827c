// libFuzzer target for MergeTraceFiles, which walks its inputs with a chunk
// scanner of its own: the input (as is, and with its checksums repaired) is
// merged as process 3 next to a small valid part. Whatever the input, the merge
// must either fail with an error or write a file that opens with its index and
// holds exactly the chunks the merge says it wrote.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "format/merge.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "fuzz/repair_checksums.h"

namespace {

using namespace plx::format;

std::string Dir() {
  static const std::string dir = [] {
    char pattern[] = "/tmp/plx-merge-fuzz-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    if (made == nullptr) std::abort();
    return std::string(made);
  }();
  return dir;
}

const std::string& ValidPart() {
  static const std::string path = [] {
    const std::string p = Dir() + "/valid.plx";
    auto w = TraceWriter::Create(p);
    if (!w.ok()) std::abort();
    (*w)->Def(0, StringDef{1, "main"});
    (*w)->Def(0, StateDef{1, 1, 0, 0});
    (*w)->Event(0, 0, 10, EnterRecord{1, 0});
    (*w)->Event(0, 0, 20, LeaveRecord{1});
    if (!(*w)->Finish().ok()) std::abort();
    return p;
  }();
  return path;
}

void MergeOne(const std::vector<uint8_t>& bytes) {
  const std::string input = Dir() + "/input.plx";
  const std::string output = Dir() + "/merged.plx";
  FILE* f = std::fopen(input.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) std::abort();
  std::fclose(f);
  const MergeInput inputs[] = {{ValidPart(), 0}, {input, 3}};
  auto merged = MergeTraceFiles(inputs, output);
  if (!merged.ok()) return;
  auto opened = TraceFile::Open(output);
  if (!opened.ok()) std::abort();  // a merge that succeeded wrote a readable file
  const TraceFile& t = **opened;
  if (!t.report().used_index || t.report().chunks != merged->chunks) std::abort();
  for (const ChunkInfo& c : t.event_chunks()) {
    if (c.header.process != 0 && c.header.process != 3) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  MergeOne(bytes);
  plx::fuzz::RepairChecksums(&bytes);
  MergeOne(bytes);
  return 0;
}
