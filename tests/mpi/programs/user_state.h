/* User states (the Parallax C API's plx_state_*) for the MPI test programs,
 * which link MPI only: the functions are looked up at run time in the tracing
 * library, preloaded or linked, so an untraced run records nothing and needs
 * nothing. Header-only, C11; the including file defines _GNU_SOURCE (for
 * RTLD_DEFAULT) before any include. */
#ifndef PLX_TESTS_MPI_USER_STATE_H
#define PLX_TESTS_MPI_USER_STATE_H

#include <dlfcn.h>
#include <stdint.h>
#include <time.h>

typedef uint32_t (*UserStateDefineFn)(const char* name, uint32_t color, const char* category);
typedef void (*UserStateMarkFn)(uint32_t state);

typedef struct {
  uint32_t id; /* 0: not traced */
  UserStateMarkFn enter, leave;
} UserState;

/* Defines the state `name` (category "user"); call after MPI_Init, when the
 * tracing runtime is running. */
static inline UserState user_state_define(const char* name) {
  UserState s = {0, 0, 0};
  UserStateDefineFn define = (UserStateDefineFn)(uintptr_t)dlsym(RTLD_DEFAULT, "plx_state_define");
  s.enter = (UserStateMarkFn)(uintptr_t)dlsym(RTLD_DEFAULT, "plx_state_enter");
  s.leave = (UserStateMarkFn)(uintptr_t)dlsym(RTLD_DEFAULT, "plx_state_leave");
  if (define && s.enter && s.leave) s.id = define(name, 0xFFFFFFFFu, 0);
  return s;
}

static inline void user_state_enter(const UserState* s) {
  if (s->id) s->enter(s->id);
}

static inline void user_state_leave(const UserState* s) {
  if (s->id) s->leave(s->id);
}

/* CLOCK_MONOTONIC now, in ns. */
static inline int64_t user_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Floating-point work that lasts `us` microseconds of wall time: short
 * bursts of work between sleeps of up to 200 us until the deadline. Pure
 * spinning is no good here: the machine runs more ranks than cores (and other
 * jobs), and a rank that loses its core for a time slice overshoots by
 * milliseconds (4 ms spins measured 4 to 20 ms); a rank that mostly sleeps
 * gets its core back within microseconds of each deadline, so a state around
 * this lasts what the program says, and a program that calls it 8 times
 * takes 8 times as long. */
static inline double user_paced_work(int64_t us) {
  const int64_t until = user_now_ns() + us * 1000;
  double x = 1.0;
  for (int64_t now = user_now_ns(); now < until; now = user_now_ns()) {
    for (int i = 0; i < 1000; ++i)
      x = x * 1.0000001 + 1e-9;
    const int64_t left = until - user_now_ns();
    if (left > 0) nanosleep(&(struct timespec){0, (long)(left < 200000 ? left : 200000)}, NULL);
  }
  return x;
}

#endif /* PLX_TESTS_MPI_USER_STATE_H */
