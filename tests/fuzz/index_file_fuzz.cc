// libFuzzer target for the trace index reader (src/store/index_file.*): the
// input is the skeleton section of an index of a small trace, stored
// uncompressed beside a valid identity, so every varint the reader takes
// comes from the fuzzer. The trace store opens the trace with that index,
// as it would any index it finds: decoding, the checks against the trace,
// the placeholders of undefined ids; if it accepts the index it decodes
// every chunk with it (store::LoadModel), else it builds the skeletons
// again. The input is also read as a whole index file (with its repair
// and summary sections), as a repair section: when it fits the trace, its
// maps are applied to every chunk (store::MeasureTimeMaps), and as a
// timeline summary, a statistics and an analyses section, each checked
// against the trace. Seeds: index_inputs/.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "base/checksum.h"
#include "base/varint.h"
#include "format/trace_file.h"
#include "store/index_codec.h"
#include "store/index_file.h"
#include "store/index_repair.h"
#include "store/index_results.h"
#include "store/index_summary.h"
#include "store/model_loader.h"
#include "store/mountain_bins.h"
#include "store/stream_repair.h"
#include "store/trace_store.h"
#include "support/trace_script.h"

namespace {

// Nested slices across small chunks, an undefined state and call site, and
// messages: every part of a skeleton is there.
constexpr char kScript[] = R"(option chunk=24 zstd=0
process 0 rank=0
process 1 rank=1
thread 0 0
thread 1 0
state 0 1 outer
state 0 2 work
state 1 1 outer
comm 0 1 world global=1 members=0,1
comm 1 1 world global=1 members=0,1
enter 0 0 t=10 outer
enter 1 0 t=11 outer
enter 0 0 t=20 work callsite=4
send 0 0 t=21 comm=world peer=1 tag=0 bytes=4
leave 0 0 t=30 work
enter 1 0 t=31 9
recv 1 0 t=35 comm=world peer=0 tag=0 bytes=4
leave 1 0 t=40 9
enter 0 0 t=50 work
event 0 0 t=51 3 value=1
leave 0 0 t=60 work
enter 0 0 t=70 work
leave 0 0 t=80 work
leave 1 0 t=90 outer
)";

struct Fixture {
  Fixture() {
    const char* tmp = std::getenv("TMPDIR");
    dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/plx-index-fuzz-XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) std::abort();
    path = dir + "/t.plx";
    if (!plx::testing::WriteTraceScript(kScript, path).ok()) std::abort();
    auto f = plx::format::TraceFile::Open(path);
    if (!f.ok()) std::abort();
    file = std::move(*f);
    plx::store::StoreOptions options;
    options.index.enabled = false;
    auto opened = plx::store::TraceStore::Open(*file, options);
    if (!opened.ok()) std::abort();
    store = std::move(*opened);
    identity = plx::store::IdentityOf(*file, store->threads());
  }
  ~Fixture() {
    std::remove((path + "i").c_str());
    std::remove(path.c_str());
    rmdir(dir.c_str());
  }
  std::string dir, path;
  std::unique_ptr<plx::format::TraceFile> file;
  std::unique_ptr<plx::store::TraceStore> store;  // with no index
  plx::store::IndexIdentity identity;
};

// An index file (docs/format.md, "The trace index") with `skeleton` as its
// uncompressed skeleton section.
std::vector<uint8_t> IndexWith(const plx::store::IndexIdentity& id, const uint8_t* skeleton,
                               size_t size) {
  std::vector<uint8_t> out = {0x89, 'P', 'L', 'X', 'I', 'D', 'X', '\n', 1, 0, 0, 0, 0, 0, 0, 0};
  auto section = [&](uint32_t type, const uint8_t* p, size_t n) {
    uint8_t h[24];
    plx::StoreLE<uint32_t>(h, type);
    plx::StoreLE<uint32_t>(h + 4, 0);
    plx::StoreLE<uint64_t>(h + 8, n);
    plx::StoreLE<uint64_t>(h + 16, n);
    out.insert(out.end(), h, h + 24);
    out.insert(out.end(), p, p + n);
  };
  uint8_t identity[32];
  plx::StoreLE<uint64_t>(identity, id.content_id);
  plx::StoreLE<uint64_t>(identity + 8, id.file_size);
  plx::StoreLE<uint64_t>(identity + 16, id.records);
  plx::StoreLE<uint32_t>(identity + 24, id.threads);
  plx::StoreLE<uint32_t>(identity + 28, id.contents_version);
  section(1, identity, sizeof identity);
  section(2, skeleton, size);
  uint8_t trailer[16];
  plx::StoreLE<uint64_t>(trailer, plx::Checksum64(out.data(), out.size()));
  std::memcpy(trailer + 8, "PLXIEND\n", 8);
  out.insert(out.end(), trailer, trailer + 16);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture fixture;
  (void)plx::store::DecodeIndex({data, size}, "fuzz.plxi", /*with_repair=*/true,
                                /*with_summary=*/true, /*with_results=*/true);
  {
    plx::store::IndexReader reader(data, data + size);
    plx::store::IndexedStatistics statistics;
    if (plx::store::GetStatistics(&reader, &statistics, 1 << 16) &&
        plx::store::CheckStatisticsFits(statistics, fixture.store->trace(), "fuzz").ok())
      (void)plx::store::MountainBins::FromCounts(fixture.store->trace(),
                                                 std::move(statistics.mountain), 1 << 20);
  }
  {
    plx::store::IndexReader reader(data, data + size);
    plx::store::IndexedAnalyses analyses;
    if (plx::store::GetAnalyses(&reader, &analyses, 64))
      (void)plx::store::CheckAnalysesFits(analyses, fixture.store->trace(), fixture.store->totals(),
                                          "fuzz");
  }
  {
    plx::store::IndexReader reader(data, data + size);
    plx::store::IndexedSummary summary;
    if (plx::store::GetSummary(&reader, &summary))
      (void)plx::store::CheckSummaryFits(summary.summary, fixture.store->trace(), "fuzz");
  }
  {
    plx::store::IndexReader reader(data, data + size);
    plx::store::IndexedRepair repair;
    const plx::store::TraceStore& store = *fixture.store;
    if (plx::store::GetRepair(&reader, &repair) &&
        plx::store::CheckRepairFits(repair, store.threads(), store.totals(), "fuzz").ok())
      (void)plx::store::MeasureTimeMaps(store, repair.maps);
  }
  const std::vector<uint8_t> index = IndexWith(fixture.identity, data, size);
  {
    std::ofstream out(fixture.path + "i", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(index.data()),
              static_cast<std::streamsize>(index.size()));
  }
  plx::store::StoreOptions options;
  options.warn = [](const std::string&) {};
  auto store = plx::store::TraceStore::Open(*fixture.file, options);
  if (!store.ok()) return 0;
  auto model = plx::store::LoadModel(**store);
  volatile size_t sink = model.ok() ? model->slices.size() + model->texts.size() : 0;
  (void)sink;
  return 0;
}
