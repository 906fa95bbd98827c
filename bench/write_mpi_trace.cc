// write_mpi_trace [EVENTS [RANKS]]: prints the path of the synthetic MPI trace
// of EVENTS records (default 100 M) on RANKS ranks (default 16) in
// $PLX_BENCH_DIR, writing it first when it is not there. The viewer benchmarks
// serve it: web/e2e/first_paint_bench.mjs (16 ranks) and
// web/e2e/animation_bench.mjs (1024 ranks).
#include <fmt/core.h>

#include <cstdlib>
#include <string>

#include "bench/mpi_trace_gen.h"

namespace {

bool ParseCount(const char* arg, uint64_t* out) {
  char* end = nullptr;
  *out = std::strtoull(arg, &end, 10);
  return end != arg && *end == '\0' && *out != 0;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t events = 100'000'000;
  uint64_t ranks = 16;
  if (argc > 3 || (argc > 1 && !ParseCount(argv[1], &events)) ||
      (argc > 2 && (!ParseCount(argv[2], &ranks) || ranks < 2 || ranks > 65536))) {
    fmt::print(stderr, "usage: write_mpi_trace [EVENTS [RANKS (2..65536)]]\n");
    return 2;
  }
  fmt::print("{}\n", plx::bench::CachedMpiTrace(events, static_cast<uint32_t>(ranks)));
  return 0;
}
