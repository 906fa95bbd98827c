/* Parallax capture API (C). Link with -lparallax; everything is switched at run
 * time by PLX_* environment variables (see README.md), never by a relink.
 *
 * Recording calls are cheap (a few ns), lock-free and never allocate; calls
 * made while recording is off return at once. All functions are thread-safe. */
#ifndef PARALLAX_PARALLAX_H_
#define PARALLAX_PARALLAX_H_

#include <stdarg.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PLX_API __attribute__((visibility("default")))
#define PLX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PLX_API
#define PLX_PRINTF(f, a)
#endif

/* Handles returned by the define functions; 0 is never a valid handle. */
typedef uint32_t plx_state_t;
typedef uint32_t plx_event_t;
typedef uint32_t plx_counter_t;
typedef uint32_t plx_comm_t;

/* Colour arguments: 0xRRGGBB, or PLX_COLOR_AUTO to let the viewer choose. */
#define PLX_COLOR_AUTO 0xFFFFFFFFu

/* Built-in communicators for message records. */
#define PLX_COMM_WORLD 1u   /* peers are process ranks (MPI world ranks) */
#define PLX_COMM_THREADS 2u /* peers are thread ids of this process (plx_thread_id) */
#define PLX_ANY_PEER (-1)   /* receiver not known when the message is sent */

/* Counter value kinds. */
#define PLX_INT 1
#define PLX_DOUBLE 2

/* Remote-memory-access operations. */
#define PLX_RMA_PUT 0
#define PLX_RMA_GET 1
#define PLX_RMA_ACCUMULATE 2

/* A place in the source code, defined once per call site by the PLX_* macros.
 * The runtime fills `id` and `callsite` on first use. */
typedef struct plx_srcloc {
  const char* name;     /* state or event name */
  const char* function; /* enclosing function */
  const char* file;
  uint32_t line;
  uint32_t color;       /* 0xRRGGBB or PLX_COLOR_AUTO */
  const char* category; /* NULL = "user" */
  uint32_t id;          /* runtime-owned: state or event handle, 0 until first use */
  uint32_t callsite;    /* runtime-owned */
} plx_srcloc;

/* --- Lifetime ------------------------------------------------------------ */

/** Starts the runtime if PLX_TRACE allows it (it also starts by itself when the
 *  library loads). Returns 0 when recording, -1 when tracing is off or failed. */
PLX_API int plx_init(void);
/** Writes everything recorded and closes the trace; later calls record nothing. */
PLX_API void plx_finalize(void);
/** Writes everything recorded so far to the file now. */
PLX_API void plx_flush(void);
/** Switches recording off (0) or back on (1) for the whole process. */
PLX_API void plx_control(int on);
/** 1 while recording, else 0. */
PLX_API int plx_enabled(void);
/** Path of the trace file being written, or NULL. */
PLX_API const char* plx_output_path(void);

/* --- States (nested regions) ---------------------------------------------- */

/** Defines (or finds) a state. category NULL = "user"; color PLX_COLOR_AUTO or 0xRRGGBB. */
PLX_API plx_state_t plx_state_define(const char* name, uint32_t color, const char* category);
/** The calling thread enters / leaves a state. States nest; leave the innermost. */
PLX_API void plx_state_enter(plx_state_t state);
PLX_API void plx_state_leave(plx_state_t state);
/** Enter / leave the state of a source location (what PLX_SCOPE and PLX_BEGIN use). */
PLX_API void plx_scope_enter(plx_srcloc* loc);
PLX_API void plx_scope_leave(plx_srcloc* loc);

/* --- Instant events and annotations --------------------------------------- */

/** Defines (or finds) an instant event type. category NULL = "user". */
PLX_API plx_event_t plx_event_define(const char* name, const char* category);
PLX_API void plx_event_int(plx_event_t event, int64_t value);
PLX_API void plx_event_double(plx_event_t event, double value);
/** Text longer than 4000 bytes is cut. */
PLX_API void plx_event_string(plx_event_t event, const char* text);
/** Events at a source location (what the PLX_MARK_* macros use). */
PLX_API void plx_mark_int(plx_srcloc* loc, int64_t value);
PLX_API void plx_mark_double(plx_srcloc* loc, double value);
PLX_API void plx_mark_string(plx_srcloc* loc, const char* text);
/** printf-like annotation, recorded as a string event named "annotation". */
PLX_API void plx_annotate(const char* format, ...) PLX_PRINTF(1, 2);
PLX_API void plx_annotatev(const char* format, va_list args);
/** printf-like annotation at a source location (PLX_ANNOTATE). */
PLX_API void plx_mark_printf(plx_srcloc* loc, const char* format, ...) PLX_PRINTF(2, 3);

