/* slow_iterations: an iterative program, each iteration a fixed amount of
 * compute inside the user state "iteration" followed by MPI_Allreduce; on
 * request a few iterations of one rank are 8x slower.
 *
 *   mpirun -np N slow_iterations [COUNTS_DIR] [inject] [ITERATIONS] [WORK_US]
 *
 * N >= 2 (the tests use 4). ITERATIONS (default 100) of WORK_US paced
 * wall-clock microseconds (default 5000; user_paced_work in user_state.h)
 * each. With `inject` (else `clean` or nothing), rank 2 (the last rank when
 * N < 3) repeats the compute of iterations 30 and 70 (counted from 0; those
 * below ITERATIONS) 8 times.
 * Each rank's counts file ends with one line per slow iteration it ran:
 *   slow_iteration <iteration> <its compute in ns, as the program measured it>
 * (at least REPEATS x WORK_US; more on a busy machine), and one line per
 * other iteration whose compute took over twice WORK_US (the machine stalled
 * it):
 *   stalled_iteration <iteration> <its compute in ns> */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "user_state.h"

enum { kSlowFactor = 8 };
static const int kSlowIterations[] = {30, 70};

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  count_init(&argc, &argv, &rank, &size);
  const int inject = argc > 2 && strcmp(argv[2], "inject") == 0;
  const int iterations = argc > 3 ? atoi(argv[3]) : 100;
  const int work_us = argc > 4 ? atoi(argv[4]) : 5000;
  if (size < 2 || iterations < 1 || work_us < 1 ||
      (argc > 2 && !inject && strcmp(argv[2], "clean") != 0)) {
    if (rank == 0)
      fprintf(stderr,
              "slow_iterations: needs 2 or more ranks; [inject|clean] ITERATIONS WORK_US\n");
    MPI_Finalize();
    return 2;
  }
  const int slow_rank = size > 2 ? 2 : size - 1;
  const UserState iteration = user_state_define("iteration");
  double x = 0, sum = 0;
  for (int i = 0; i < iterations; ++i) {
    int repeats = 1;
    for (size_t k = 0; k < sizeof kSlowIterations / sizeof kSlowIterations[0]; ++k)
      if (inject && rank == slow_rank && i == kSlowIterations[k]) repeats = kSlowFactor;
    const int64_t begin = user_now_ns();
    user_state_enter(&iteration);
    for (int r = 0; r < repeats; ++r)
      x += user_paced_work(work_us);
    user_state_leave(&iteration);
    const long long ns = (long long)(user_now_ns() - begin);
    if (repeats > 1)
      count_line("slow_iteration %d %lld", i, ns);
    else if (ns > 2LL * work_us * 1000)
      count_line("stalled_iteration %d %lld", i, ns);
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    count_call("MPI_Allreduce");
  }
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Finalize();
  return 0;
}
