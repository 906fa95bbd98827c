// Walking a model::Trace as events in time order, the way exporters write
// them: slices become enter and leave, every other table's rows are point
// events. Per thread (ThreadWalk) or merged over all threads (WalkTrace).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "model/trace.h"

namespace plx::interop {

/// What an exporter does with each event; rows index the trace's tables.
/// At one time on one thread: point events at the time a slice ends go before
/// its leave (a send recorded as MPI_Send ends); otherwise enters go before
/// the point events of their time. Leaves go innermost first, enters
/// outermost first, point events in the order of the methods below.
class EventVisitor {
 public:
  virtual ~EventVisitor() = default;
  virtual void Enter(uint32_t /*slice*/) {}
  virtual void Leave(uint32_t /*slice*/) {}  // at slices.end[slice]
  virtual void Message(uint32_t /*row*/) {}
  virtual void RecvPost(uint32_t /*row*/) {}
  virtual void Collective(uint32_t /*row*/) {}
  virtual void Rma(uint32_t /*row*/) {}
  virtual void CounterSample(uint32_t /*row*/) {}
  virtual void Instant(uint32_t /*row*/) {}
  virtual void Control(uint32_t /*row*/) {}
};

/// The events of one thread, one at a time.
class ThreadWalk {
 public:
  ThreadWalk(const model::Trace& trace, uint32_t thread);

  bool done() const { return next_time_ == kDone; }
  /// The time of the next event (valid unless done()).
  int64_t next_time() const { return next_time_; }
  /// Hands the next event to `visitor` and moves on.
  void Step(EventVisitor& visitor);
  /// Hands every event to `visitor`.
  void Run(EventVisitor& visitor);

 private:
  static constexpr int64_t kDone = INT64_MAX;
  // A table's rows of this thread: [row, end).
  struct Cursor {
    uint32_t row = 0;
    uint32_t end = 0;
  };
  enum Source : uint8_t {
    kLeave,
    kEnter,
    kMessage,
    kRecvPost,
    kCollective,
    kRma,
    kCounter,
    kInstant,
    kControl,
    kSources
  };
  void Find();  // sets next_source_ and next_time_

  const model::Trace& trace_;
  Cursor cursors_[kSources];  // kLeave unused (the stack is its source)
  const std::vector<int64_t>* times_[kSources] = {};
  std::vector<uint32_t> open_;  // slices entered and not yet left
  Source next_source_ = kEnter;
  int64_t next_time_ = kDone;
};

/// Hands every event of every thread to `visitor`, merged by time (ties go
/// to the lower thread). `progress(done, total)` counts events.
void WalkTrace(const model::Trace& trace, EventVisitor& visitor,
               const std::function<void(uint64_t, uint64_t)>& progress = {});

/// Rows of all tables together (what WalkTrace visits; slices count twice).
uint64_t EventCount(const model::Trace& trace);

}  // namespace plx::interop
