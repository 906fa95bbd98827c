// libFuzzer target for `parallax query`'s tables: the input is SQL, run by a
// QueryEngine over a small MPI trace (the one of tests/server/
// api_test_trace.h) with a row and a time limit. Whatever the statement —
// constraints of any type on any column, IN lists, joins on ids — the run
// must end with rows or a one-line "query: ..." error, never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "format/trace_file.h"
#include "query/query_engine.h"
#include "server/api_test_trace.h"
#include "store/trace_store.h"
#include "support/trace_script.h"

namespace {

class Discard : public plx::query::RowSink {
 public:
  void Begin(const std::vector<std::string>&) override {}
  void Row(const std::vector<plx::query::Value>&) override {}
};

plx::query::QueryEngine& TheEngine() {
  static plx::query::QueryEngine* engine = [] {
    char pattern[] = "/tmp/plx-query-fuzz-XXXXXX";
    const char* dir = ::mkdtemp(pattern);
    if (dir == nullptr) std::abort();
    const std::string path = std::string(dir) + "/t.plx";
    if (!plx::testing::WriteTraceScript(plx::testing::ApiTestScript(), path).ok()) std::abort();
    auto file = plx::format::TraceFile::Open(path);
    if (!file.ok()) std::abort();
    plx::store::StoreOptions options;
    options.index.dir = dir;
    auto store = plx::store::TraceStore::Open(**file, options);
    if (!store.ok()) std::abort();
    auto e = plx::query::QueryEngine::Open(**store);
    if (!e.ok()) std::abort();
    file->release();
    store->release();
    return e->release();
  }();
  return *engine;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string sql(reinterpret_cast<const char*>(data), size);
  plx::query::QueryLimits limits;
  limits.max_rows = 1000;
  limits.timeout_ms = 200;
  Discard sink;
  const plx::Status s = TheEngine().Run(sql, sink, limits);
  if (!s.ok() &&
      (s.message().rfind("query: ", 0) != 0 || s.message().find('\n') != std::string::npos))
    std::abort();
  return 0;
}
