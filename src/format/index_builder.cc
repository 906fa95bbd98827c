// IndexBuilder: chunk entries -> INDEX chunk (uncompressed) + trailer.
#include "format/index_builder.h"

#include "base/byte_buffer.h"
#include "format/chunk_encoder.h"
#include "format/records.gen.h"

namespace plx::format {

void IndexBuilder::Add(uint64_t offset, const ChunkHeader& header) {
  entries_.push_back({offset, header});
}

void IndexBuilder::AddSealed(uint64_t offset, const uint8_t* chunk) {
  Entry e{offset, {}};
  (void)ParseChunkHeader(chunk, &e.header);
  entries_.push_back(e);
}

std::vector<uint8_t> IndexBuilder::Finish(uint64_t index_offset) const {
  ByteBuffer payload;
  for (const Entry& e : entries_) {
    ChunkEntry c{e.offset,
                 static_cast<uint64_t>(e.header.type),
                 e.header.process,
                 e.header.stream,
                 e.header.stored_size,
                 e.header.record_count,
                 e.header.first_index,
                 e.header.tick_begin,
                 e.header.tick_end};
    payload.Commit(EncodeIndex(payload.Reserve(MaxEncodedSize(c)), c));
  }
  ChunkHeader h;
  h.type = ChunkType::kIndex;
  h.record_count = static_cast<uint32_t>(entries_.size());
  ChunkEncoder encoder(payload.size() + 1, 0);
  std::span<const uint8_t> chunk = encoder.Seal(h, payload.data(), payload.size());
  std::vector<uint8_t> out(chunk.begin(), chunk.end());
  out.resize(chunk.size() + kTrailerSize);
  EncodeTrailer(index_offset, out.data() + chunk.size());
  return out;
}

}  // namespace plx::format
