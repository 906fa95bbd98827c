// write_mpi_trace [EVENTS]: prints the path of the synthetic MPI trace of
// EVENTS records (default 100 M) in $PLX_BENCH_DIR, writing it first when it
// is not there. The viewer benchmark (web/e2e/first_paint_bench.mjs) serves it.
#include <fmt/core.h>

#include <cstdlib>
#include <string>

#include "bench/mpi_trace_gen.h"

int main(int argc, char** argv) {
  uint64_t events = 100'000'000;
  if (argc > 1) {
    char* end = nullptr;
    events = std::strtoull(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || events == 0) {
      fmt::print(stderr, "usage: write_mpi_trace [EVENTS]\n");
      return 2;
    }
  }
  fmt::print("{}\n", plx::bench::CachedMpiTrace(events));
  return 0;
}
