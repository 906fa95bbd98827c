// ChunksByProcess: walks the chunk headers from the file header on.
#include "server/live/live_replay.h"

#include <cstring>

#include "base/strings.h"
#include "format/layout.h"

namespace plx::server::live {

StatusOr<std::map<uint32_t, std::vector<std::vector<uint8_t>>>> ChunksByProcess(
    const std::vector<uint8_t>& file) {
  std::map<uint32_t, std::vector<std::vector<uint8_t>>> out;
  if (file.size() < format::kFileHeaderSize ||
      std::memcmp(file.data(), format::kFileMagic, sizeof format::kFileMagic) != 0)
    return InvalidArgument("offset 0: not a .plx trace");
  uint64_t off = format::kFileHeaderSize;
  while (off + format::kChunkHeaderSize <= file.size()) {
    format::ChunkHeader h;
    if (const char* why = format::ParseChunkHeader(file.data() + off, &h))
      return InvalidArgument(
          StrFormat("offset %llu: %s", static_cast<unsigned long long>(off), why));
    const uint64_t end = off + format::kChunkHeaderSize + h.stored_size;
    if (end > file.size())
      return InvalidArgument(
          StrFormat("offset %llu: chunk cut short", static_cast<unsigned long long>(off)));
    if (h.type == format::ChunkType::kIndex) break;
    const uint32_t process = h.process;
    std::vector<uint8_t> chunk(file.begin() + static_cast<ptrdiff_t>(off),
                               file.begin() + static_cast<ptrdiff_t>(end));
    h.process = 0;
    format::EncodeChunkHeader(h, chunk.data());
    out[process].push_back(std::move(chunk));
    off = end;
  }
  return out;
}

}  // namespace plx::server::live
