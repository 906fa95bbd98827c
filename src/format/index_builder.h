// Collects the chunks written to a .plx file and produces the INDEX chunk and
// trailer that end a finished file. Used by every writer.
#pragma once

#include <cstdint>
#include <vector>

#include "format/layout.h"

namespace plx::format {

class IndexBuilder {
 public:
  /// Records a chunk written at `offset` (its sealed header).
  void Add(uint64_t offset, const ChunkHeader& header);
  /// Records the chunk whose sealed bytes (header first) were written at `offset`.
  void AddSealed(uint64_t offset, const uint8_t* chunk);
  /// The INDEX chunk followed by the trailer, for writing at `index_offset`.
  std::vector<uint8_t> Finish(uint64_t index_offset) const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint64_t offset;
    ChunkHeader header;
  };
  std::vector<Entry> entries_;
};

}  // namespace plx::format
