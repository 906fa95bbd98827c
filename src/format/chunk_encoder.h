// Turns a raw payload into a finished chunk (header + maybe-compressed payload).
// All memory is allocated up front, so Seal() can run inside a signal handler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "format/layout.h"

struct ZSTD_CCtx_s;

namespace plx::format {

class ChunkEncoder {
 public:
  /// Prepares for payloads of up to max_raw_size bytes. zstd_level 0 stores
  /// payloads uncompressed; otherwise zstd at that level (1 is the default).
  ChunkEncoder(size_t max_raw_size, int zstd_level);
  ~ChunkEncoder();
  ChunkEncoder(const ChunkEncoder&) = delete;
  ChunkEncoder& operator=(const ChunkEncoder&) = delete;

  /// Compresses `raw` (kept uncompressed when that is not smaller), fills in the
  /// header's codec, sizes and payload checksum, and returns the chunk's bytes.
  /// The span stays valid until the next Seal. Never allocates.
  std::span<const uint8_t> Seal(ChunkHeader header, const uint8_t* raw, size_t raw_size);

  size_t max_raw_size() const { return max_raw_size_; }

 private:
  size_t max_raw_size_;
  int level_;
  ZSTD_CCtx_s* cctx_ = nullptr;
  void* workspace_ = nullptr;
  uint8_t* out_ = nullptr;
  size_t out_capacity_ = 0;
};

}  // namespace plx::format
