// XXH3-64 through libxxhash; kept out of headers so xxhash.h stays in one place.
#include "base/checksum.h"

#include <xxhash.h>

namespace plx {

uint64_t Checksum64(const void* data, size_t size) {
  return XXH3_64bits(data, size);
}

}  // namespace plx
