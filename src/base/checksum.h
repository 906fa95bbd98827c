// Checksums used by the .plx format: XXH3-64 (libxxhash), seed 0.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plx {

/// XXH3_64bits of the bytes, as docs/format.md specifies.
uint64_t Checksum64(const void* data, size_t size);

}  // namespace plx
