/* deadlock: two ranks that each wait in MPI_Recv for the other before
 * sending, so neither ever sends: the run hangs until it is killed.
 *
 *   mpirun -np 2 deadlock [COUNTS_DIR] [SECONDS]
 *
 * An MPI_Barrier, the counts file (its `after MPI_Recv 1` line: the blocked
 * call), another MPI_Barrier (every file is written), then rank 0 prints
 * "deadlock: waiting" and flushes stdout (the cue for a test to kill mpirun),
 * and both ranks call MPI_Recv(8 B from the other rank, tag 7, MPI_COMM_WORLD)
 * — which never returns — and would then MPI_Send. If nobody kills the job
 * within SECONDS (default 60) an alarm ends each rank (SIGALRM). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "count.h"

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  count_init(&argc, &argv, &rank, &size);
  const int seconds = argc > 2 ? atoi(argv[2]) : 60;
  if (size != 2 || seconds < 1) {
    if (rank == 0) fprintf(stderr, "deadlock: needs 2 ranks and SECONDS >= 1\n");
    MPI_Finalize();
    return 2;
  }
  alarm((unsigned)seconds);
  const int other = 1 - rank;
  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");
  count_line("after MPI_Barrier 1");
  count_line("after MPI_Recv 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("deadlock: waiting\n");
    fflush(stdout);
  }
  double in = 0, out = rank;
  MPI_Recv(&in, 1, MPI_DOUBLE, other, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&out, 1, MPI_DOUBLE, other, 7, MPI_COMM_WORLD);
  fprintf(stderr, "deadlock: rank %d received a message nobody sent\n", rank);
  MPI_Finalize();
  return 1;
}
