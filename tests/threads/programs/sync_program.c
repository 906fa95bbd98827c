/* A pthread program that knows its own synchronisation counts: every
 * contended acquisition is forced (the lock's holder waits until the other
 * thread sleeps inside the call before it lets go), and uncontended ones are
 * made in bulk. Writes "<state> <thread name> <count>" lines to argv[1], for
 * tests/threads/sync_trace_test.cc to compare with the trace. glibc/Linux. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINES 64
static struct {
  char state[32], thread[16];
  long n;
} g_lines[MAX_LINES];
static int g_nlines;
static atomic_flag g_lines_lock = ATOMIC_FLAG_INIT; /* not a pthread lock: not traced */

static void Count(const char* state, const char* thread, long n) {
  while (atomic_flag_test_and_set(&g_lines_lock))
    sched_yield();
  for (int i = 0; i < g_nlines; ++i)
    if (!strcmp(g_lines[i].state, state) && !strcmp(g_lines[i].thread, thread)) {
      g_lines[i].n += n;
      atomic_flag_clear(&g_lines_lock);
      return;
    }
  if (g_nlines < MAX_LINES) {
    snprintf(g_lines[g_nlines].state, sizeof g_lines[0].state, "%s", state);
    snprintf(g_lines[g_nlines].thread, sizeof g_lines[0].thread, "%s", thread);
    g_lines[g_nlines++].n = n;
  }
  atomic_flag_clear(&g_lines_lock);
}

static const char* Self(void) {
  static __thread char name[16];
  pthread_getname_np(pthread_self(), name, sizeof name);
  return name;
}

static void Deadline(struct timespec* t) {
  clock_gettime(CLOCK_REALTIME, t);
  t->tv_sec += 60;
}

/* Waits until thread `tid` sleeps in the kernel: it is blocked in the call
 * it made after setting its `ready` flag (it spins, never sleeps, before). */
static void WaitAsleep(pid_t tid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
  for (;;) {
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0) close(fd);
    if (n > 0) {
      buf[n] = 0;
      const char* paren = strrchr(buf, ')');
      if (paren && paren[1] == ' ' && paren[2] == 'S') return;
    }
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
  }
}

static pid_t Tid(void) {
  return (pid_t)syscall(SYS_gettid);
}

static void SpinUntil(atomic_int* v, int want) {
  while (atomic_load(v) != want)
    sched_yield();
}

/* ---- mutexes: round k is contended by worker k % 3, with pthread_mutex_lock,
 * _timedlock or _clocklock in turn (k / 3 % 3) */
enum { kMutexWorkers = 3, kMutexRounds = 30, kUncontended = 1000 };
static pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;
static atomic_int g_mgo[kMutexWorkers], g_mdone;
static atomic_int g_mtid[kMutexWorkers];

static void* MutexWorker(void* arg) {
  const int i = (int)(intptr_t)arg;
  char name[16];
  snprintf(name, sizeof name, "mtx-%d", i);
  pthread_setname_np(pthread_self(), name);
  atomic_store(&g_mtid[i], Tid());
  pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
  for (int j = 0; j < kUncontended; ++j) {
    pthread_mutex_lock(&own);
    pthread_mutex_unlock(&own);
  }
  for (int k = i; k < kMutexRounds; k += kMutexWorkers) {
    SpinUntil(&g_mgo[i], k + 1);
    struct timespec t;
    Deadline(&t);
    if (k / kMutexWorkers % 3 == 1)
      pthread_mutex_timedlock(&g_m, &t);
    else if (k / kMutexWorkers % 3 == 2)
      pthread_mutex_clocklock(&g_m, CLOCK_REALTIME, &t);
    else
      pthread_mutex_lock(&g_m);
    pthread_mutex_unlock(&g_m);
    Count("pthread_mutex_lock", Self(), 1);
    atomic_store(&g_mdone, k + 1);
  }
  return NULL;
}

static void Mutexes(pthread_t* t) {
  for (int i = 0; i < kMutexWorkers; ++i)
    pthread_create(&t[i], NULL, MutexWorker, (void*)(intptr_t)i);
  for (int i = 0; i < kMutexWorkers; ++i)
    while (atomic_load(&g_mtid[i]) == 0)
      sched_yield();
  for (int k = 0; k < kMutexRounds; ++k) {
    const int i = k % kMutexWorkers;
    pthread_mutex_lock(&g_m);
    atomic_store(&g_mgo[i], k + 1);
    WaitAsleep(atomic_load(&g_mtid[i]));
    pthread_mutex_unlock(&g_m);
    SpinUntil(&g_mdone, k + 1);
  }
}

