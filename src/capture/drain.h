// Draining: turns the slots of a thread's ring into .plx EVENTS chunks, and
// pending definitions into DEFS chunks, and appends them to the trace file.
// Runs in the background writer, in a thread whose ring is full, at finalize
// and in signal handlers; it allocates nothing, so the last is safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "capture/registry.h"
#include "capture/thread_stream.h"
#include "capture/trace_output.h"
#include "format/chunk_encoder.h"

namespace plx::capture {

/// Raw bytes of an EVENTS chunk before it is sealed.
inline constexpr size_t kChunkRawBytes = 256u << 10;

/// Everything one drain needs, allocated up front.
struct DrainContext {
  explicit DrainContext(int zstd_level);
  ~DrainContext();
  DrainContext(const DrainContext&) = delete;
  DrainContext& operator=(const DrainContext&) = delete;

  format::ChunkEncoder encoder;
  uint8_t* raw;  // kChunkRawBytes plus room for one more record
  size_t raw_capacity;
};

struct DrainTarget {
  uint32_t process = 0;  // process number in the file
  Registry* registry = nullptr;
  TraceOutput* output = nullptr;
  bool crashing = false;  // in a signal handler: never wait long, never allocate
};

/// Writes the definitions registered so far. Safe to call at any time.
void DrainDefinitions(DrainContext& ctx, const DrainTarget& target);

/// Writes the records published in `s` so far (definitions first). The caller
/// holds s->lock. Returns the number of records written. Once the output has
/// stopped (a write failed) the records are counted as dropped, not encoded,
/// so a thread with a full ring gets its room back at once.
uint64_t DrainStream(ThreadStream* s, DrainContext& ctx, const DrainTarget& target);

}  // namespace plx::capture
