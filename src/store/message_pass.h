// Message passes: a lockstep pass (store/lockstep.h) whose message records
// are paired by MessageJoin, one join per partition of the receiving
// processes, the partitions in parallel. Each partition has its own
// consumer; the caller merges their results. When a join finds records
// further out of order than its horizon, the pass runs again with a longer
// one (the consumers are made anew), so the pairs are always those of
// time::MatchMessages.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "store/lockstep.h"
#include "store/message_join.h"
#include "store/record_sides.h"
#include "store/trace_store.h"

namespace plx::store {

/// What one partition of a message pass sees.
class MessageConsumer {
 public:
  virtual ~MessageConsumer() = default;
  /// Every message record of the partition, as it enters the join.
  virtual void Message(const MessageSide& m) {}
  virtual void Pair(const MessageSide& send, const MessageSide& recv, bool has_post,
                    int64_t post_time) {}
  /// After the joins finished: the records left without a partner.
  virtual void Unmatched(const MessageSide& m) {}
  /// Every record of the trace before `time` has been seen (INT64_MAX: all).
  virtual void Frontier(int64_t time) {}
};

/// A message pass spread over the processes of an MPI job
/// (distributed/spread_messages.h). Each process decodes its own threads;
/// every slab, each record goes to the process that joins its channel
/// (Joiner of the receiving process) through Exchange, and every process
/// learns through AllOk whether any join lost its order. Every process
/// calls these in the same order.
class PassSpread {
 public:
  virtual ~PassSpread() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual bool Decodes(uint32_t thread) const = 0;
  /// The rank that decodes a thread.
  virtual int Decoder(uint32_t thread) const = 0;
  /// The rank that joins the records a process (index into
  /// Trace::processes) receives, posts, or sends outside any channel.
  virtual int Joiner(uint32_t process) const = 0;
  /// `to[r]` goes to process r; returns, by rank, what each sent here.
  virtual std::vector<std::string> Exchange(std::vector<std::string> to) = 0;
  virtual bool AllOk(bool ok) = 0;
};

/// Every process's `mine`, by rank, on process 0; elsewhere none.
std::vector<std::string> GatherOnFirst(PassSpread& spread, std::string mine);
/// Every process's `mine`, by rank, on every process.
std::vector<std::string> GatherOnAll(PassSpread& spread, const std::string& mine);

struct MessagePassOptions {
  /// Per process when spread (a slab of N processes holds N times this).
  uint64_t slab_records = 4'000'000;
  /// The first horizon tried is two slabs' time (at least 1 ms), at most this.
  int64_t horizon_ns = 100'000'000;
  /// Called on the caller's thread at the start of every attempt (may be
  /// empty), with the horizon it uses.
  std::function<void(int64_t horizon)> begin_attempt;
  /// Called on the caller's thread with each slab, after its messages went
  /// through the joins (may be empty). False: records came further out of
  /// order than the horizon, and the pass runs again with a longer one.
  std::function<bool(const Slab&)> after_slab;
  /// Spread: called before after_slab with the slab decoded here and the
  /// records of threads decoded elsewhere that other processes sent here
  /// to join (its messages and posts only). May be empty.
  std::function<void(const Slab& decoded, const Slab& joined)> after_joins;
  /// Called on the caller's thread after the joins finished (may be empty).
  /// False: as after_slab's.
  std::function<bool()> end_attempt;
  /// Per thread: the records come on the repaired times (null: as loaded).
  const std::vector<time::ThreadTimeMap>* maps = nullptr;
  /// Thread-pass visitors that see every chunk decoded (store/lockstep.h);
  /// an attempt that stops early leaves them partway: begin_attempt must
  /// make them start over.
  LockstepVisits visits;
  /// Spread over processes: each joins only its channels, and its
  /// consumers see only their records. after_slab and end_attempt are then
  /// asked on every process, and the visitors see only its threads' chunks.
  PassSpread* spread = nullptr;
};

/// Runs the pass with consumers made by make(partition); returns them. An
/// attempt that finds records out of order stops at that slab.
std::vector<std::unique_ptr<MessageConsumer>> RunMessagePass(
    const TraceStore& store, const std::function<std::unique_ptr<MessageConsumer>(size_t)>& make,
    const MessagePassOptions& options = {},
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
