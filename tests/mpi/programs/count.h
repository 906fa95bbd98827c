/* Hand-kept counts of what an MPI test program did, written by each rank to
 * <dir>/counts-<world rank>.txt so a test can compare them with a trace.
 * Each program calls count_call() next to every MPI call it makes, and
 * count_msg()/count_rcv()/count_rma() for every transfer. Header-only, C11. */
#ifndef PLX_TESTS_MPI_COUNT_H
#define PLX_TESTS_MPI_COUNT_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The counts file, one line each (names sorted, transfers in program order):
 *   MPI_<Name> <calls>              calls made while recording was on
 *   msg <dest world rank> <tag> <bytes>   a point-to-point message sent
 *   rcv <src world rank> <tag> <bytes>    a point-to-point message received
 *   rma <put|get|acc> <target world rank> <bytes>   a one-sided transfer issued
 *   pcontrol_off_calls <n>          MPI calls made while MPI_Pcontrol(0) was in force
 *   after <MPI_Name> <n|*>          calls that follow the write (MPI_Finalize, a
 *                                   blocked call, a loop until killed: `*`)
 * A message is counted once per start: a persistent request started 3 times
 * is 3 msg lines. Bytes are count * MPI_Type_size of the datatype. */

enum { kCountMaxNames = 128, kCountMaxLines = 64 };

typedef struct {
  const char* name;
  long calls;
} CountEntry;

typedef struct {
  CountEntry names[kCountMaxNames];
  int num_names;
  char* transfers; /* "msg ...\n" lines, in program order */
  size_t transfers_len, transfers_cap;
  char extra[kCountMaxLines][96]; /* pcontrol_off_calls, after, ... */
  int num_extra;
  int recording;       /* 0 between MPI_Pcontrol(0) and MPI_Pcontrol(1) */
  long off_calls;      /* calls made while not recording */
  long sent, received; /* msg and rcv lines so far */
} CountState;

static CountState count_state = {.recording = 1};

static inline void count_fail(const char* what) {
  fprintf(stderr, "count.h: %s\n", what);
  abort();
}

/* One call of the MPI function `name` (a string literal, e.g. "MPI_Send"). */
static inline void count_call(const char* name) {
  CountState* s = &count_state;
  if (!s->recording) {
    ++s->off_calls;
    return;
  }
  for (int i = 0; i < s->num_names; ++i) {
    if (strcmp(s->names[i].name, name) == 0) {
      ++s->names[i].calls;
      return;
    }
  }
  if (s->num_names == kCountMaxNames) count_fail("too many MPI function names");
  s->names[s->num_names].name = name;
  s->names[s->num_names].calls = 1;
  ++s->num_names;
}

/* `n` calls of `name` at once (e.g. a loop whose trip count is known). */
static inline void count_calls(const char* name, long n) {
  for (long i = 0; i < n; ++i)
    count_call(name);
}

static inline void count_transfer(const char* fmt, ...) {
  CountState* s = &count_state;
  if (!s->recording) return;
  char line[96];
  va_list args;
  va_start(args, fmt);
  int len = vsnprintf(line, sizeof line, fmt, args);
  va_end(args);
  if (len < 0 || (size_t)len >= sizeof line) count_fail("transfer line too long");
  if (s->transfers_len + (size_t)len + 1 > s->transfers_cap) {
    size_t cap = s->transfers_cap ? 2 * s->transfers_cap : 4096;
    while (cap < s->transfers_len + (size_t)len + 1)
      cap *= 2;
    char* grown = realloc(s->transfers, cap);
    if (!grown) count_fail("out of memory");
    s->transfers = grown;
    s->transfers_cap = cap;
  }
  memcpy(s->transfers + s->transfers_len, line, (size_t)len + 1);
  s->transfers_len += (size_t)len;
}

/* A point-to-point message to world rank `dest`. */
static inline void count_msg(int dest, int tag, long bytes) {
  if (count_state.recording) ++count_state.sent;
  count_transfer("msg %d %d %ld\n", dest, tag, bytes);
}

/* A point-to-point message received from world rank `src`. */
static inline void count_rcv(int src, int tag, long bytes) {
  if (count_state.recording) ++count_state.received;
  count_transfer("rcv %d %d %ld\n", src, tag, bytes);
}

/* A one-sided transfer: op is "put", "get" or "acc". */
static inline void count_rma(const char* op, int target, long bytes) {
  count_transfer("rma %s %d %ld\n", op, target, bytes);
}

