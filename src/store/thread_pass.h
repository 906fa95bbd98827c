// Thread passes: the out-of-core engine's basic loop. Each worker takes a
// thread and decodes its chunks in order (store/chunk_decoder.h), handing
// every chunk's rows to its visitor, so a visitor may carry state from one
// chunk of a thread to the next; threads run in parallel on the store's
// pool. Memory: one decoded chunk per worker, whatever the trace's size.
// With time maps (causal repair), the rows come on the repaired times.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "store/chunk_decoder.h"
#include "store/time_mapper.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

/// What a pass does with one worker's threads. A visitor is only ever
/// called from one thread at a time.
class ChunkVisitor {
 public:
  virtual ~ChunkVisitor() = default;
  virtual void BeginThread(uint32_t thread) {}
  /// A chunk's rows, valid until the call returns. On repaired times, own
  /// slices that are long slices (mapper->IsLong) have a self time that is
  /// not final yet: LongSlices gives them again at the thread's end.
  virtual void Chunk(const ChunkRows& rows, const TimeMapper* mapper) = 0;
  /// On repaired times, after the thread's last chunk: its long slices with
  /// their final self times (`rows`: their global rows).
  virtual void LongSlices(uint32_t thread, const model::SliceTable& slices,
                          const std::vector<uint64_t>& rows) {}
  virtual void EndThread(uint32_t thread) {}
  /// True when the visitor reads no table but the slices: a pass whose
  /// visitors all do decodes chunks for their slices alone
  /// (ChunkRows::slices_only), which costs less.
  virtual bool SlicesOnly() const { return false; }
};

/// Several visitors over one pass, each told everything in turn.
class FanOutVisitor : public ChunkVisitor {
 public:
  explicit FanOutVisitor(std::vector<ChunkVisitor*> to) : to_(std::move(to)) {}
  void BeginThread(uint32_t t) override {
    for (ChunkVisitor* v : to_)
      v->BeginThread(t);
  }
  void Chunk(const ChunkRows& rows, const TimeMapper* mapper) override {
    for (ChunkVisitor* v : to_)
      v->Chunk(rows, mapper);
  }
  void LongSlices(uint32_t t, const model::SliceTable& s,
                  const std::vector<uint64_t>& rows) override {
    for (ChunkVisitor* v : to_)
      v->LongSlices(t, s, rows);
  }
  void EndThread(uint32_t t) override {
    for (ChunkVisitor* v : to_)
      v->EndThread(t);
  }
  bool SlicesOnly() const override {
    for (const ChunkVisitor* v : to_)
      if (!v->SlicesOnly()) return false;
    return true;
  }

 private:
  std::vector<ChunkVisitor*> to_;
};

struct ThreadPassOptions {
  /// (records done, records); may be empty.
  std::function<void(uint64_t, uint64_t)> progress;
  /// Only the threads it accepts are visited (empty: all).
  std::function<bool(uint32_t thread)> only;
  /// Per thread: moves the rows onto repaired times (null: as loaded).
  const std::vector<time::ThreadTimeMap>* maps = nullptr;
  /// With maps: what they moved, summed over the pass (may be null; when
  /// not, every table is decoded, to count all it moved).
  time::TimeMapStats* moved = nullptr;
  /// A thread's chunks after the first one that starts past this time are
  /// not decoded (for a thread whose map moves nothing): a visitor that
  /// wants only what begins by then.
  int64_t until_ns = INT64_MAX;
};

/// Options with progress and maps only.
inline ThreadPassOptions WithProgress(std::function<void(uint64_t, uint64_t)> progress,
                                      const std::vector<time::ThreadTimeMap>* maps = nullptr) {
  ThreadPassOptions o;
  o.progress = std::move(progress);
  o.maps = maps;
  return o;
}

/// Runs the pass: `visitors[w]` serves worker w (one per store.pool()
/// thread). Threads with no records get BeginThread and EndThread only.
void RunThreadPass(const TraceStore& store, const std::vector<ChunkVisitor*>& visitors,
                   const ThreadPassOptions& options = {});

/// Makes one visitor per worker with `make()`, runs the pass, and returns
/// them (to merge their results).
template <typename Visitor, typename Make>
std::vector<Visitor> RunThreadPass(const TraceStore& store, Make&& make,
                                   const ThreadPassOptions& options = {}) {
  std::vector<Visitor> visitors;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    visitors.push_back(make());
  std::vector<ChunkVisitor*> pointers;
  for (Visitor& v : visitors)
    pointers.push_back(&v);
  RunThreadPass(store, pointers, options);
  return visitors;
}

/// Adds b to a: counts add, largest values stay.
void AddTimeMapStats(time::TimeMapStats* a, const time::TimeMapStats& b);

}  // namespace plx::store
