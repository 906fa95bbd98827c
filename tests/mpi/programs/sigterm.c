/* sigterm: some traffic, the counts file, then every rank waits in a loop of
 * short MPI_Barrier + nanosleep until the test sends SIGTERM to mpirun.
 *
 *   mpirun -np N sigterm [COUNTS_DIR] [SECONDS]      N >= 2
 *
 * Traffic: a token round the ring with MPI_Send/MPI_Recv (8 B) [1], an
 * MPI_Isend/MPI_Irecv/MPI_Waitall exchange with both neighbours (64 B) [2, 3],
 * MPI_Allreduce, MPI_Barrier. Each rank then writes its counts (ending with
 * `after MPI_Barrier *`: any number follow), enters one more MPI_Barrier (every
 * file is written), and rank 0 prints "sigterm: ready" and flushes stdout: the
 * cue for the test to send the signal. The loop sleeps 10 ms per barrier; if
 * nobody kills the job within SECONDS (default 60) it ends with exit code 1.
 * Every count and line is the same in every run. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "count.h"

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  count_init(&argc, &argv, &rank, &size);
  const int seconds = argc > 2 ? atoi(argv[2]) : 60;
  if (size < 2 || seconds < 1) {
    if (rank == 0) fprintf(stderr, "sigterm: needs 2 or more ranks and SECONDS >= 1\n");
    MPI_Finalize();
    return 2;
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;

  count_ring_token(rank, left, right, 1);
  double to_right[8] = {0}, to_left[8] = {0}, from_left[8], from_right[8];
  MPI_Request requests[4];
  MPI_Irecv(from_left, 8, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(from_right, 8, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &requests[1]);
  count_calls("MPI_Irecv", 2);
  MPI_Isend(to_right, 8, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[2]);
  count_call("MPI_Isend");
  count_msg(right, 2, sizeof to_right);
  MPI_Isend(to_left, 8, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &requests[3]);
  count_call("MPI_Isend");
  count_msg(left, 3, sizeof to_left);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  count_call("MPI_Waitall");
  count_rcv(left, 2, sizeof from_left);
  count_rcv(right, 3, sizeof from_right);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  count_call("MPI_Allreduce");
  COUNT_CHECK(sum == size);
  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");

  count_line("after MPI_Barrier *");
  count_write(count_dir(argc, argv), rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("sigterm: ready\n");
    fflush(stdout);
  }
  for (int i = 0; i < seconds * 100; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
  }
  if (rank == 0) fprintf(stderr, "sigterm: nobody sent SIGTERM in %d s\n", seconds);
  MPI_Finalize();
  return 1;
}
