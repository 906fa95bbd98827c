// interop_bench [EVENTS]: export and import throughput of every format of
// src/interop on the synthetic MPI trace (bench/mpi_trace_gen.h) of EVENTS
// records (default 10 M), next to the peer tools reading the same files
// (otf2-print, pj_dump) where they are installed. Prints one JSON object
// (kind "interop") for bench/report.py. Files go to $PLX_BENCH_DIR.
#include <fmt/core.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/mpi_trace_gen.h"
#include "format/trace_file.h"
#include "interop/convert.h"
#include "interop/event_walk.h"
#include "model/load_trace.h"

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Bytes of a file, or of every file under a directory.
uint64_t SizeOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return 0;
  if (!S_ISDIR(st.st_mode)) return static_cast<uint64_t>(st.st_size);
  const std::string cmd = "du -sb '" + path + "' 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  unsigned long long bytes = 0;
  if (p != nullptr) {
    if (std::fscanf(p, "%llu", &bytes) != 1) bytes = 0;
    ::pclose(p);
  }
  return bytes;
}

bool Installed(const char* program) {
  return std::system(fmt::format("command -v {} >/dev/null 2>&1", program).c_str()) == 0;
}

// Wall time of a shell command; negative when it failed.
double TimeCommand(const std::string& command) {
  const auto start = Clock::now();
  const int status = std::system(command.c_str());
  const double s = Since(start);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? s : -1;
}

struct Result {
  std::string format;
  uint64_t bytes = 0;
  double export_s = 0;
  double import_s = -1;  // -1: not importable
  uint64_t imported_events = 0;
  std::string peer;
  double peer_s = -1;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace plx;
  uint64_t events = 10'000'000;
  if (argc > 1) events = std::strtoull(argv[1], nullptr, 10);
  if (events == 0) {
    fmt::print(stderr, "usage: interop_bench [EVENTS]\n");
    return 2;
  }
  const char* dir_env = std::getenv("PLX_BENCH_DIR");
  const std::string dir = dir_env != nullptr ? dir_env : ".";
  const std::string source = bench::CachedMpiTrace(events);

  auto file = format::TraceFile::Open(source);
  if (!file.ok()) {
    fmt::print(stderr, "{}\n", file.status().message());
    return 1;
  }
  auto start = Clock::now();
  auto loaded = model::LoadTrace(**file);
  const double load_s = Since(start);
  if (!loaded.ok()) {
    fmt::print(stderr, "{}\n", loaded.status().message());
    return 1;
  }
  const model::Trace& trace = *loaded;
  const uint64_t walk_events = interop::EventCount(trace);

  std::vector<Result> results;
  const std::pair<interop::Format, const char*> formats[] = {
      {interop::Format::kOtf2, "otf2"}, {interop::Format::kChromeJson, "json"},
      {interop::Format::kPaje, "paje"}, {interop::Format::kPicl, "picl"},
      {interop::Format::kCsv, "csv"},
  };
  for (const auto& [format, ext] : formats) {
    Result r;
    r.format = ext;
    const std::string out = dir + "/interop-bench." + ext;
    if (format == interop::Format::kOtf2) {  // the exporter does not overwrite an archive
      std::error_code ignored;
      for (const char* old : {"interop-bench.otf2", "interop-bench.def", "interop-bench"}) {
        std::filesystem::remove_all(dir + "/" + old, ignored);
      }
    }
    fmt::print(stderr, "interop_bench: {} export\n", ext);
    start = Clock::now();
    const Status exported = interop::ExportAs(format, trace, out);
    r.export_s = Since(start);
    if (!exported.ok()) {
      fmt::print(stderr, "{}\n", exported.message());
      return 1;
    }
    if (format == interop::Format::kOtf2) {
      r.bytes = SizeOf(out) + SizeOf(dir + "/interop-bench");
    } else if (format == interop::Format::kCsv) {
      for (const char* t : {"states", "messages", "counters"}) {
        r.bytes += SizeOf(dir + "/interop-bench." + t + ".csv");
      }
    } else {
      r.bytes = SizeOf(out);
    }
    if (interop::InfoOf(format).can_read) {
      fmt::print(stderr, "interop_bench: {} import\n", ext);
      const std::string back = dir + "/interop-bench-back.plx";
      start = Clock::now();
      auto builder = interop::TraceBuilder::Create(back);
      Status imported =
          builder.ok() ? interop::ImportInto(format, out, **builder) : builder.status();
      if (imported.ok()) imported = (*builder)->Finish();
      r.import_s = Since(start);
      if (!imported.ok()) {
        fmt::print(stderr, "{}\n", imported.message());
        return 1;
      }
      r.imported_events = (*builder)->events();
      ::unlink(back.c_str());
    }
    if (format == interop::Format::kOtf2 && Installed("otf2-print")) {
      r.peer = "otf2-print";
      r.peer_s = TimeCommand("otf2-print '" + out + "' >/dev/null 2>&1");
    } else if (format == interop::Format::kPaje && Installed("pj_dump")) {
      r.peer = "pj_dump";
      r.peer_s = TimeCommand("pj_dump '" + out + "' >/dev/null 2>&1");
    }
    results.push_back(r);
  }

  fmt::print(
      "{{\"kind\": \"interop\", \"records\": {}, \"events\": {}, \"load_s\": {:.3f}, "
      "\"formats\": [",
      trace.stats.records, walk_events, load_s);
  for (size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    fmt::print(
        "{}\n  {{\"format\": \"{}\", \"bytes\": {}, \"export_s\": {:.3f}, \"import_s\": "
        "{:.3f}, \"imported_events\": {}, \"peer\": \"{}\", \"peer_s\": {:.3f}}}",
        i ? "," : "", r.format, r.bytes, r.export_s, r.import_s, r.imported_events, r.peer,
        r.peer_s);
  }
  fmt::print("]}}\n");
  return 0;
}
