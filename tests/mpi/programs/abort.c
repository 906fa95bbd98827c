/* abort: some traffic, the counts file, then rank 1 calls
 * MPI_Abort(MPI_COMM_WORLD, 3) while rank 0 waits in an MPI_Recv from rank 1
 * and the other ranks wait in an MPI_Barrier that rank 1 never enters.
 *
 *   mpirun -np N abort [COUNTS_DIR]      N >= 2; mpirun exits non-zero (3)
 *
 * Traffic: a token round the ring with MPI_Send/MPI_Recv (8 B) [1], one
 * MPI_Sendrecv with each neighbour (1 KiB) [2], MPI_Allreduce, MPI_Barrier.
 * Each rank then writes its counts (with `after` lines for what follows) and
 * enters one more MPI_Barrier, so every file is complete before the abort.
 * After it: rank 1 sleeps 0.2 s (the others are blocked by then) and calls
 * MPI_Abort; rank 0 calls MPI_Recv; ranks 2.. call MPI_Barrier again. Rank 1
 * prints "abort: rank 1 calls MPI_Abort" first. Every count and line is the
 * same in every run. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "count.h"

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  count_init(&argc, &argv, &rank, &size);
  if (size < 2) {
    fprintf(stderr, "abort: needs 2 or more ranks\n");
    MPI_Finalize();
    return 2;
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;

  count_ring_token(rank, left, right, 1);
  char out[1024] = {0}, in[1024];
  MPI_Sendrecv(out, 1024, MPI_BYTE, right, 2, in, 1024, MPI_BYTE, left, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  count_call("MPI_Sendrecv");
  count_msg(right, 2, 1024);
  count_rcv(left, 2, 1024);
  MPI_Sendrecv(out, 1024, MPI_BYTE, left, 2, in, 1024, MPI_BYTE, right, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  count_call("MPI_Sendrecv");
  count_msg(left, 2, 1024);
  count_rcv(right, 2, 1024);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  count_call("MPI_Allreduce");
  COUNT_CHECK(sum == size);
  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");

  count_line("after MPI_Barrier %d", rank >= 2 ? 2 : 1);
  if (rank == 0) count_line("after MPI_Recv 1");
  if (rank == 1) count_line("after MPI_Abort 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    printf("abort: rank 1 calls MPI_Abort\n");
    fflush(stdout);
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
    MPI_Abort(MPI_COMM_WORLD, 3);
  } else if (rank == 0) {
    double never = 0;
    MPI_Recv(&never, 1, MPI_DOUBLE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  fprintf(stderr, "abort: rank %d is still running\n", rank);
  MPI_Finalize();
  return 1;
}
