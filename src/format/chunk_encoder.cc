// ChunkEncoder: static zstd context and output buffer sized once.
#include "format/chunk_encoder.h"

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <cstdlib>
#include <cstring>

#include "base/checksum.h"
#include "base/status.h"

namespace plx::format {

ChunkEncoder::ChunkEncoder(size_t max_raw_size, int zstd_level)
    : max_raw_size_(max_raw_size), level_(zstd_level) {
  PLX_CHECK(max_raw_size <= kMaxChunkRawSize);
  out_capacity_ = kChunkHeaderSize + ZSTD_compressBound(max_raw_size);
  out_ = static_cast<uint8_t*>(std::malloc(out_capacity_));
  PLX_CHECK(out_ != nullptr);
  std::memset(out_, 0, out_capacity_);  // touch the pages now, not in a signal handler
  if (level_ > 0) {
    ZSTD_compressionParameters params = ZSTD_getCParams(level_, max_raw_size, 0);
    size_t size = ZSTD_estimateCCtxSize_usingCParams(params);
    workspace_ = std::aligned_alloc(64, (size + 63) / 64 * 64);
    PLX_CHECK(workspace_ != nullptr);
    std::memset(workspace_, 0, size);
    cctx_ = ZSTD_initStaticCCtx(workspace_, size);
    PLX_CHECK(cctx_ != nullptr);
  }
}

ChunkEncoder::~ChunkEncoder() {
  std::free(workspace_);  // a static context lives inside its workspace
  std::free(out_);
}

std::span<const uint8_t> ChunkEncoder::Seal(ChunkHeader header, const uint8_t* raw,
                                            size_t raw_size) {
  PLX_CHECK(raw_size <= max_raw_size_);
  uint8_t* payload = out_ + kChunkHeaderSize;
  size_t stored = 0;
  header.codec = Codec::kNone;
  if (cctx_ != nullptr && raw_size > 0) {
    size_t n =
        ZSTD_compressCCtx(cctx_, payload, out_capacity_ - kChunkHeaderSize, raw, raw_size, level_);
    if (!ZSTD_isError(n) && n < raw_size) {
      stored = n;
      header.codec = Codec::kZstd;
    }
  }
  if (header.codec == Codec::kNone) {
    if (raw_size > 0) std::memcpy(payload, raw, raw_size);
    stored = raw_size;
  }
  header.raw_size = static_cast<uint32_t>(raw_size);
  header.stored_size = static_cast<uint32_t>(stored);
  header.payload_check = Checksum64(payload, stored);
  EncodeChunkHeader(header, out_);
  return {out_, kChunkHeaderSize + stored};
}

}  // namespace plx::format
