// Thread passes: the out-of-core engine's basic loop. Each worker takes a
// thread and decodes its chunks in order (store/chunk_decoder.h), handing
// every chunk's rows to its visitor, so a visitor may carry state from one
// chunk of a thread to the next; threads run in parallel on the store's
// pool. Memory: one decoded chunk per worker, whatever the trace's size.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "store/chunk_decoder.h"
#include "store/trace_store.h"

namespace plx::store {

/// What a pass does with one worker's threads. A visitor is only ever
/// called from one thread at a time.
class ChunkVisitor {
 public:
  virtual ~ChunkVisitor() = default;
  virtual void BeginThread(uint32_t thread) {}
  /// A chunk's rows, valid until the call returns.
  virtual void Chunk(const ChunkRows& rows) = 0;
  virtual void EndThread(uint32_t thread) {}
};

/// Runs the pass: `visitors[w]` serves worker w (one per store.pool()
/// thread). `progress(records done, records)` may be empty. Threads with
/// no records get BeginThread and EndThread only. With `only`, only the
/// threads it accepts are visited.
void RunThreadPass(const TraceStore& store, const std::vector<ChunkVisitor*>& visitors,
                   const std::function<void(uint64_t, uint64_t)>& progress = {},
                   const std::function<bool(uint32_t thread)>& only = {});

/// Makes one visitor per worker with `make()`, runs the pass, and returns
/// them (to merge their results).
template <typename Visitor, typename Make>
std::vector<Visitor> RunThreadPass(const TraceStore& store, Make&& make,
                                   const std::function<void(uint64_t, uint64_t)>& progress = {},
                                   const std::function<bool(uint32_t thread)>& only = {}) {
  std::vector<Visitor> visitors;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    visitors.push_back(make());
  std::vector<ChunkVisitor*> pointers;
  for (Visitor& v : visitors)
    pointers.push_back(&v);
  RunThreadPass(store, pointers, progress, only);
  return visitors;
}

}  // namespace plx::store
