// ChunkDecoder: one chunk of one thread decoded on its own into exactly the
// rows the whole-trace loader gives it, using the thread's skeleton for what
// lies outside the chunk. Each worker keeps one decoder; its tables are
// reused, so after the first chunks decoding allocates nothing and the rows
// stay in cache for the analyses that read them.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "model/stream_loader.h"
#include "model/thread_rows.h"
#include "model/trace.h"
#include "model/undefined_log.h"
#include "store/skeleton.h"
#include "store/thread_source.h"

namespace plx::store {

/// The rows of one chunk. In `tables`, slice rows [carried, size) are the
/// chunk's own (those before are slices that began earlier, left there for
/// the loader); every other table holds the chunk's rows only. Slices that
/// are still open at the chunk's end have their final end and self time.
struct ChunkRows {
  uint32_t thread = 0;
  size_t chunk = 0;  // index into the thread's skeleton chunks
  const model::Trace* tables = nullptr;
  size_t carried = 0;
  RowCounts first;           // global row (and text) of the first own row of each table
  Status status;             // damage met (the records before it are there)
  bool slices_only = false;  // every table but the slices left empty
  const ThreadSkeleton* skeleton = nullptr;  // the thread's

  size_t slices() const { return tables->slices.size() - carried; }
  /// Global slice row of table row `r` (>= carried).
  uint64_t slice_row(size_t r) const { return first.table[kSlices] + (r - carried); }
};

class ChunkDecoder {
 public:
  ChunkDecoder() : loader_(&data_.rows, nullptr) {}

  /// Decodes chunk `c` of the thread. `thread_first` is the global row of
  /// the thread's first row of each table; `log` answers with the
  /// placeholders of ids with no definition (may be null when none).
  const ChunkRows& Decode(const ThreadSource& source, const ThreadSkeleton& skeleton, size_t c,
                          const RowCounts& thread_first, model::UndefinedLog* log);
  /// With `on`, chunks are decoded for their slices alone (ChunkRows::
  /// slices_only; model::StreamLoader::set_slices_only).
  void set_slices_only(bool on) { slices_only_ = on; }
  /// The tables of the chunk decoded last, to move onto repaired times.
  model::Trace* mutable_tables() { return &data_.rows; }

 private:
  model::ThreadRows data_;
  model::StreamLoader loader_;
  std::vector<uint8_t> scratch_;
  ChunkRows out_;
  bool slices_only_ = false;
};

}  // namespace plx::store
