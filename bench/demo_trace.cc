// DemoTracePath / DemoTrace for the benchmarks.
#include "demo_trace.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace plx::bench {

std::string DemoTracePath() {
  if (const char* path = std::getenv("PLX_BENCH_TRACE")) return path;
  const std::string path = "/tmp/plx-bench-demo.plx";
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    const std::string cmd = "PLX_OUTPUT=" + path +
                            " " PLX_FARM_BIN " --workers 3 --jobs 20000 --work-us 20 > /dev/null";
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "could not run %s\n", cmd.c_str());
  }
  return path;
}

const format::TraceFile& DemoTrace() {
  static std::unique_ptr<format::TraceFile> file = [] {
    auto f = format::TraceFile::Open(DemoTracePath());
    if (!f.ok()) {
      std::fprintf(stderr, "%s\n", f.status().message().c_str());
      std::exit(1);
    }
    return std::move(f).value();
  }();
  return *file;
}

}  // namespace plx::bench
