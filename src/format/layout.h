// Byte layout of a .plx file: file header, chunk headers and trailer
// (docs/format.md is the specification; this file implements it).
#pragma once

#include <cstddef>
#include <cstdint>

namespace plx::format {

inline constexpr uint8_t kFileMagic[8] = {0x89, 'P', 'L', 'X', '\r', '\n', 0x1a, '\n'};
inline constexpr uint16_t kVersionMajor = 1;
inline constexpr uint16_t kVersionMinor = 0;
inline constexpr size_t kFileHeaderSize = 16;
inline constexpr size_t kChunkHeaderSize = 64;
inline constexpr size_t kTrailerSize = 16;
inline constexpr uint8_t kTrailerMagic[8] = {'P', 'L', 'X', 'I', 'N', 'D', 'E', 'X'};
inline constexpr uint8_t kChunkMagic[4] = {'P', 'X', 'C', 'K'};
/// Readers refuse chunks whose payload claims to be bigger than this.
inline constexpr uint32_t kMaxChunkRawSize = 64u << 20;
/// Definition ids above this are treated as damage.
inline constexpr uint64_t kMaxDefId = 1u << 24;

enum class ChunkType : uint8_t { kDefs = 1, kEvents = 2, kIndex = 3 };
enum class Codec : uint8_t { kNone = 0, kZstd = 1 };

const char* ChunkTypeName(ChunkType type);

struct ChunkHeader {
  ChunkType type = ChunkType::kEvents;
  Codec codec = Codec::kNone;
  uint16_t flags = 0;
  uint32_t process = 0;
  uint32_t stream = 0;
  uint32_t stored_size = 0;  // payload bytes that follow the header
  uint32_t raw_size = 0;     // payload bytes after decompression
  uint32_t record_count = 0;
  uint64_t payload_check = 0;  // XXH3-64 of the stored payload
  uint64_t first_index = 0;    // index of the first record within its stream
  uint64_t tick_begin = 0;     // tick of the first record (EVENTS), else 0
  uint64_t tick_end = 0;       // tick of the last record (EVENTS), else 0
};

/// Writes the 64-byte header, including its own checksum.
void EncodeChunkHeader(const ChunkHeader& h, uint8_t* out);

/// Parses a 64-byte header. Returns nullptr when valid, else what is wrong
/// ("bad magic", "header checksum mismatch", ...).
const char* ParseChunkHeader(const uint8_t* in, ChunkHeader* h);

void EncodeFileHeader(uint8_t* out);
void EncodeTrailer(uint64_t index_offset, uint8_t* out);

}  // namespace plx::format
