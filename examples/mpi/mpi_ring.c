/* A token passed round a ring of MPI processes: first hop by hop with
 * MPI_Send/MPI_Recv (one message in flight), then all at once with
 * MPI_Irecv/MPI_Isend + MPI_Waitall (every rank shifts to the right at the
 * same time). Rank 0 prints the time per hop and per shift. With --split,
 * the lower half of the ranks then make a communicator of their own
 * (MPI_Comm_split) and run N MPI_Allreduce rounds on it, so that the trace
 * holds a sub-communicator beside MPI_COMM_WORLD.
 *
 *   mpirun -np N mpi_ring [--rounds N] [--bytes N] [--split]           N >= 2 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ParseOptions(int argc, char** argv, int* rounds, int* bytes, int* split) {
  for (int i = 1; i < argc; ++i) {
    int* target = NULL;
    if (strcmp(argv[i], "--split") == 0) {
      *split = 1;
      continue;
    }
    if (strcmp(argv[i], "--rounds") == 0)
      target = rounds;
    else if (strcmp(argv[i], "--bytes") == 0)
      target = bytes;
    if (!target || i + 1 >= argc) return 0;
    char* end = NULL;
    long v = strtol(argv[++i], &end, 10);
    if (end == argv[i] || *end != 0 || v < 0 || v > (1L << 28)) return 0;
    *target = (int)v;
  }
  return *rounds > 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rounds = 100, bytes = 8, split = 0;
  if (!ParseOptions(argc, argv, &rounds, &bytes, &split) || size < 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpirun -np N %s [--rounds N] [--bytes N] [--split]   (N >= 2 processes)\n"
              "Passes a token round the ring N times, blocking then nonblocking;\n"
              "--split: then N allreduces on a communicator of the lower half of the ranks.\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  char* out = calloc((size_t)bytes + 1, 1);
  char* in = calloc((size_t)bytes + 1, 1);

  /* Blocking: rank 0 starts each round and receives the token back. */
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int r = 0; r < rounds; ++r) {
    if (rank == 0) {
      MPI_Send(out, bytes, MPI_BYTE, right, r, MPI_COMM_WORLD);
      MPI_Recv(in, bytes, MPI_BYTE, left, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(in, bytes, MPI_BYTE, left, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(in, bytes, MPI_BYTE, right, r, MPI_COMM_WORLD);
    }
  }
  const double blocking = MPI_Wtime() - start;

  /* Nonblocking: every rank sends to the right and receives from the left. */
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  for (int r = 0; r < rounds; ++r) {
    MPI_Request requests[2];
    MPI_Irecv(in, bytes, MPI_BYTE, left, r, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, bytes, MPI_BYTE, right, r, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    memcpy(out, in, (size_t)bytes);
  }
  const double nonblocking = MPI_Wtime() - start;

  /* A sub-communicator: the lower half of the ranks (the others get MPI_COMM_NULL). */
  if (split) {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2 ? 0 : MPI_UNDEFINED, rank, &half);
    if (half != MPI_COMM_NULL) {
      long sum = 0;
      for (int r = 0; r < rounds; ++r) {
        long mine = rank + r;
        MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, half);
      }
      MPI_Comm_free(&half);
    }
  }

  if (rank == 0)
    printf(
        "ring: %d ranks, %d rounds of %d bytes: %.2f us per hop (Send/Recv), "
        "%.2f us per shift (Isend/Irecv)\n",
        size, rounds, bytes, 1e6 * blocking / ((double)rounds * size), 1e6 * nonblocking / rounds);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
