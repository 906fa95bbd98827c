// For fuzz targets: rewrite the chunk checksums of a mutated input so that the
// mutation reaches the payload decoders instead of stopping at a checksum.
#pragma once

#include <cstdint>
#include <vector>

namespace plx::fuzz {

/// Walks the chunk headers in file order and rewrites both checks of each.
void RepairChecksums(std::vector<uint8_t>* bytes);

}  // namespace plx::fuzz