/* --- Messages ------------------------------------------------------------- */

/** Defines a communicator; kind 0 = peers are process ranks, 1 = thread ids. */
PLX_API plx_comm_t plx_comm_define(const char* name, int kind);
/** Records a send / a completed receive. clock: Lamport clock carried, 0 = none. */
PLX_API void plx_send(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes, uint64_t clock);
PLX_API void plx_recv(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes, uint64_t clock);
/** For runtimes that piggyback a Lamport clock: ticks the calling thread's clock,
 *  records the send, and returns the clock value the message must carry. */
PLX_API uint64_t plx_msg_send(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes);
/** Takes the clock a message carried: clock = max(own, carried) + 1; records the receive. */
PLX_API void plx_msg_recv(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes,
                          uint64_t carried_clock);
/** The calling thread's Lamport clock. */
PLX_API uint64_t plx_lamport_clock(void);

/* --- Counters, remote memory, names ---------------------------------------- */

/** Defines (or finds) a counter; kind PLX_INT or PLX_DOUBLE; unit may be NULL. */
PLX_API plx_counter_t plx_counter_define(const char* name, const char* unit, int kind);
PLX_API void plx_counter_int(plx_counter_t counter, int64_t value);
PLX_API void plx_counter_double(plx_counter_t counter, double value);
/** Records a remote memory access (op PLX_RMA_*): origin accesses target's memory. */
PLX_API void plx_rma(int op, plx_comm_t comm, int32_t origin, int32_t target, uint64_t bytes);
PLX_API void plx_process_name(const char* name);
PLX_API void plx_thread_name(const char* name);
/** The calling thread's id in the trace (its peer number in PLX_COMM_THREADS). */
PLX_API uint32_t plx_thread_id(void);

/* --- Source-location macros (C and C++) ------------------------------------ */

#define PLX_SRCLOC_INIT(name, color, category) \
  { (name), __func__, __FILE__, (uint32_t)__LINE__, (color), (category), 0u, 0u }

/* C: PLX_BEGIN("solve"); ... PLX_END("solve"); */
#define PLX_BEGIN(name)                                                                 \
  do {                                                                                  \
    static plx_srcloc plx_loc_ = PLX_SRCLOC_INIT(name, PLX_COLOR_AUTO, (const char*)0); \
    plx_scope_enter(&plx_loc_);                                                         \
  } while (0)
#define PLX_END(name)                                                                   \
  do {                                                                                  \
    static plx_srcloc plx_loc_ = PLX_SRCLOC_INIT(name, PLX_COLOR_AUTO, (const char*)0); \
    plx_scope_leave(&plx_loc_);                                                         \
  } while (0)
#define PLX_MARK_INT(name, value)                                                       \
  do {                                                                                  \
    static plx_srcloc plx_loc_ = PLX_SRCLOC_INIT(name, PLX_COLOR_AUTO, (const char*)0); \
    plx_mark_int(&plx_loc_, (value));                                                   \
  } while (0)
#define PLX_MARK_DOUBLE(name, value)                                                    \
  do {                                                                                  \
    static plx_srcloc plx_loc_ = PLX_SRCLOC_INIT(name, PLX_COLOR_AUTO, (const char*)0); \
    plx_mark_double(&plx_loc_, (value));                                                \
  } while (0)
#define PLX_MARK_STRING(name, text)                                                     \
  do {                                                                                  \
    static plx_srcloc plx_loc_ = PLX_SRCLOC_INIT(name, PLX_COLOR_AUTO, (const char*)0); \
    plx_mark_string(&plx_loc_, (text));                                                 \
  } while (0)
#define PLX_ANNOTATE(...)                                                                       \
  do {                                                                                          \
    static plx_srcloc plx_loc_ = PLX_SRCLOC_INIT("annotation", PLX_COLOR_AUTO, (const char*)0); \
    plx_mark_printf(&plx_loc_, __VA_ARGS__);                                                    \
  } while (0)

#ifdef __cplusplus
}
#endif

#endif /* PARALLAX_PARALLAX_H_ */
