// The skeleton of a trace: per thread, what decoding one chunk on its own
// cannot know — the rows of every table before the chunk, the slices open
// when it begins (and how they end, however far away), and the loader's
// state at its start. With it any chunk decodes into exactly the rows the
// whole-trace loader gives it (store/chunk_decoder.h), so the file can be
// the store and memory a cache (docs/memory.md).
//
// Built once by one sequential pass per thread (threads in parallel) and
// kept in the trace's index (store/index_file.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/tables.h"
#include "model/trace.h"

namespace plx::store {

/// Rows of every record table (in model::ForEachTable's order) and texts.
struct RowCounts {
  uint64_t table[model::kTableCount] = {};
  uint64_t texts = 0;

  uint64_t slices() const { return table[0]; }
  bool operator==(const RowCounts&) const = default;
};

/// Table indices into RowCounts::table, in model::ForEachTable's order.
enum TableIndex : uint8_t {
  kSlices = 0,
  kInstants,
  kMessages,
  kCounterSamples,
  kRma,
  kControls,
  kCollectives,
  kRecvPosts,
};

/// A slice still open at the start of some chunk of its thread (or at the
/// thread's end): its row and how it ends.
struct LongSlice {
  uint64_t row = 0;  // thread-local row in the slice table
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  int64_t self_ns = 0;
  uint32_t state = 0;
  uint32_t callsite = model::kNone;
  uint64_t local_state = 0;  // the state id as recorded, which its leave names
  uint16_t depth = 0;
  uint8_t flags = 0;
  bool operator==(const LongSlice&) const = default;
};

/// An open slice at a chunk's start: the loader's frame.
struct OpenFrame {
  uint32_t long_slice = 0;  // index into ThreadSkeleton::long_slices
  int64_t children_ns = 0;  // closed direct children so far
  bool operator==(const OpenFrame&) const = default;
};

/// Where a thread's decoding stands at the start of one of its chunks.
struct ChunkEntry {
  uint32_t file_chunk = 0;    // index into format::TraceFile::event_chunks()
  RowCounts rows;             // thread-local rows before the chunk
  uint64_t records = 0;       // records of the thread before the chunk
  int64_t last_ns = 0;        // time of the record before the chunk (0 when none)
  uint32_t frames_first = 0;  // its open frames: ThreadSkeleton::frames[first, next's first)
  bool operator==(const ChunkEntry&) const = default;
};

/// An id a record used that its process does not define, the first time a
/// thread met it (the loader then makes a placeholder for it).
struct UndefinedRef {
  uint8_t kind = 0;  // model::RefKind
  uint32_t process = 0;
  uint64_t id = 0;
  bool operator==(const UndefinedRef&) const = default;
};

struct ThreadSkeleton {
  std::vector<ChunkEntry> chunks;      // the thread's chunks, in record order
  std::vector<OpenFrame> frames;       // every chunk's open frames, outermost first
  std::vector<LongSlice> long_slices;  // by row
  RowCounts rows;                      // the thread's rows in all
  uint64_t records = 0;
  int64_t first_ns = 0, last_ns = 0;    // first and last record (0 when none)
  bool ended = false;                   // a thread_end record was seen
  model::LoadStats stats;               // this thread's counters (undefined_refs: uses)
  std::vector<std::string> problems;    // damaged chunks, in order
  std::vector<UndefinedRef> undefined;  // distinct, in the order first met

  /// The open frames at the start of chunk `c`.
  const OpenFrame* frames_begin(size_t c) const { return frames.data() + chunks[c].frames_first; }
  const OpenFrame* frames_end(size_t c) const {
    return frames.data() + (c + 1 < chunks.size() ? chunks[c + 1].frames_first : frames.size());
  }
  bool operator==(const ThreadSkeleton&) const = default;
};

}  // namespace plx::store