/* ---- rwlocks: rw-0 reads, rw-1 writes (plain, timed, clock in turn: k % 3);
 * contended while main holds the write lock, not contended while main only
 * reads (for rw-0) */
enum { kRwRounds = 5, kShared = 5 };
static pthread_rwlock_t g_rw = PTHREAD_RWLOCK_INITIALIZER;
static atomic_int g_rwgo[2], g_rwdone[2], g_rwtid[2];

static void* RwWorker(void* arg) {
  const int i = (int)(intptr_t)arg;
  pthread_setname_np(pthread_self(), i == 0 ? "rw-0" : "rw-1");
  pthread_rwlock_t own = PTHREAD_RWLOCK_INITIALIZER;
  for (int j = 0; j < kUncontended; ++j) {
    if (i == 0)
      pthread_rwlock_rdlock(&own);
    else
      pthread_rwlock_wrlock(&own);
    pthread_rwlock_unlock(&own);
  }
  atomic_store(&g_rwtid[i], Tid());
  const int rounds = i == 0 ? kRwRounds + kShared : kRwRounds;
  for (int k = 0; k < rounds; ++k) {
    SpinUntil(&g_rwgo[i], k + 1);
    struct timespec t;
    Deadline(&t);
    if (i == 0 && k % 3 == 0)
      pthread_rwlock_rdlock(&g_rw);
    else if (i == 0 && k % 3 == 1)
      pthread_rwlock_timedrdlock(&g_rw, &t);
    else if (i == 0)
      pthread_rwlock_clockrdlock(&g_rw, CLOCK_REALTIME, &t);
    else if (k % 3 == 0)
      pthread_rwlock_wrlock(&g_rw);
    else if (k % 3 == 1)
      pthread_rwlock_timedwrlock(&g_rw, &t);
    else
      pthread_rwlock_clockwrlock(&g_rw, CLOCK_REALTIME, &t);
    pthread_rwlock_unlock(&g_rw);
    if (k < kRwRounds) Count(i == 0 ? "pthread_rwlock_rdlock" : "pthread_rwlock_wrlock", Self(), 1);
    atomic_store(&g_rwdone[i], k + 1);
  }
  return NULL;
}

static void Rwlocks(pthread_t* t) {
  for (int i = 0; i < 2; ++i)
    pthread_create(&t[i], NULL, RwWorker, (void*)(intptr_t)i);
  for (int i = 0; i < 2; ++i) {
    while (atomic_load(&g_rwtid[i]) == 0)
      sched_yield();
    for (int k = 0; k < kRwRounds; ++k) {
      pthread_rwlock_wrlock(&g_rw);
      atomic_store(&g_rwgo[i], k + 1);
      WaitAsleep(atomic_load(&g_rwtid[i]));
      pthread_rwlock_unlock(&g_rw);
      SpinUntil(&g_rwdone[i], k + 1);
    }
  }
  for (int k = kRwRounds; k < kRwRounds + kShared; ++k) { /* readers share */
    pthread_rwlock_rdlock(&g_rw);
    atomic_store(&g_rwgo[0], k + 1);
    SpinUntil(&g_rwdone[0], k + 1);
    pthread_rwlock_unlock(&g_rw);
  }
}

/* ---- semaphores: sem-0 waits on an empty semaphore (sem_wait, sem_timedwait,
 * sem_clockwait in turn: k % 3) */
enum { kSemRounds = 8 };
static sem_t g_sem;
static atomic_int g_semgo, g_semdone, g_semtid;

static void* SemWorker(void* arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "sem-0");
  atomic_store(&g_semtid, Tid());
  for (int j = 0; j < kUncontended; ++j) /* main posted these before */
    sem_wait(&g_sem);
  for (int k = 0; k < kSemRounds; ++k) {
    SpinUntil(&g_semgo, k + 1);
    struct timespec t;
    Deadline(&t);
    if (k % 3 == 1) {
      while (sem_timedwait(&g_sem, &t) != 0 && errno == EINTR) {
      }
    } else if (k % 3 == 2) {
      while (sem_clockwait(&g_sem, CLOCK_REALTIME, &t) != 0 && errno == EINTR) {
      }
    } else {
      while (sem_wait(&g_sem) != 0 && errno == EINTR) {
      }
    }
    Count("sem_wait", Self(), 1);
    atomic_store(&g_semdone, k + 1);
  }
  return NULL;
}

