/* A C program with a known call tree, for tests/functions: a chain
 * a_top -> b_mid -> c_leaf -> twice (static) called K times, fib(N) by
 * recursion, solver_run -> solver_step -> step_helper/twice, and a second
 * thread running fib(N - 1). Usage: calls K N. "def:NAME" marks where each
 * function is defined (the tests check the trace's file:line against it). */
#include <pthread.h>
#include <stdlib.h>

#include "call_log.h"

static int N;
volatile int sink;

static int twice(int x) { /* def:twice */
  log_enter("twice");
  int r = 2 * x;
  log_leave();
  return r;
}

int c_leaf(int x) { /* def:c_leaf */
  log_enter("c_leaf");
  int r = twice(x) + 1;
  log_leave();
  return r;
}

int b_mid(int x) { /* def:b_mid */
  log_enter("b_mid");
  int r = c_leaf(x) + 1;
  log_leave();
  return r;
}

int a_top(int x) { /* def:a_top */
  log_enter("a_top");
  int r = b_mid(x) + 1;
  log_leave();
  return r;
}

int fib(int n) { /* def:fib */
  log_enter("fib");
  int r = n < 2 ? n : fib(n - 1) + fib(n - 2);
  log_leave();
  return r;
}

int step_helper(int x) { /* def:step_helper */
  log_enter("step_helper");
  int r = x + 3;
  log_leave();
  return r;
}

int solver_step(int x) { /* def:solver_step */
  log_enter("solver_step");
  int r = step_helper(x) + twice(x);
  log_leave();
  return r;
}

int solver_run(int steps) { /* def:solver_run */
  log_enter("solver_run");
  int r = 0;
  for (int i = 0; i < steps; ++i)
    r += solver_step(i);
  log_leave();
  return r;
}

void* worker(void* arg) { /* def:worker */
  log_thread(1);
  log_enter("worker");
  sink = fib(N - 1) + (int)(long)arg;
  log_leave();
  return NULL;
}

int main(int argc, char** argv) { /* def:main */
  log_thread(0);
  log_enter("main");
  const int k = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 3;
  N = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;
  for (int i = 0; i < k; ++i)
    sink = a_top(i);
  sink = fib(N);
  sink = solver_run(2);
  pthread_t thread;
  if (pthread_create(&thread, NULL, worker, NULL) != 0) return 1;
  pthread_join(thread, NULL);
  log_leave();
  log_print(2);
  return 0;
}
