/* A ring of threads passing a token, written in C against the C API: each hop
 * is a message whose Lamport clock travels with the token.
 *
 *   thread_ring [THREADS] [ROUNDS]                                      */
#include <parallax/parallax.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t ready;
  int full;
  int hops;       /* hops made so far */
  uint64_t clock; /* Lamport clock carried by the token */
  int32_t from;   /* trace thread id of the sender */
} Mailbox;

typedef struct {
  int index;
  int threads;
  int rounds;
  Mailbox* boxes;
  uint32_t* ids; /* trace thread id of each ring member */
  int* started;  /* members that have published their id */
} Member;

static plx_state_t g_work, g_wait;
static volatile double g_sink;

static void Deliver(Mailbox* box, int hops, uint64_t clock, int32_t from) {
  pthread_mutex_lock(&box->mutex);
  box->full = 1;
  box->hops = hops;
  box->clock = clock;
  box->from = from;
  pthread_cond_signal(&box->ready);
  pthread_mutex_unlock(&box->mutex);
}

static void* RingMember(void* arg) {
  Member* m = (Member*)arg;
  char name[32];
  snprintf(name, sizeof name, "ring %d", m->index);
  plx_thread_name(name);
  m->ids[m->index] = plx_thread_id();
  __atomic_add_fetch(m->started, 1, __ATOMIC_RELEASE);
  const int total = m->threads * m->rounds;
  Mailbox* mine = &m->boxes[m->index];
  Mailbox* next = &m->boxes[(m->index + 1) % m->threads];
  for (;;) {
    plx_state_enter(g_wait);
    pthread_mutex_lock(&mine->mutex);
    while (!mine->full)
      pthread_cond_wait(&mine->ready, &mine->mutex);
    mine->full = 0;
    int hops = mine->hops;
    uint64_t clock = mine->clock;
    int32_t from = mine->from;
    pthread_mutex_unlock(&mine->mutex);
    plx_state_leave(g_wait);
    if (hops >= total) { /* the token has gone round: pass the stop on and end */
      Deliver(next, hops, clock, (int32_t)m->ids[m->index]);
      return NULL;
    }
    plx_msg_recv(PLX_COMM_THREADS, from, 0, sizeof(int), clock);
    plx_state_enter(g_work);
    double x = 0;
    for (int i = 0; i < 20000; ++i)
      x += i * 0.5;
    g_sink += x; /* keep the work from being optimised away */
    plx_state_leave(g_work);
    PLX_MARK_INT("hop", hops);
    const int32_t to = (int32_t)m->ids[(m->index + 1) % m->threads];
    uint64_t out = plx_msg_send(PLX_COMM_THREADS, to, 0, sizeof(int));
    Deliver(next, hops + 1, out, (int32_t)m->ids[m->index]);
  }
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 4;
  int rounds = argc > 2 ? atoi(argv[2]) : 100;
  if (threads < 2 || threads > 256 || rounds < 1) {
    fprintf(stderr, "usage: %s [THREADS 2-256] [ROUNDS >= 1]\n", argv[0]);
    return 2;
  }
  plx_thread_name("main");
  g_work = plx_state_define("work", 0x2ca02c, NULL);
  g_wait = plx_state_define("wait", 0x7f7f7f, "sync");
  Mailbox* boxes = calloc((size_t)threads, sizeof(Mailbox));
  uint32_t* ids = calloc((size_t)threads, sizeof(uint32_t));
  Member* members = calloc((size_t)threads, sizeof(Member));
  int started = 0;
  pthread_t* tids = calloc((size_t)threads, sizeof(pthread_t));
  for (int i = 0; i < threads; ++i) {
    pthread_mutex_init(&boxes[i].mutex, NULL);
    pthread_cond_init(&boxes[i].ready, NULL);
    members[i] = (Member){i, threads, rounds, boxes, ids, &started};
  }
  for (int i = 0; i < threads; ++i)
    pthread_create(&tids[i], NULL, RingMember, &members[i]);
  /* Wait until every member knows its id, then start the token at member 0. */
  while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < threads)
    sched_yield();
  Deliver(&boxes[0], 0, 0, -1);
  for (int i = 0; i < threads; ++i)
    pthread_join(tids[i], NULL);
  printf("ring: %d threads, %d rounds\n", threads, rounds);
  free(boxes);
  free(ids);
  free(members);
  free(tids);
  return 0;
}