static void Semaphores(pthread_t* t) {
  sem_init(&g_sem, 0, 0);
  for (int j = 0; j < kUncontended; ++j)
    sem_post(&g_sem);
  pthread_create(t, NULL, SemWorker, NULL);
  while (atomic_load(&g_semtid) == 0)
    sched_yield();
  for (int k = 0; k < kSemRounds; ++k) {
    atomic_store(&g_semgo, k + 1);
    WaitAsleep(atomic_load(&g_semtid));
    sem_post(&g_sem);
    SpinUntil(&g_semdone, k + 1);
  }
}

/* ---- barriers: 3 threads, every wait is recorded; each names itself only
 * after its first wait (its stream exists by then under the program's name) */
enum { kBarrierThreads = 3, kBarrierRounds = 20 };
static pthread_barrier_t g_barrier;

static void* BarrierWorker(void* arg) {
  char name[16];
  snprintf(name, sizeof name, "bar-%d", (int)(intptr_t)arg);
  for (int k = 0; k < kBarrierRounds; ++k) {
    pthread_barrier_wait(&g_barrier);
    if (k == 0) pthread_setname_np(pthread_self(), name); /* renames a stream that exists */
    Count("pthread_barrier_wait", Self(), 1);
  }
  return NULL;
}

/* ---- condition variables: cond-0 waits for each of main's signals */
enum { kCondRounds = 10 };
static pthread_mutex_t g_cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static int g_signalled;
static atomic_int g_taken;
static atomic_int g_condtid;

static void* CondWorker(void* arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "cond-0");
  atomic_store(&g_condtid, Tid());
  long waits = 0;
  for (int k = 0; k < kCondRounds; ++k) {
    pthread_mutex_lock(&g_cm);
    while (g_signalled == atomic_load(&g_taken)) {
      if (k % 2) {
        struct timespec t;
        Deadline(&t);
        pthread_cond_timedwait(&g_cv, &g_cm, &t);
      } else {
        pthread_cond_wait(&g_cv, &g_cm);
      }
      ++waits;
    }
    atomic_fetch_add(&g_taken, 1);
    pthread_mutex_unlock(&g_cm);
  }
  Count("pthread_cond_wait", Self(), waits);
  return NULL;
}

static void Conditions(pthread_t* t) {
  pthread_create(t, NULL, CondWorker, NULL);
  while (atomic_load(&g_condtid) == 0)
    sched_yield();
  for (int k = 0; k < kCondRounds; ++k) {
    WaitAsleep(atomic_load(&g_condtid)); /* waiting for this round's signal */
    pthread_mutex_lock(&g_cm);
    ++g_signalled;
    pthread_cond_signal(&g_cv);
    pthread_mutex_unlock(&g_cm);
    SpinUntil(&g_taken, k + 1);
  }
}

/* ---- threads that end by pthread_exit, and one that never blocks */
static void* ExitWorker(void* arg) {
  char name[16];
  snprintf(name, sizeof name, "exit-%d", (int)(intptr_t)arg);
  pthread_setname_np(pthread_self(), name);
  if ((intptr_t)arg % 2) {
    Count("pthread_exit", Self(), 1);
    pthread_exit((void*)42);
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sync_program COUNTS_FILE\n");
    return 2;
  }
  enum { kMax = 32 };
  pthread_t t[kMax];
  int n = 0;
  Mutexes(t + n);
  n += kMutexWorkers;
  Rwlocks(t + n);
  n += 2;
  Semaphores(t + n);
  n += 1;
  pthread_barrier_init(&g_barrier, NULL, kBarrierThreads);
  for (int i = 0; i < kBarrierThreads; ++i)
    pthread_create(&t[n++], NULL, BarrierWorker, (void*)(intptr_t)i);
  Conditions(t + n);
  n += 1;
  for (int i = 0; i < 4; ++i)
    pthread_create(&t[n++], NULL, ExitWorker, (void*)(intptr_t)i);
  long exits = 0;
  for (int i = 0; i < n; ++i) {
    void* value = NULL;
    pthread_join(t[i], &value);
    if (value == (void*)42) ++exits;
  }
  Count("pthread_create", Self(), n);
  Count("pthread_join", Self(), n);
  Count("threads", "-", n + 1);
  FILE* out = fopen(argv[1], "w");
  if (!out) return 1;
  for (int i = 0; i < g_nlines; ++i)
    fprintf(out, "%s %s %ld\n", g_lines[i].state, g_lines[i].thread, g_lines[i].n);
  fprintf(out, "exit_value_42 - %ld\n", exits);
  return fclose(out) == 0 ? 0 : 1;
}
