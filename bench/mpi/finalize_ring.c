/* finalize_ring: what MPI_Finalize costs a traced run. Each rank exchanges
 * ITERATIONS messages with its ring neighbours (MPI_Sendrecv), then times its
 * own MPI_Finalize, where the tracing library writes the rank's part and,
 * unless PLX_MERGE=0, rank 0 merges every part into the trace.
 *
 *   mpirun -np N finalize_ring [ITERATIONS]     default 2000
 *
 * Rank 0 prints one JSON line after MPI_Finalize: the ranks, the iterations,
 * and the seconds its MPI_Finalize took (the run ends when rank 0's does). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iterations = 2000;
  if (argc > 1) {
    char* end = NULL;
    iterations = strtol(argv[1], &end, 10);
    if (*end != '\0' || iterations < 0) {
      if (rank == 0) fprintf(stderr, "finalize_ring: bad argument '%s'\n", argv[1]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double out = rank, in = 0;
  for (long i = 0; i < iterations; ++i)
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, next, 1, &in, 1, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  const double begin = Now();
  MPI_Finalize();
  const double seconds = Now() - begin;
  if (rank == 0)
    printf("{\"ranks\": %d, \"iterations\": %ld, \"finalize_seconds\": %.6f}\n", size, iterations,
           seconds);
  return 0;
}
