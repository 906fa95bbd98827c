/* A program with known counter behaviour, for tests/counters: it records its
 * own states with the plx_* API and prints what it did.
 *   faults N K   state "touch" around writing one byte to each of N fresh
 *                pages, then K empty states "tick"
 *   spread N     N fresh pages in 10 batches (states "touch"), each batch
 *                followed by 3 ms of CPU time (state "spin")
 *   spin MS      state "spin" around MS ms of this thread's CPU time, no state
 *                changes inside
 *   migrate K    K states "on cpu", alternately pinned to the first two CPUs
 *                it may use; prints "cpu C" for each
 *   loop N       state "loop" around N iterations of a loop of known
 *                instructions (for hardware counters)
 *   threads T N  T threads, each "faults N 0" on its own */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "parallax/parallax.h"

static plx_state_t State(const char* name) {
  return plx_state_define(name, 0, NULL);
}

static void Touch(long pages) {
  const long page = sysconf(_SC_PAGESIZE);
  char* mem = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    perror("mmap");
    exit(1);
  }
  madvise(mem, (size_t)(pages * page), MADV_NOHUGEPAGE);
  const plx_state_t touch = State("touch");
  plx_state_enter(touch);
  for (long i = 0; i < pages; ++i)
    mem[i * page] = 1;
  plx_state_leave(touch);
  munmap(mem, (size_t)(pages * page));
}

static void Ticks(long k) {
  const plx_state_t tick = State("tick");
  for (long i = 0; i < k; ++i) {
    plx_state_enter(tick);
    plx_state_leave(tick);
  }
}

static double CpuMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static volatile unsigned long sink;

static void Spin(double ms) {
  const plx_state_t spin = State("spin");
  plx_state_enter(spin);
  const double start = CpuMs();
  unsigned long x = 0;
  while (CpuMs() - start < ms)
    for (int i = 0; i < 200000; ++i)
      x += (unsigned long)i * 7u;
  sink = x;
  plx_state_leave(spin);
}

static void Spread(long pages) {
  for (int i = 0; i < 10; ++i) {
    Touch(pages / 10);
    Spin(3.0);
  }
}

static void Migrate(long k) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  int cpus[2], n = 0;
  for (int c = 0; c < CPU_SETSIZE && n < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[n++] = c;
  if (n < 2) {
    printf("one cpu\n");
    return;
  }
  const plx_state_t on = State("on cpu");
  for (long i = 0; i < k; ++i) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[i % 2], &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return;
    printf("cpu %d\n", cpus[i % 2]);
    plx_state_enter(on);
    plx_state_leave(on);
  }
  sched_setaffinity(0, sizeof allowed, &allowed);
}

static void Loop(long n) {
  const plx_state_t loop = State("loop");
  plx_state_enter(loop);
  unsigned long x = 0;
  for (long i = 0; i < n; ++i)
    __asm__ volatile("add $1, %0" : "+r"(x));
  sink = x;
  plx_state_leave(loop);
}

static long pages_per_thread;
static void* Worker(void* arg) {
  (void)arg;
  Touch(pages_per_thread);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: counters_program faults|spread|spin|migrate|loop|threads N [K]\n");
    return 2;
  }
  const long n = atol(argv[2]);
  const long k = argc > 3 ? atol(argv[3]) : 0;
  if (strcmp(argv[1], "faults") == 0) {
    Touch(n);
    Ticks(k);
  } else if (strcmp(argv[1], "spread") == 0) {
    Spread(n);
  } else if (strcmp(argv[1], "spin") == 0) {
    Spin((double)n);
  } else if (strcmp(argv[1], "migrate") == 0) {
    Migrate(n);
  } else if (strcmp(argv[1], "loop") == 0) {
    Loop(n);
  } else if (strcmp(argv[1], "threads") == 0) {
    pthread_t t[64];
    pages_per_thread = k;
    const long count = n < 64 ? n : 64;
    for (long i = 0; i < count; ++i)
      pthread_create(&t[i], NULL, Worker, NULL);
    for (long i = 0; i < count; ++i)
      pthread_join(t[i], NULL);
  } else {
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
  }
  plx_finalize();
  return 0;
}
