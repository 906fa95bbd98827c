/* compute_allreduce: a compute-bound MPI program for bench/mpi_overhead.py.
 * Each iteration every rank does a fixed amount of floating-point work (SWEEPS
 * passes of y = y * a + x over 2048 doubles, about 2 ms at the default on a
 * 2.4 GHz core) and then one MPI_Allreduce of 8 doubles.
 *
 *   mpirun -np N compute_allreduce [ITERATIONS [SWEEPS]]     defaults 500, 2000
 *
 * Rank 0 prints one JSON line: the timed loop's seconds (slowest rank), the
 * mean seconds a rank spent computing, and the MPI calls each rank made in the
 * loop (one MPI_Allreduce per iteration). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kLength = 2048, kReduced = 8 };

static double g_x[kLength], g_y[kLength];

static long Arg(int argc, char** argv, int i, long fallback) {
  if (argc <= i) return fallback;
  char* end = NULL;
  const long v = strtol(argv[i], &end, 10);
  if (*end != '\0' || v < 0) {
    fprintf(stderr, "compute_allreduce: bad argument '%s'\n", argv[i]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return v;
}

/* The fixed work: `sweeps` passes over arrays that fit in L1, so the time does
 * not depend on the other rank's memory traffic. Values stay bounded. */
static void Compute(long sweeps, double out[kReduced]) {
  for (long s = 0; s < sweeps; ++s)
    for (int i = 0; i < kLength; ++i)
      g_y[i] = g_y[i] * 0.999 + g_x[i];
  for (int k = 0; k < kReduced; ++k)
    out[k] = g_y[k * (kLength / kReduced)];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long iterations = Arg(argc, argv, 1, 500);
  const long sweeps = Arg(argc, argv, 2, 2000);
  for (int i = 0; i < kLength; ++i) {
    g_x[i] = 1e-3 * (double)((i + rank) % 17);
    g_y[i] = 0.0;
  }
  double local[kReduced], global[kReduced] = {0};

  /* Warm-up: one iteration, so page faults and first-call costs stay out. */
  Compute(sweeps, local);
  MPI_Allreduce(local, global, kReduced, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  double compute = 0.0;
  const double begin = MPI_Wtime();
  for (long it = 0; it < iterations; ++it) {
    const double t0 = MPI_Wtime();
    Compute(sweeps, local);
    compute += MPI_Wtime() - t0;
    MPI_Allreduce(local, global, kReduced, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  const double mine = MPI_Wtime() - begin;

  double seconds = 0.0, compute_sum = 0.0;
  MPI_Reduce(&mine, &seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&compute, &compute_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf(
        "{\"program\": \"compute_allreduce\", \"ranks\": %d, \"iterations\": %ld, "
        "\"sweeps\": %ld, \"seconds\": %.9f, \"compute_seconds\": %.9f, "
        "\"calls_per_rank\": %ld, \"checksum\": %.6g}\n",
        size, iterations, sweeps, seconds, compute_sum / size, iterations, global[0]);
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
