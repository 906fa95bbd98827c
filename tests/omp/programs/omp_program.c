/* An OpenMP program (built with clang -fopenmp for LLVM's libomp, and with
 * gcc -fopenmp for libgomp) that logs what it did, for the tests of
 * tests/omp to compare with the trace: the chunks each thread ran of a
 * schedule(static, 4) and a schedule(dynamic, 8) loop of 64 iterations
 * ("chunk <loop> <thread num> <first> <last>", from the loop variable), its
 * parallel regions, implicit tasks, explicit barriers, tasks and contended
 * critical sections. Writes to argv[1]; OMP_NUM_THREADS unused (every
 * region asks for 4 threads). */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { kIters = 64, kThreads = 4, kBarriers = 5, kTasks = 12 };

static volatile double sink;

/* Some work, so that the threads of a dynamic loop share the chunks. */
static void Work(int i) {
  double x = i;
  for (int k = 0; k < 20000; ++k)
    x = x * 1.0000001 + 1.0;
  sink = x;
}

/* The iterations each thread started a chunk with, in the order it ran them. */
static int starts[kThreads][kIters], nstarts[kThreads];

static void Iteration(int* owner, int i, int chunk) {
  const int tid = omp_get_thread_num();
  owner[i] = tid;
  if (i % chunk == 0) starts[tid][nstarts[tid]++] = i;
  Work(i);
}

/* The chunks of a loop, per thread in the order it ran them: from each start,
 * the run of iterations by that thread up to the next multiple of the
 * schedule's chunk size. Clears the starts for the next loop. */
static void PrintChunks(FILE* out, int loop, const int* owner, int chunk) {
  for (int tid = 0; tid < kThreads; ++tid) {
    for (int k = 0; k < nstarts[tid]; ++k) {
      const int lo = starts[tid][k];
      int hi = lo;
      while (hi + 1 < kIters && (hi + 1) % chunk != 0 && owner[hi + 1] == tid)
        ++hi;
      fprintf(out, "chunk %d %d %d %d\n", loop, tid, lo, hi);
    }
    nstarts[tid] = 0;
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
    return 2;
  }
  FILE* out = fopen(argv[1], "w");
  if (out == NULL) return 2;
  int regions = 0, implicit_tasks = 0;
  int owner[kIters];

#pragma omp parallel for schedule(static, 4) num_threads(kThreads)
  for (int i = 0; i < kIters; ++i)
    Iteration(owner, i, 4);
  ++regions;
  implicit_tasks += kThreads;
  PrintChunks(out, 0, owner, 4);

#pragma omp parallel for schedule(dynamic, 8) num_threads(kThreads)
  for (int i = 0; i < kIters; ++i)
    Iteration(owner, i, 8);
  ++regions;
  implicit_tasks += kThreads;
  PrintChunks(out, 1, owner, 8);

  int team = 0;
#pragma omp parallel num_threads(kThreads)
  {
#pragma omp single
    team = omp_get_num_threads();
    for (int b = 0; b < kBarriers; ++b) {
#pragma omp barrier
    }
  }
  ++regions;
  implicit_tasks += team;

  int tasks_run = 0;
#pragma omp parallel num_threads(kThreads)
  {
#pragma omp single
    {
      for (int t = 0; t < kTasks; ++t) {
#pragma omp task
        {
          Work(t);
#pragma omp atomic
          ++tasks_run;
        }
      }
#pragma omp taskwait
    }
  }
  ++regions;
  implicit_tasks += kThreads;

  /* Thread 0 holds the critical section until the others have tried to enter. */
  atomic_int holding = 0;
#pragma omp parallel num_threads(kThreads)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp critical
      {
        atomic_store(&holding, 1);
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
      }
    } else {
      while (atomic_load(&holding) == 0) {
      }
#pragma omp critical
      { sink = 1; }
    }
  }
  ++regions;
  implicit_tasks += kThreads;

  fprintf(out, "team %d\nregions %d\nimplicit_tasks %d\nbarriers %d\ntasks %d\n", team, regions,
          implicit_tasks, kBarriers, tasks_run);
  fclose(out);
  return 0;
}
