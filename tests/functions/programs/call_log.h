/* The test programs' own record of their calls, printed at exit for the tests
 * to compare with the trace: per thread, "T<n> > name" at each entry and
 * "T<n> <" at each exit. Not instrumented, so it never shows in a trace. */
#ifndef PLX_TESTS_FUNCTIONS_CALL_LOG_H_
#define PLX_TESTS_FUNCTIONS_CALL_LOG_H_

#include <stdio.h>

#define NOINST __attribute__((no_instrument_function))
#define CALL_LOG_MAX 8192
#define CALL_LOG_THREADS 4

struct call_log {
  int n;
  int depth;
  const char* name[CALL_LOG_MAX]; /* NULL: an exit */
};

static struct call_log call_logs[CALL_LOG_THREADS];
static __thread struct call_log* tls_log;

/* The calling thread writes to log `index` from now on. */
static inline NOINST void log_thread(int index) {
  tls_log = &call_logs[index];
}

static inline NOINST void log_enter(const char* name) {
  if (tls_log->n < CALL_LOG_MAX) tls_log->name[tls_log->n++] = name;
  ++tls_log->depth;
}

static inline NOINST void log_leave(void) {
  if (tls_log->n < CALL_LOG_MAX) tls_log->name[tls_log->n++] = NULL;
  --tls_log->depth;
}

/* Logs exits down to `depth` (what a longjmp to a frame at that depth skips). */
static inline NOINST void log_unwind_to(int depth) {
  while (tls_log->depth > depth)
    log_leave();
}

static inline NOINST int log_depth(void) {
  return tls_log->depth;
}

static inline NOINST void log_print(int threads) {
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < call_logs[t].n; ++i) {
      if (call_logs[t].name[i] != NULL)
        printf("T%d > %s\n", t, call_logs[t].name[i]);
      else
        printf("T%d <\n", t);
    }
}

#endif /* PLX_TESTS_FUNCTIONS_CALL_LOG_H_ */