/* Recording on (1) or off (0), mirroring what MPI_Pcontrol asks of a tracer. */
static inline void count_set_recording(int on) {
  count_state.recording = on;
}

/* MPI calls counted so far (recording on). */
static inline long count_total_calls(void) {
  long total = 0;
  for (int i = 0; i < count_state.num_names; ++i)
    total += count_state.names[i].calls;
  return total;
}

/* MPI calls made while recording was off. */
static inline long count_off_calls(void) {
  return count_state.off_calls;
}

/* An extra line written after the counts (e.g. "after MPI_Finalize 1"). */
static inline void count_line(const char* fmt, ...) {
  CountState* s = &count_state;
  if (s->num_extra == kCountMaxLines) count_fail("too many extra lines");
  va_list args;
  va_start(args, fmt);
  int len = vsnprintf(s->extra[s->num_extra], sizeof s->extra[0], fmt, args);
  va_end(args);
  if (len < 0 || (size_t)len >= sizeof s->extra[0]) count_fail("extra line too long");
  ++s->num_extra;
}

/* The counts directory: argv[1] unless it is empty or "-", else
 * $PLX_TEST_COUNTS_DIR; NULL (write nothing) when neither is set. */
static inline const char* count_dir(int argc, char** argv) {
  if (argc > 1 && argv[1][0] != 0 && strcmp(argv[1], "-") != 0) return argv[1];
  const char* env = getenv("PLX_TEST_COUNTS_DIR");
  return env && env[0] ? env : NULL;
}

static inline int count_compare(const void* a, const void* b) {
  return strcmp(((const CountEntry*)a)->name, ((const CountEntry*)b)->name);
}

/* Writes <dir>/counts-<rank>.txt (through a temporary file and rename, so a
 * reader never sees half a file). Does nothing when dir is NULL. */
static inline void count_write(const char* dir, int rank) {
  if (!dir) return;
  CountState* s = &count_state;
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/counts-%d.txt", dir, rank);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE* f = fopen(tmp, "w");
  if (!f) {
    perror(tmp);
    count_fail("cannot write the counts file");
  }
  qsort(s->names, (size_t)s->num_names, sizeof s->names[0], count_compare);
  for (int i = 0; i < s->num_names; ++i)
    fprintf(f, "%s %ld\n", s->names[i].name, s->names[i].calls);
  if (s->transfers_len) fputs(s->transfers, f);
  for (int i = 0; i < s->num_extra; ++i)
    fprintf(f, "%s\n", s->extra[i]);
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    perror(path);
    count_fail("cannot write the counts file");
  }
}

/* A short sleep between two polls that found nothing (MPI_Test, MPI_Iprobe,
 * ...): spinning would make millions of calls when ranks outnumber cores, and
 * traces of them too big to be useful. Needs _POSIX_C_SOURCE >= 199309L. */
static inline void count_poll_pause(void) {
  nanosleep(&(struct timespec){0, 100 * 1000}, NULL);
}

/* MPI_Init, then this rank's world rank and the world size: three counted calls. */
static inline void count_init(int* argc, char*** argv, int* rank, int* size) {
  MPI_Init(argc, argv);
  count_call("MPI_Init");
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  count_call("MPI_Comm_rank");
  MPI_Comm_size(MPI_COMM_WORLD, size);
  count_call("MPI_Comm_size");
}

/* One token (a double) round the ring of MPI_COMM_WORLD with MPI_Send and
 * MPI_Recv on `tag`: rank 0 sends first and receives last; all counted. */
static inline void count_ring_token(int rank, int left, int right, int tag) {
  double token = 0;
  if (rank == 0) {
    MPI_Send(&token, 1, MPI_DOUBLE, right, tag, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(right, tag, sizeof token);
    MPI_Recv(&token, 1, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    count_call("MPI_Recv");
    count_rcv(left, tag, sizeof token);
  } else {
    MPI_Recv(&token, 1, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    count_call("MPI_Recv");
    count_rcv(left, tag, sizeof token);
    MPI_Send(&token, 1, MPI_DOUBLE, right, tag, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(right, tag, sizeof token);
  }
}

/* Ends the run when a check fails (no counting: the run is lost anyway). */
#define COUNT_CHECK(cond)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      MPI_Abort(MPI_COMM_WORLD, 99);                                           \
    }                                                                          \
  } while (0)

#endif /* PLX_TESTS_MPI_COUNT_H */
