// The trace file the runtime appends sealed chunks to (and hands to the live
// stream). Appends are serialised by an OwnerLock (a signal handler may append
// too); the index of chunks is kept in memory and written by Finish().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "capture/live_sender.h"
#include "capture/owner_lock.h"
#include "format/index_builder.h"

namespace plx::capture {

class TraceOutput {
 public:
  /// Creates (truncates) the file and writes the file header.
  Status Open(const std::string& path);
  /// No file (PLX_OUTPUT=-): chunks are counted and handed to the live stream only.
  void OpenWithoutFile();
  /// Every chunk appended from now on, except in a signal handler, is also
  /// offered to `live` (in file order). Before the first Append.
  void SetLive(LiveSender* live) { live_ = live; }
  /// Appends one sealed chunk. `crashing`: called from a signal handler (no
  /// allocation; the chunk stays out of the index, which is never written then,
  /// and out of the live stream).
  /// Returns false once a write has failed (the file is left as it was).
  bool Append(std::span<const uint8_t> chunk, bool crashing);
  /// Writes the index and trailer and closes the file.
  Status Finish();

  const std::string& path() const { return path_; }
  uint64_t bytes_written() const { return offset_; }
  uint64_t chunks_written() const { return chunks_; }
  /// Records in the EVENTS chunks appended so far.
  uint64_t records_written() const { return records_; }
  /// The first write error, or OK.
  const Status& error() const { return error_; }

 private:
  bool WriteAll(const uint8_t* p, size_t n);

  std::string path_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  uint64_t chunks_ = 0;
  uint64_t records_ = 0;
  bool discard_ = false;  // PLX_OUTPUT=-
  bool finished_ = false;
  LiveSender* live_ = nullptr;
  OwnerLock lock_;
  bool failed_ = false;
  Status error_;
  format::IndexBuilder index_;
};

}  // namespace plx::capture
