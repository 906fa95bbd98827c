// BuildImage: chunks are copied whole; only their headers are encoded again
// (the process number, and with it the header checksum). An anchor is a
// one-record EVENTS chunk: a thread_begin at the stream's first tick.
#include "server/live/live_snapshot.h"

#include <cstring>

#include "base/checksum.h"
#include "format/index_builder.h"
#include "format/layout.h"

namespace plx::server::live {

namespace {

class Image {
 public:
  explicit Image(size_t reserve) {
    bytes_.reserve(reserve);
    bytes_.resize(format::kFileHeaderSize);
    format::EncodeFileHeader(bytes_.data());
  }

  void Add(format::ChunkHeader h, const uint8_t* payload) {
    const size_t at = bytes_.size();
    index_.Add(at, h);
    bytes_.resize(at + format::kChunkHeaderSize + h.stored_size);
    format::EncodeChunkHeader(h, bytes_.data() + at);
    if (h.stored_size > 0)
      std::memcpy(bytes_.data() + at + format::kChunkHeaderSize, payload, h.stored_size);
  }

  std::vector<uint8_t> Finish() {
    const std::vector<uint8_t> tail = index_.Finish(bytes_.size());
    bytes_.insert(bytes_.end(), tail.begin(), tail.end());
    return std::move(bytes_);
  }

 private:
  std::vector<uint8_t> bytes_;
  format::IndexBuilder index_;
};

}  // namespace

std::vector<uint8_t> BuildImage(const SnapshotInput& input,
                                const std::vector<uint32_t>& process_of) {
  const auto process = [&](uint32_t connection) {
    return connection < process_of.size() ? process_of[connection] : kNoProcess;
  };
  size_t total = format::kFileHeaderSize + format::kTrailerSize + 1024;
  for (const auto* list : {&input.defs, &input.events})
    for (const SnapshotInput::Chunk& c : *list)
      total += c.bytes->size() + 64;
  Image image(total + input.anchors.size() * 80);
  for (const auto* list : {&input.defs, &input.events}) {
    for (const SnapshotInput::Chunk& c : *list) {
      const uint32_t p = process(c.connection);
      if (p == kNoProcess) continue;
      format::ChunkHeader h;
      if (format::ParseChunkHeader(c.bytes->data(), &h) != nullptr) continue;  // checked at ingest
      h.process = p;
      image.Add(h, c.bytes->data() + format::kChunkHeaderSize);
    }
  }
  // kind 11 (thread_begin), dt 0, empty body.
  static constexpr uint8_t kThreadBegin[3] = {11, 0, 0};
  for (const SnapshotInput::Anchor& a : input.anchors) {
    const uint32_t p = process(a.connection);
    if (p == kNoProcess) continue;
    format::ChunkHeader h;
    h.type = format::ChunkType::kEvents;
    h.process = p;
    h.stream = a.stream;
    h.stored_size = h.raw_size = sizeof kThreadBegin;
    h.record_count = 1;
    h.payload_check = Checksum64(kThreadBegin, sizeof kThreadBegin);
    h.first_index = a.index;
    h.tick_begin = h.tick_end = a.tick;
    image.Add(h, kThreadBegin);
  }
  return image.Finish();
}

}  // namespace plx::server::live
