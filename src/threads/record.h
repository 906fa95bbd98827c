// How a wrapper records: who may record (not the runtime, not its threads,
// not a wrapper inside a wrapper, not while PLX_THREADS=0), the state around a
// blocking call, the instant at pthread_exit, and a created thread's stream.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>

namespace plx::threads {

/// One kind of blocking call: its state, defined (category "sync") on first use.
struct SyncState {
  const char* name;
  std::atomic<uint32_t> handle{0};
};

/// Records `state` from construction to destruction when the calling thread
/// may record; `caller` is the wrapper's return address (calls from this
/// library's own code never record). Keeps errno as the wrapped call left it.
/// Sequence: enter(state) at construction, leave(state) at destruction.
class Blocking {
 public:
  Blocking(SyncState& state, const void* caller);
  ~Blocking();
  Blocking(const Blocking&) = delete;
  Blocking& operator=(const Blocking&) = delete;

 private:
  uint32_t handle_ = 0;
};

/// Whether the calling thread is inside the runtime or a wrapper, or is one of
/// the runtime's threads, or the call comes from this library's code.
bool Bypassed(const void* caller);

/// An instant "pthread_exit" with the exit value, on a thread that may record.
void RecordExit(void* value, const void* caller);

/// In a new thread, before its start routine: `internal` threads (created by
/// the runtime or from inside a wrapper) never record; others are dated from now.
void ThreadStarted(bool internal);
/// In a thread that ends (start routine returned, or pthread_exit): make sure
/// it has a stream, so every thread the program made is in the trace.
void ThreadEnding();
/// The calling thread names itself: "plx-*" marks one of the runtime's
/// threads; any other name renames its stream.
void ThreadNamed(const char* name);
/// Whether `t` is one of the runtime's threads (joins of it are not recorded).
bool IsInternalThread(pthread_t t);

}  // namespace plx::threads
