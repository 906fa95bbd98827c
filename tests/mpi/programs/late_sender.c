/* late_sender: rank 0 waits in MPI_Recv while rank 1 sleeps before each
 * MPI_Send, so every receive waits for a late sender for a known time.
 *
 *   mpirun -np 2 late_sender [COUNTS_DIR] [MESSAGES] [DELAY_MS]
 *
 * After an MPI_Barrier, rank 1 sleeps DELAY_MS (default 50; nanosleep) and
 * sends 8 B [tag 1] to rank 0, MESSAGES times (default 4); rank 0 posts each
 * MPI_Recv at once. Rank 0's receives wait about MESSAGES x DELAY_MS for a
 * late sender in all (the first less the barrier's exit skew, later ones less
 * the message latency); its counts file says so:
 *   late_sender_ns <MESSAGES x DELAY_MS in ns>
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
  const int messages = argc > 2 ? atoi(argv[2]) : 4;
  const int delay_ms = argc > 3 ? atoi(argv[3]) : 50;
  if (size != 2 || messages < 1 || delay_ms < 0 || delay_ms > 999) {
    if (rank == 0) fprintf(stderr, "late_sender: needs 2 ranks, MESSAGES >= 1, DELAY_MS < 1000\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");
  double value = 0;
  for (int i = 0; i < messages; ++i) {
    if (rank == 1) {
      nanosleep(&(struct timespec){0, (long)delay_ms * 1000 * 1000}, NULL);
      value = i;
      MPI_Send(&value, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
      count_call("MPI_Send");
      count_msg(0, 1, sizeof value);
    } else {
      MPI_Recv(&value, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      count_call("MPI_Recv");
      count_rcv(1, 1, sizeof value);
      COUNT_CHECK(value == i);
    }
  }
  if (rank == 0) count_line("late_sender_ns %lld", (long long)messages * delay_ms * 1000000LL);
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Finalize();
  return 0;
}
