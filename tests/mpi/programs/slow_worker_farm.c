/* slow_worker_farm: a statically balanced farm with one slow worker. Rank 0
 * gives every worker (ranks 1..N-1) the same number of jobs; each job is
 * computed inside the user state "compute", and the last rank computes 3x
 * longer per job. All ranks end in MPI_Barrier, where the others wait for it.
 *
 *   mpirun -np N slow_worker_farm [COUNTS_DIR] [JOBS] [WORK_MS]     N >= 3
 *
 * JOBS per worker (default 10), WORK_MS paced wall-clock milliseconds per job
 * (default 5; the slow worker 3 x WORK_MS). Rank 0 sends every job first
 * (MPI_Send, 1 int [tag 1]), then takes the results worker by worker
 * (MPI_Recv, 1 double [tag 2]). Each rank's counts file ends with
 *   compute_ns <its total time in "compute", as it measured it>   (0 on rank 0;
 *               at least JOBS x its WORK_MS, more on a busy machine)
 *   slow_worker <rank>
 * Every other count and line is the same in every run. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "count.h"
#include "user_state.h"

enum { kTagJob = 1, kTagResult = 2, kSlowFactor = 3 };

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  count_init(&argc, &argv, &rank, &size);
  const int jobs = argc > 2 ? atoi(argv[2]) : 10;
  const int work_ms = argc > 3 ? atoi(argv[3]) : 5;
  if (size < 3 || jobs < 1 || work_ms < 1) {
    if (rank == 0) fprintf(stderr, "slow_worker_farm: needs 3 or more ranks, JOBS, WORK_MS >= 1\n");
    MPI_Finalize();
    return 2;
  }
  const int slow = size - 1;
  const UserState compute = user_state_define("compute");
  long long compute_ns = 0;
  if (rank == 0) {
    for (int w = 1; w < size; ++w) {
      for (int j = 0; j < jobs; ++j) {
        MPI_Send(&j, 1, MPI_INT, w, kTagJob, MPI_COMM_WORLD);
        count_call("MPI_Send");
        count_msg(w, kTagJob, sizeof j);
      }
    }
    for (int w = 1; w < size; ++w) {
      for (int j = 0; j < jobs; ++j) {
        double result = 0;
        MPI_Recv(&result, 1, MPI_DOUBLE, w, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        count_call("MPI_Recv");
        count_rcv(w, kTagResult, sizeof result);
      }
    }
  } else {
    const int ms = rank == slow ? kSlowFactor * work_ms : work_ms;
    for (int j = 0; j < jobs; ++j) {
      int job = 0;
      MPI_Recv(&job, 1, MPI_INT, 0, kTagJob, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      count_call("MPI_Recv");
      count_rcv(0, kTagJob, sizeof job);
      COUNT_CHECK(job == j);
      const int64_t begin = user_now_ns();
      user_state_enter(&compute);
      double result = user_paced_work((int64_t)ms * 1000);
      user_state_leave(&compute);
      compute_ns += (long long)(user_now_ns() - begin);
      MPI_Send(&result, 1, MPI_DOUBLE, 0, kTagResult, MPI_COMM_WORLD);
      count_call("MPI_Send");
      count_msg(0, kTagResult, sizeof result);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");
  count_line("compute_ns %lld", compute_ns);
  count_line("slow_worker %d", slow);
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Finalize();
  return 0;
}
