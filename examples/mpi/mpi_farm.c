/* A master/worker farm over MPI: rank 0 hands out jobs with MPI_Send and takes
 * results with MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG), giving the next job to
 * whoever answered; the other ranks compute. --slow-worker makes one rank 3x
 * slower, a load imbalance to find in the trace. Rank 0 prints jobs per worker.
 *
 *   mpirun -np N mpi_farm [--jobs N] [--work-us N] [--slow-worker RANK]   N >= 2 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kTagJob = 1, kTagStop = 2 }; /* results carry the job id as their tag */

typedef struct {
  int jobs;
  int work_us;     /* mean time per job */
  int slow_worker; /* this rank works 3x slower; -1: none */
} Options;

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Busy work for about `us` microseconds (a sleep would not look like computing). */
static double Compute(int us) {
  const double until = Now() + us * 1e-6;
  double x = 1.0;
  while (Now() < until) {
    for (int i = 0; i < 200; ++i)
      x = x * 1.0000001 + 1e-9;
  }
  return x;
}

/* Sends job `*next` (id, size in units of work/10) or, when all are out, a stop. */
static int Dispatch(int worker, int* next, const Options* opt) {
  if (*next >= opt->jobs) {
    MPI_Send(NULL, 0, MPI_INT, worker, kTagStop, MPI_COMM_WORLD);
    return 0;
  }
  int job[2] = {*next, 1 + (int)((*next * 7919u) % 19u)}; /* sizes 1..19, mean 10 */
  MPI_Send(job, 2, MPI_INT, worker, kTagJob, MPI_COMM_WORLD);
  ++*next;
  return 1;
}

static void Master(int size, const Options* opt) {
  int* done = calloc((size_t)size, sizeof(int));
  int next = 0, busy = 0;
  const double start = MPI_Wtime();
  for (int w = 1; w < size; ++w)
    busy += Dispatch(w, &next, opt);
  double units = 0;
  while (busy > 0) {
    double result[2];
    MPI_Status status;
    MPI_Recv(result, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    units += result[1];
    ++done[status.MPI_SOURCE];
    busy += Dispatch(status.MPI_SOURCE, &next, opt) - 1;
  }
  printf("farm: %d jobs, %.0f units on %d workers in %.3f s; jobs per worker:", opt->jobs, units,
         size - 1, MPI_Wtime() - start);
  for (int w = 1; w < size; ++w)
    printf(" %d", done[w]);
  printf("\n");
  free(done);
}

static void Worker(int rank, const Options* opt) {
  for (;;) {
    int job[2];
    MPI_Status status;
    MPI_Recv(job, 2, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kTagStop) return;
    int us = job[1] * opt->work_us / 10;
    if (rank == opt->slow_worker) us *= 3;
    double result[2] = {Compute(us), job[1]};
    MPI_Send(result, 2, MPI_DOUBLE, 0, job[0] % 32768, MPI_COMM_WORLD);
  }
}

static int ParseOptions(int argc, char** argv, Options* opt) {
  for (int i = 1; i < argc; ++i) {
    int* target = NULL;
    if (strcmp(argv[i], "--jobs") == 0)
      target = &opt->jobs;
    else if (strcmp(argv[i], "--work-us") == 0)
      target = &opt->work_us;
    else if (strcmp(argv[i], "--slow-worker") == 0)
      target = &opt->slow_worker;
    if (!target || i + 1 >= argc) return 0;
    char* end = NULL;
    long v = strtol(argv[++i], &end, 10);
    if (end == argv[i] || *end != 0 || v < 0 || v > 1000000) return 0;
    *target = (int)v;
  }
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options opt = {.jobs = 400, .work_us = 200, .slow_worker = -1};
  if (!ParseOptions(argc, argv, &opt) || size < 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpirun -np N %s [--jobs N] [--work-us N] [--slow-worker RANK]  (N >= 2)\n"
              "A master/worker farm: rank 0 hands out jobs, the other ranks compute.\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    Master(size, &opt);
  else
    Worker(rank, &opt);
  MPI_Finalize();
  return 0;
}
