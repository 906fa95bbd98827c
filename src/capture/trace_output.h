// The trace file the runtime appends sealed chunks to (and hands to the live
// stream). Appends are serialised by an OwnerLock (a signal handler may append
// too); the index of chunks is kept in memory and written by Finish().
// When the file cannot take more (disk full, quota, file size limit, I/O
// error) writing stops for good at the first failure: the room for a last
// definitions chunk and the index is kept reserved ahead, so the file still
// ends complete, with what was written before the failure.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "capture/live_sender.h"
#include "capture/owner_lock.h"
#include "format/index_builder.h"

namespace plx::capture {

/// The system calls TraceOutput writes with: ::write and ::fallocate, or a
/// test's stand-ins that fail on purpose. Both return -1 with errno set.
struct FileCalls {
  ssize_t (*write)(int fd, const void* data, size_t n);
  int (*reserve)(int fd, off_t offset, off_t length);  // fallocate, keeping the size
};

/// The real ones.
FileCalls SystemFileCalls();

class TraceOutput {
 public:
  /// Creates (truncates) the file and writes the file header.
  Status Open(const std::string& path, FileCalls calls = SystemFileCalls());
  /// No file (PLX_OUTPUT=-): chunks are counted and handed to the live stream only.
  void OpenWithoutFile();
  /// Every chunk appended from now on, except in a signal handler, is also
  /// offered to `live` (in file order). Before the first Append.
  void SetLive(LiveSender* live) { live_ = live; }
  /// Called once, with the lock held, when a write first fails (the runtime
  /// stops recording). Before the first Append.
  void SetFailureHook(void (*hook)()) { on_failure_ = hook; }
  /// Appends one sealed chunk. `crashing`: called from a signal handler (no
  /// allocation; the chunk stays out of the index, which is never written then,
  /// and out of the live stream). Returns false, and counts the chunk and its
  /// records as dropped, once a write has failed: the first failure prints
  /// one line on stderr and leaves the file as it was before that chunk.
  bool Append(std::span<const uint8_t> chunk, bool crashing);
  /// Counts records that were recorded but will never be written.
  void CountDropped(uint64_t records) {
    dropped_records_.fetch_add(records, std::memory_order_relaxed);
  }
  /// After a failure: lets through the small chunks that report it, as long as
  /// they and the index fit in the room kept reserved.
  void BeginEpilogue();
  /// Writes the index and trailer and closes the file.
  Status Finish();
  /// fork(): hold the lock across it (a child must not inherit it taken).
  void LockForFork() { lock_.Lock(); }
  void UnlockAfterFork() { lock_.Unlock(); }
  /// In a forked child, after LockForFork: closes this process's copy of the
  /// parent's file and forgets it; ready to Open another.
  void ResetAfterFork();

  const std::string& path() const { return path_; }
  uint64_t bytes_written() const { return offset_; }
  uint64_t chunks_written() const { return chunks_; }
  /// Records in the EVENTS chunks appended so far.
  uint64_t records_written() const { return records_; }
  /// True once a write has failed.
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  /// True while chunks would be refused: after a failure, outside the epilogue.
  /// Drains then count records instead of encoding them.
  bool stopped() const { return failed() && !epilogue_.load(std::memory_order_acquire); }
  uint64_t dropped_records() const { return dropped_records_.load(std::memory_order_relaxed); }
  uint64_t dropped_chunks() const { return dropped_chunks_.load(std::memory_order_relaxed); }
  /// The first write error, or OK.
  Status error() const;

 private:
  /// Writes n bytes at the end of the file; on failure cuts the file back to
  /// where it was and records the error (errno, or EIO for a zero-byte write).
  bool WriteAll(const uint8_t* p, size_t n);
  /// Makes sure n more bytes and `after` bytes behind them can be written
  /// (allocated on disk, under the file size limit); records the error if not.
  bool Reserve(size_t n, uint64_t after);
  uint64_t EpilogueBytes() const;
  void Fail(int error_number);

  std::string path_;
  int fd_ = -1;
  FileCalls calls_{};
  uint64_t offset_ = 0;
  uint64_t reserved_end_ = 0;  // bytes up to here are allocated on disk
  uint64_t size_limit_ = 0;    // RLIMIT_FSIZE, 0 = none
  bool can_reserve_ = true;    // the file system supports fallocate
  uint64_t chunks_ = 0;
  uint64_t records_ = 0;
  bool discard_ = false;  // PLX_OUTPUT=-
  bool finished_ = false;
  std::atomic<bool> epilogue_{false};
  bool announce_ = false;  // Open has succeeded: failures are news for stderr
  bool torn_ = false;      // part of a chunk could not be cut off: write nothing more
  LiveSender* live_ = nullptr;
  void (*on_failure_)() = nullptr;
  OwnerLock lock_;
  std::atomic<bool> failed_{false};
  int error_number_ = 0;
  std::atomic<uint64_t> dropped_records_{0};
  std::atomic<uint64_t> dropped_chunks_{0};
  format::IndexBuilder index_;
};

}  // namespace plx::capture
