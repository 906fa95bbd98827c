// Logical clocks computed after the fact: Lamport clocks and vector clocks for
// the events of a trace (slice begins and ends, message and collective
// records), from per-thread order, matched messages (time::MatchMessages) and
// collective operations (time::GroupCollectives, each synchronising all its
// participants). Independent of the physical timestamps across threads.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"
#include "time/message_pairs.h"
#include "time/thread_events.h"

namespace plx::time {

/// Lamport clocks: every event ticks its thread's clock by one; a receive
/// takes max(own, send's) + 1; a collective operation gives all participants
/// max(own + 1 over participants).
struct LamportClocks {
  std::vector<uint64_t> slice_begin;  // per Trace::slices row
  std::vector<uint64_t> slice_end;
  std::vector<uint64_t> message;     // per Trace::messages row
  std::vector<uint64_t> collective;  // per Trace::collectives row
  /// Events handled out of causal order because their cause never came
  /// (a send recorded after its receive on a cycle, a collective some
  /// participant never reached): they count as local events.
  uint64_t forced = 0;

  /// The clock on `thread` after its last event at or before `time`; 0 before
  /// its first.
  uint64_t At(uint32_t thread, int64_t time) const;

  ThreadEvents events;          // the events the values below belong to
  std::vector<uint64_t> value;  // per event of `events`
};

/// Vector clocks with one component per thread (index into Trace::threads;
/// for MPI traces with one thread per process, the process): component u of
/// an event's clock counts the events of thread u that happened before it
/// (own events included).
struct VectorClocks {
  uint32_t width = 0;                // components (= threads)
  std::vector<uint32_t> message;     // per messages row: width components
  std::vector<uint32_t> collective;  // per collectives row: width components
  uint64_t forced = 0;               // as LamportClocks::forced

  /// The clock on `thread` after its last event at or before `time`.
  std::vector<uint32_t> At(uint32_t thread, int64_t time) const;
  /// The components of one message row.
  const uint32_t* Message(uint32_t row) const { return message.data() + size_t{row} * width; }

  ThreadEvents events;
  // Per thread, its message and collective events (ids into `events`), whose
  // clocks hold the other threads' components.
  std::vector<uint32_t> comm_first;
  std::vector<uint32_t> comm_events;
};

/// `pairs`: the trace's MatchMessages when the caller has them (else matched here).
LamportClocks ComputeLamportClocks(const model::Trace& trace, const MessagePairs* pairs = nullptr);
/// Memory: (messages + collectives) * threads * 4 bytes.
VectorClocks ComputeVectorClocks(const model::Trace& trace);

/// True when vector clock `a` happened before or equals `b` (componentwise <=).
bool VectorLessEqual(const uint32_t* a, const uint32_t* b, uint32_t width);

}  // namespace plx::time
