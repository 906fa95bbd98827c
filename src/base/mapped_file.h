// Read-only view of a whole file, memory-mapped; or of bytes already in memory
// (fuzzers, tests). Either way the reader sees one contiguous span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace plx {

class MappedFile {
 public:
  /// Maps `path` read-only. An empty file is valid (size 0).
  static StatusOr<std::unique_ptr<MappedFile>> Open(const std::string& path);
  /// Wraps a copy of `bytes`; `name` is used in messages.
  static std::unique_ptr<MappedFile> FromBytes(std::string name, std::vector<uint8_t> bytes);

  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& name() const { return name_; }
  /// True when opened from a path (name() is that path), false for bytes.
  bool on_disk() const { return on_disk_; }

  /// Lets the pages of [offset, offset + size) go from this process's
  /// memory (they stay in the page cache and are read again on use), so a
  /// pass over a file larger than memory does not keep it all resident.
  /// Thread-safe; a no-op for bytes in memory.
  void Release(uint64_t offset, uint64_t size) const;

 private:
  MappedFile() = default;

  std::string name_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  bool on_disk_ = false;
  std::vector<uint8_t> owned_;
};

}  // namespace plx
