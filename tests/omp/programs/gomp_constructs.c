/* The OpenMP constructs whose libgomp entry points omp_program.c does not
 * call, for tests/omp/omp_gomp_test.cc (built with gcc -fopenmp: libgomp),
 * logging what it did to argv[1]: a guided loop counting down by 3 over a
 * long, a runtime-scheduled unsigned long long loop past LONG_MAX and an
 * ordered dynamic loop ("chunk <loop> <thread num> <first> <last>" in
 * logical iterations, one line per iteration), sections, a taskgroup, tasks
 * copying a variable-length array, a single with copyprivate, a contended
 * omp_set_lock, and a task reduction over a region. Four threads. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { kThreads = 4, kDown = 100, kStep = 3, kUll = 50, kOrdered = 40 };

static const unsigned long long kBig = 1ull << 63;
static volatile double sink;

static void Work(int n) {
  double x = n;
  for (int k = 0; k < 5000; ++k)
    x = x * 1.0000001 + 1.0;
  sink = x;
}

static void Sleep(long ms) {
  struct timespec ts = {0, ms * 1000 * 1000};
  nanosleep(&ts, NULL);
}

/* Three sections (an orphaned construct: the calling team shares it). */
static void Sections(int* run) {
#pragma omp sections
  {
#pragma omp section
    {
#pragma omp atomic
      ++*run;
    }
#pragma omp section
    {
#pragma omp atomic
      ++*run;
    }
#pragma omp section
    {
#pragma omp atomic
      ++*run;
    }
  }
}

/* One thread makes four tasks in a taskgroup, then two tasks with a
 * firstprivate variable-length array, which gcc copies with a copy function
 * (GOMP_task's cpyfn), and waits for them. */
static void Tasks(int* taskgroup_tasks, int* vla_ok) {
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int t = 0; t < 4; ++t) {
#pragma omp task
        {
          Sleep(2);
#pragma omp atomic
          ++*taskgroup_tasks;
        }
      }
    }
    int n = 3 + omp_get_num_threads();
    int vla[n];
    for (int k = 0; k < n; ++k)
      vla[k] = k * k;
    for (int t = 0; t < 2; ++t) {
#pragma omp task firstprivate(vla)
      {
        int ok = 1;
        for (int k = 0; k < n; ++k)
          ok &= vla[k] == k * k;
#pragma omp atomic
        *vla_ok += ok;
      }
    }
#pragma omp taskwait
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
    return 2;
  }
  FILE* out = fopen(argv[1], "w");
  if (out == NULL) return 2;
  static int owner_down[kDown], owner_ull[kUll], owner_ordered[kOrdered];
  int in_order = 1, next_ordered = 0, sections_run = 0, taskgroup_tasks = 0, vla_ok = 0;
  int copied = 0;
  atomic_int holding = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);

#pragma omp parallel num_threads(kThreads)
  {
    /* Logical iteration k is i = kDown - 1 - k * kStep. */
#pragma omp for schedule(guided, 2)
    for (long i = kDown - 1; i >= 0; i -= kStep) {
      owner_down[(kDown - 1 - i) / kStep] = omp_get_thread_num();
      Work((int)i);
    }

    /* Beyond a long: gcc calls the _ull_ entry points. */
#pragma omp for schedule(runtime)
    for (unsigned long long u = kBig; u < kBig + kUll; ++u) {
      owner_ull[u - kBig] = omp_get_thread_num();
      Work((int)(u - kBig));
    }

#pragma omp for ordered schedule(dynamic, 4)
    for (int i = 0; i < kOrdered; ++i) {
      owner_ordered[i] = omp_get_thread_num();
      Work(i);
#pragma omp ordered
      {
        if (i != next_ordered) in_order = 0;
        ++next_ordered;
      }
    }

    Sections(&sections_run);
    Tasks(&taskgroup_tasks, &vla_ok);

    int mine = 0;
#pragma omp single copyprivate(mine)
    mine = 42;
#pragma omp atomic
    copied += mine == 42;

    /* Thread 0 holds the lock until the others have tried to take it. */
    if (omp_get_thread_num() == 0) {
      omp_set_lock(&lock);
      atomic_store(&holding, 1);
      Sleep(100);
      omp_unset_lock(&lock);
    } else {
      while (atomic_load(&holding) == 0) {
      }
      omp_set_lock(&lock);
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_lock(&lock);

  /* A task reduction over a region (GOMP_parallel_reductions). */
  int sum = 0;
#pragma omp parallel num_threads(kThreads) reduction(task, + : sum)
  {
#pragma omp single
    for (int t = 0; t < 8; ++t) {
#pragma omp task in_reduction(+ : sum)
      sum += t;
    }
  }

  for (int k = 0; k < (kDown + kStep - 1) / kStep; ++k)
    fprintf(out, "chunk 0 %d %d %d\n", owner_down[k], k, k);
  for (int k = 0; k < kUll; ++k)
    fprintf(out, "chunk 1 %d %d %d\n", owner_ull[k], k, k);
  for (int k = 0; k < kOrdered; ++k)
    fprintf(out, "chunk 2 %d %d %d\n", owner_ordered[k], k, k);
  fprintf(out, "in_order %d\nsections %d\ntaskgroup_tasks %d\nvla_ok %d\ncopied %d\nsum %d\n",
          in_order, sections_run, taskgroup_tasks, vla_ok, copied, sum);
  fclose(out);
  return 0;
}
