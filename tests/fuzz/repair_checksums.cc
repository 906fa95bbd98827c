// RepairChecksums: header and payload checks recomputed chunk by chunk.
#include "fuzz/repair_checksums.h"

#include <cstring>

#include "base/checksum.h"
#include "base/varint.h"
#include "format/layout.h"

namespace plx::fuzz {

void RepairChecksums(std::vector<uint8_t>* bytes) {
  using namespace plx::format;
  uint8_t* d = bytes->data();
  const size_t size = bytes->size();
  size_t off = kFileHeaderSize;
  while (off + kChunkHeaderSize <= size && std::memcmp(d + off, kChunkMagic, 4) == 0) {
    const uint32_t stored = LoadLE<uint32_t>(d + off + 16);
    if (stored > size - off - kChunkHeaderSize) break;
    StoreLE<uint64_t>(d + off + 32, Checksum64(d + off + kChunkHeaderSize, stored));
    std::memset(d + off + 28, 0, 4);
    StoreLE<uint32_t>(d + off + 28, static_cast<uint32_t>(Checksum64(d + off, kChunkHeaderSize)));
    off += kChunkHeaderSize + stored;
  }
}

}  // namespace plx::fuzz
