// How the OpenMP tool records: its states and events (defined on first use),
// whether the calling thread may record, and a per-thread stack of open
// states so every leave matches an enter even when the runtime reports
// scopes out of order.
#pragma once

#include <atomic>
#include <cstdint>

namespace plx::omp {

/// One state or event type, defined in `category` ("user" or "sync") on first use.
struct Def {
  const char* name;
  const char* category;
  bool event;  // an instant event type with an int payload
  std::atomic<uint32_t> handle{0};
};

/// Decided once, at ompt_start_tool: false when PLX_OPENMP=0 or PLX_TRACE=0.
bool Enabled();

/// Whether the calling thread may record now (starts the runtime unless the
/// program is an MPI program, which records only while MPI_Init has it running).
bool MayRecord();

/// Called by the OMPT tool when libomp initialises it: the program runs on
/// libomp, whose GOMP_* compatibility entry points must then record nothing.
void NoteOmptTool();
/// Whether NoteOmptTool was called.
bool OmptTool();

/// Enters `state` on the calling thread (pushed on its stack).
void Enter(Def& state);
/// Leaves `state` if open on the calling thread, first leaving any state
/// entered after it; no record when it is not open.
void Leave(Def& state);
/// Whether `state` is open on the calling thread.
bool IsOpen(const Def& state);
/// Enters `state` dated `tick` and leaves it now (a wait known only afterwards).
void EnterLeaveSince(Def& state, uint64_t tick);
/// An instant of `event` with an int payload.
void Instant(Def& event, int64_t value);
/// The current tick of the trace's clock.
uint64_t Now();
/// CLOCK_MONOTONIC in ns (durations whatever the trace's clock).
uint64_t NowNs();

}  // namespace plx::omp
