// Consistent-run construction: events of many streams that arrive
// out of order — from a live tracer's per-thread buffers, or shuffled parts of
// a file — are released in an order consistent with causality: each stream in
// sequence, and every receive after its send. Incremental (event by event)
// with a bound on the events held back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace plx::time {

struct RunEvent {
  enum class Kind : uint8_t { kLocal = 0, kSend = 1, kReceive = 2 };
  uint32_t stream = 0;
  uint64_t seq = 0;  // per stream, consecutive from 0
  Kind kind = Kind::kLocal;
  uint64_t key = 0;      // send and receive: identifies the message (channel and match)
  uint64_t payload = 0;  // the caller's, passed through
};

struct ReleasedEvent {
  RunEvent event;
  bool forced = false;  // released before its causes (bound reached, late, or flushed)
  uint64_t lag = 0;     // events pushed after it before it came out
};

struct ConsistentRunStats {
  uint64_t pushed = 0;
  uint64_t released = 0;
  uint64_t forced = 0;  // released out of causal order (late events included)
  uint64_t late = 0;    // arrived after their stream had moved past them (forced at once)
  size_t max_buffered = 0;
  uint64_t max_lag = 0;
};

class ConsistentRun {
 public:
  /// At most `max_buffered` events are held back (0 = no bound).
  explicit ConsistentRun(size_t max_buffered = 0) : max_buffered_(max_buffered) {}

  /// Takes one event; appends to `out` every event that can now be released.
  /// When more than the bound would wait, the oldest waiting event is forced
  /// out with the events before it in its stream (per-stream order kept).
  void Push(const RunEvent& event, std::vector<ReleasedEvent>* out);
  /// End of input: releases everything still waiting (as forced).
  void Flush(std::vector<ReleasedEvent>* out);

  size_t buffered() const { return buffered_; }
  const ConsistentRunStats& stats() const { return stats_; }

 private:
  struct Waiting {
    RunEvent event;
    uint64_t arrival = 0;
  };
  struct Stream {
    uint64_t next = 0;                    // the sequence number to release next
    std::map<uint64_t, Waiting> waiting;  // by sequence number
  };
  struct Arrival {
    uint64_t arrival;
    uint32_t stream;
    uint64_t seq;
  };

  void Release(const Waiting& w, bool forced, std::vector<ReleasedEvent>* out);
  // Releases what is ready in `stream` and, in turn, in the streams it wakes.
  void Drain(uint32_t stream, std::vector<ReleasedEvent>* out);
  void ForceOldest(std::vector<ReleasedEvent>* out);

  size_t max_buffered_;
  size_t buffered_ = 0;
  ConsistentRunStats stats_;
  std::unordered_map<uint32_t, Stream> streams_;
  std::unordered_set<uint64_t> sent_;               // released sends whose receive is not out yet
  std::unordered_set<uint64_t> received_early_;     // forced receives whose send is not out yet
  std::unordered_map<uint64_t, uint32_t> blocked_;  // message key -> stream whose head waits for it
  std::deque<Arrival> arrivals_;  // waiting events by arrival (stale ones skipped)
  std::vector<uint32_t> woken_;
};

}  // namespace plx::time
