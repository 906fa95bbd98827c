/* pingpong: the latency of 8-byte MPI_Send/MPI_Recv round trips between ranks
 * 0 and 1, for bench/mpi_overhead.py to run untraced and traced.
 *
 *   mpirun -np 2 pingpong [ROUND_TRIPS [WARMUP]]     defaults 200000, 20000
 *
 * Rank 0 prints one JSON line: the timed loop's seconds, the mean one-way
 * latency, and the MPI calls each rank made in it (one MPI_Send and one
 * MPI_Recv per round trip). Ranks beyond the second only wait at the barriers. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kBytes = 8, kTag = 1 };

static long Arg(int argc, char** argv, int i, long fallback) {
  if (argc <= i) return fallback;
  char* end = NULL;
  const long v = strtol(argv[i], &end, 10);
  if (*end != '\0' || v < 0) {
    fprintf(stderr, "pingpong: bad argument '%s'\n", argv[i]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return v;
}

/* n round trips; rank 0 starts each, rank 1 echoes. */
static void RoundTrips(int rank, long n, char* buf) {
  for (long i = 0; i < n; ++i) {
    if (rank == 0) {
      MPI_Send(buf, kBytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD);
      MPI_Recv(buf, kBytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, kBytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, kBytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "pingpong: needs 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long trips = Arg(argc, argv, 1, 200000);
  const long warmup = Arg(argc, argv, 2, 20000);
  char buf[kBytes] = {0};

  RoundTrips(rank, warmup, buf);
  MPI_Barrier(MPI_COMM_WORLD);
  const double begin = MPI_Wtime();
  RoundTrips(rank, trips, buf);
  const double seconds = MPI_Wtime() - begin;
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank == 0) {
    const double one_way_us = trips > 0 ? seconds * 1e6 / (2.0 * (double)trips) : 0.0;
    printf(
        "{\"program\": \"pingpong\", \"ranks\": %d, \"bytes\": %d, \"round_trips\": %ld, "
        "\"warmup\": %ld, \"seconds\": %.9f, \"one_way_us\": %.6f, \"calls_per_rank\": %ld}\n",
        size, kBytes, trips, warmup, seconds, one_way_us, 2 * trips);
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
