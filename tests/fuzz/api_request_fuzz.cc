// libFuzzer target for the server's request handling: the input is an API
// path, a newline and a query string, answered by Api::Handle over a small
// loaded trace (the one of tests/server/api_test_trace.h), and again over the
// same trace served from its file (as a trace over the memory budget is:
// trace id "f" for "t"). Whatever the request, the answer must be a status
// the API documents, JSON bodies must parse, and tiles must be exactly as
// long as their header says.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "server/api.gen.h"
#include "server/api/api.h"
#include "server/api_test_trace.h"
#include "support/trace_script.h"

namespace {

plx::server::Api& TheApi() {
  static plx::server::TraceStore* store = [] {
    char pattern[] = "/tmp/plx-api-fuzz-XXXXXX";
    const char* dir = ::mkdtemp(pattern);
    if (dir == nullptr) std::abort();
    const std::string path = std::string(dir) + "/t.plx";
    if (!plx::testing::WriteTraceScript(plx::testing::ApiTestScript(), path).ok()) std::abort();
    const std::string file = std::string(dir) + "/f.plx";
    if (!plx::testing::WriteTraceScript(plx::testing::ApiTestScript(), file).ok()) std::abort();
    auto* s = new plx::server::TraceStore();
    s->Add(path).Load({});
    plx::server::StoreServing serving;
    serving.index.dir = dir;
    plx::server::ServedTrace& from_file = s->Add(file);
    from_file.ServeLargeFromFile(serving, 0);
    from_file.Load({});
    if (!s->traces()[0]->ready() || !from_file.ready() || !from_file.from_store()) std::abort();
    return s;
  }();
  static plx::server::Api api(*store);
  return api;
}

// Aborts unless `r` is an answer the API documents.
void Check(const plx::server::ApiResponse& r) {
  if (r.status != 200 && r.status != 400 && r.status != 404 && r.status != 501 && r.status != 503)
    std::abort();
  if (r.content_type == "application/json") {
    if (!nlohmann::json::accept(r.body)) std::abort();
  } else {
    namespace wire = plx::server::wire;
    wire::TileHeader h;
    if (r.body.size() < sizeof h) std::abort();
    std::memcpy(&h, r.body.data(), sizeof h);
    const size_t expected =
        sizeof h + h.slices * sizeof(wire::TileSlice) + h.instants * sizeof(wire::TileInstant) +
        h.arrows * sizeof(wire::TileArrow) + h.points * sizeof(wire::TileCounterPoint);
    if (h.magic != 0x544c5850u || r.body.size() != expected) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string_view path = input.substr(0, newline);
  const std::string_view query =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  Check(TheApi().Handle(path, query));
  constexpr std::string_view kLoaded = "/traces/t/";
  if (path.starts_with(kLoaded))
    Check(TheApi().Handle("/traces/f/" + std::string(path.substr(kLoaded.size())), query));
  return 0;
}
