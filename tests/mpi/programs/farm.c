/* farm: a master/worker farm whose master takes results with
 * MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG), with each MPI call and message counted
 * by hand (count.h) so a test can check a trace exactly.
 *
 *   mpirun -np N farm [COUNTS_DIR] [JOBS] [WORK_US] [SLOW_WORKER]
 *
 * N >= 2; COUNTS_DIR ("-" or "" for $PLX_TEST_COUNTS_DIR), JOBS (default 200),
 * WORK_US busy microseconds per job (default 100), SLOW_WORKER a rank that
 * works 4x slower (default none). Starts with MPI_Init_thread.
 * Messages: job [1] 2 ints = 8 B master -> worker; stop [2] 0 B master ->
 * worker; result [1000 + job % 1000] 2 doubles = 16 B worker -> master.
 * Which worker gets which job changes from run to run; the total of each
 * kind of message does not (JOBS jobs and results, one stop per worker). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "count.h"

enum { kTagJob = 1, kTagStop = 2, kTagResult = 1000 };

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Busy work for about `us` microseconds. */
static double Compute(int us) {
  const double until = Now() + us * 1e-6;
  double x = 1.0;
  while (Now() < until) {
    for (int i = 0; i < 100; ++i)
      x = x * 1.0000001 + 1e-9;
  }
  return x;
}

static int ParseArg(int argc, char** argv, int index, int fallback) {
  if (argc <= index) return fallback;
  char* end = NULL;
  long v = strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != 0 || v < -1 || v > 10000000) {
    fprintf(stderr, "farm: bad number '%s'\n", argv[index]);
    exit(2);
  }
  return (int)v;
}

static void SendJob(int worker, int* next_job, int jobs, int* active) {
  int job[2] = {*next_job, 1 + *next_job % 19};
  if (*next_job < jobs) {
    MPI_Send(job, 2, MPI_INT, worker, kTagJob, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(worker, kTagJob, sizeof job);
    ++*next_job;
    ++*active;
  } else {
    MPI_Send(NULL, 0, MPI_INT, worker, kTagStop, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(worker, kTagStop, 0);
  }
}

static void Master(int size, int jobs) {
  int next_job = 0, active = 0;
  int* done_by = calloc((size_t)size, sizeof(int));
  for (int w = 1; w < size; ++w)
    SendJob(w, &next_job, jobs, &active);
  double units = 0;
  while (active > 0) {
    double result[2];
    MPI_Status status;
    MPI_Recv(result, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    count_call("MPI_Recv");
    count_rcv(status.MPI_SOURCE, status.MPI_TAG, sizeof result);
    COUNT_CHECK(status.MPI_TAG == kTagResult + (int)result[0] % 1000);
    units += result[1];
    ++done_by[status.MPI_SOURCE];
    --active;
    SendJob(status.MPI_SOURCE, &next_job, jobs, &active);
  }
  printf("farm: %d jobs, %.0f units on %d workers; jobs per worker:", jobs, units, size - 1);
  for (int w = 1; w < size; ++w)
    printf(" %d", done_by[w]);
  printf("\n");
  free(done_by);
}

static void Worker(int work_us, int slow) {
  for (;;) {
    int job[2];
    MPI_Status status;
    MPI_Recv(job, 2, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    count_call("MPI_Recv");
    if (status.MPI_TAG == kTagStop) {
      count_rcv(0, kTagStop, 0);
      return;
    }
    count_rcv(0, kTagJob, sizeof job);
    Compute(job[1] * work_us / 10 * (slow ? 4 : 1));
    double result[2] = {job[0], job[1]};
    const int tag = kTagResult + job[0] % 1000;
    MPI_Send(result, 2, MPI_DOUBLE, 0, tag, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(0, tag, sizeof result);
  }
}

int main(int argc, char** argv) {
  int provided = 0, rank = 0, size = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  count_call("MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  count_call("MPI_Comm_rank");
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  count_call("MPI_Comm_size");
  const int jobs = ParseArg(argc, argv, 2, 200);
  const int work_us = ParseArg(argc, argv, 3, 100);
  const int slow_worker = ParseArg(argc, argv, 4, -1);
  if (size < 2 || jobs < 0 || work_us < 0) {
    if (rank == 0) fprintf(stderr, "farm: needs 2 or more ranks\n");
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    Master(size, jobs);
  else
    Worker(work_us, rank == slow_worker);
  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Finalize();
  return 0;
}
