// Chunk header, file header and trailer encoding.
#include "format/layout.h"

#include <cstring>

#include "base/checksum.h"
#include "base/varint.h"

namespace plx::format {

const char* ChunkTypeName(ChunkType type) {
  switch (type) {
    case ChunkType::kDefs:
      return "DEFS";
    case ChunkType::kEvents:
      return "EVENTS";
    case ChunkType::kIndex:
      return "INDEX";
  }
  return "UNKNOWN";
}

namespace {
// The header checksum covers bytes 0..63 with bytes 28..31 (the checksum) zeroed.
uint32_t HeaderCheck(const uint8_t* in) {
  uint8_t copy[kChunkHeaderSize];
  std::memcpy(copy, in, kChunkHeaderSize);
  std::memset(copy + 28, 0, 4);
  return static_cast<uint32_t>(Checksum64(copy, kChunkHeaderSize));
}
}  // namespace

void EncodeChunkHeader(const ChunkHeader& h, uint8_t* out) {
  std::memcpy(out, kChunkMagic, 4);
  out[4] = static_cast<uint8_t>(h.type);
  out[5] = static_cast<uint8_t>(h.codec);
  StoreLE<uint16_t>(out + 6, h.flags);
  StoreLE<uint32_t>(out + 8, h.process);
  StoreLE<uint32_t>(out + 12, h.stream);
  StoreLE<uint32_t>(out + 16, h.stored_size);
  StoreLE<uint32_t>(out + 20, h.raw_size);
  StoreLE<uint32_t>(out + 24, h.record_count);
  StoreLE<uint32_t>(out + 28, 0);
  StoreLE<uint64_t>(out + 32, h.payload_check);
  StoreLE<uint64_t>(out + 40, h.first_index);
  StoreLE<uint64_t>(out + 48, h.tick_begin);
  StoreLE<uint64_t>(out + 56, h.tick_end);
  StoreLE<uint32_t>(out + 28, HeaderCheck(out));
}

const char* ParseChunkHeader(const uint8_t* in, ChunkHeader* h) {
  if (std::memcmp(in, kChunkMagic, 4) != 0) return "bad chunk magic";
  if (LoadLE<uint32_t>(in + 28) != HeaderCheck(in)) return "chunk header checksum mismatch";
  h->type = static_cast<ChunkType>(in[4]);
  h->codec = static_cast<Codec>(in[5]);
  h->flags = LoadLE<uint16_t>(in + 6);
  h->process = LoadLE<uint32_t>(in + 8);
  h->stream = LoadLE<uint32_t>(in + 12);
  h->stored_size = LoadLE<uint32_t>(in + 16);
  h->raw_size = LoadLE<uint32_t>(in + 20);
  h->record_count = LoadLE<uint32_t>(in + 24);
  h->payload_check = LoadLE<uint64_t>(in + 32);
  h->first_index = LoadLE<uint64_t>(in + 40);
  h->tick_begin = LoadLE<uint64_t>(in + 48);
  h->tick_end = LoadLE<uint64_t>(in + 56);
  if (h->codec != Codec::kNone && h->codec != Codec::kZstd) return "unknown codec";
  if (h->raw_size > kMaxChunkRawSize) return "raw size above the 64 MiB limit";
  if (h->codec == Codec::kNone && h->raw_size != h->stored_size)
    return "uncompressed chunk with raw size != stored size";
  if (h->tick_end < h->tick_begin) return "tick_end before tick_begin";
  return nullptr;
}

void EncodeFileHeader(uint8_t* out) {
  std::memcpy(out, kFileMagic, 8);
  StoreLE<uint16_t>(out + 8, kVersionMajor);
  StoreLE<uint16_t>(out + 10, kVersionMinor);
  StoreLE<uint32_t>(out + 12, 0);
}

void EncodeTrailer(uint64_t index_offset, uint8_t* out) {
  StoreLE<uint64_t>(out, index_offset);
  std::memcpy(out + 8, kTrailerMagic, 8);
}

}  // namespace plx::format
