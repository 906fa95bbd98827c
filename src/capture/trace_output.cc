// TraceOutput: append-only writes with an in-memory index, room reserved
// ahead for the end of the file, and the hand-off of each chunk to the live
// stream.
#include "capture/trace_output.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace plx::capture {

namespace {

// Room kept for the chunk that reports a failure (a few attributes).
constexpr uint64_t kEpilogueChunkBytes = 16u << 10;
// An index entry is at most 2 + 9 uvarints of up to 10 bytes (most far less).
constexpr uint64_t kIndexEntryBytes = 64;
constexpr uint64_t kIndexFixedBytes = format::kChunkHeaderSize + 16;  // INDEX header, trailer

ssize_t SystemWrite(int fd, const void* data, size_t n) {
  return ::write(fd, data, n);
}

int SystemReserve(int fd, off_t offset, off_t length) {
  return ::fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, length);
}

}  // namespace

FileCalls SystemFileCalls() {
  return {&SystemWrite, &SystemReserve};
}

Status TraceOutput::Open(const std::string& path, FileCalls calls) {
  path_ = path;
  calls_ = calls;
  struct rlimit limit;
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    size_limit_ = static_cast<uint64_t>(limit.rlim_cur);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) return ErrnoError(path, errno);
  uint8_t header[format::kFileHeaderSize];
  format::EncodeFileHeader(header);
  if (!Reserve(sizeof header, EpilogueBytes()) || !WriteAll(header, sizeof header)) {
    const Status failed = error();
    ::close(fd_);
    fd_ = -1;
    return failed;
  }
  announce_ = true;
  return Status::Ok();
}

void TraceOutput::OpenWithoutFile() {
  path_.assign(1, '-');  // not = "-": a false -Wrestrict in gcc 12
  discard_ = true;
}

uint64_t TraceOutput::EpilogueBytes() const {
  return kEpilogueChunkBytes + kIndexFixedBytes + kIndexEntryBytes * (index_.size() + 2);
}

bool TraceOutput::Reserve(size_t n, uint64_t after) {
  const uint64_t want = offset_ + n + after;
  if (size_limit_ != 0 && want > size_limit_) {
    Fail(EFBIG);  // what the write would meet, after a SIGXFSZ
    return false;
  }
  if (!can_reserve_ || want <= reserved_end_) return true;
  const uint64_t from = reserved_end_ > offset_ ? reserved_end_ : offset_;
  int rc;
  do {
    rc = calls_.reserve(fd_, static_cast<off_t>(from), static_cast<off_t>(want - from));
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) {
      can_reserve_ = false;  // plain writes only; a full disk then shows on a write
      return true;
    }
    Fail(errno);
    return false;
  }
  reserved_end_ = want;
  return true;
}

bool TraceOutput::WriteAll(const uint8_t* p, size_t n) {
  const uint64_t start = offset_;
  while (n > 0) {
    const ssize_t w = calls_.write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int error_number = w < 0 ? errno : EIO;
      // Never leave part of a chunk behind: what comes after must start clean.
      if (offset_ != start) {
        if (::ftruncate(fd_, static_cast<off_t>(start)) == 0) {
          offset_ = start;
        } else {
          torn_ = true;
        }
      }
      reserved_end_ = offset_;  // truncating freed the blocks reserved past the end
      Fail(error_number);
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
    offset_ += static_cast<uint64_t>(w);
  }
  return true;
}

void TraceOutput::Fail(int error_number) {
  if (failed_.load(std::memory_order_relaxed)) return;
  error_number_ = error_number;
  failed_.store(true, std::memory_order_release);
  if (!announce_) return;  // Open reports it
  // One line, written with a single write: this may run in a signal handler.
  char line[1024];
  const int n = std::snprintf(line, sizeof line,
                              "parallax: cannot write the trace %s: %s; recording stops, the "
                              "trace up to here stays readable\n",
                              path_.c_str(), std::strerror(error_number));
  if (n > 0) {
    const size_t len =
        static_cast<size_t>(n) < sizeof line ? static_cast<size_t>(n) : sizeof line - 1;
    [[maybe_unused]] ssize_t ignored = ::write(STDERR_FILENO, line, len);
  }
  if (on_failure_ != nullptr) on_failure_();
}

bool TraceOutput::Append(std::span<const uint8_t> chunk, bool crashing) {
  bool locked = true;
  if (crashing) {
    switch (lock_.LockForCrash(1000)) {
      case OwnerLock::CrashResult::kLocked:
        break;
      case OwnerLock::CrashResult::kHeldBySelf:
        locked = false;
        break;  // we interrupted a write
      case OwnerLock::CrashResult::kTimedOut:
        return false;
    }
  } else {
    lock_.Lock();
  }
  format::ChunkHeader h;
  const bool parsed = format::ParseChunkHeader(chunk.data(), &h) == nullptr;
  const uint64_t records = parsed && h.type == format::ChunkType::kEvents ? h.record_count : 0;
  const uint64_t at = offset_;
  bool ok;
  if (discard_) {
    ok = !finished_;
  } else if (fd_ < 0 || torn_ || stopped()) {
    ok = false;
  } else {
    // The epilogue has only the index after it; everything else keeps the
    // epilogue's room free.
    const uint64_t after = failed() ? EpilogueBytes() - kEpilogueChunkBytes : EpilogueBytes();
    ok = Reserve(chunk.size(), after) && WriteAll(chunk.data(), chunk.size());
  }
  if (ok) {
    ++chunks_;
    records_ += records;
    if (!crashing && !discard_) index_.AddSealed(at, chunk.data());
    if (!crashing && live_ != nullptr)
      live_->Offer(chunk, parsed && h.type == format::ChunkType::kDefs);
  } else if (!discard_) {
    dropped_chunks_.fetch_add(1, std::memory_order_relaxed);
    dropped_records_.fetch_add(records, std::memory_order_relaxed);
  }
  if (locked) lock_.Unlock();
  return ok;
}

void TraceOutput::BeginEpilogue() {
  OwnerLockGuard guard(lock_);
  epilogue_.store(true, std::memory_order_release);
}

Status TraceOutput::Finish() {
  OwnerLockGuard guard(lock_);
  finished_ = true;
  if (fd_ < 0) return error();
  if (!torn_ && !stopped()) {
    std::vector<uint8_t> tail = index_.Finish(offset_);
    if (Reserve(tail.size(), 0)) WriteAll(tail.data(), tail.size());
  }
  if (reserved_end_ > offset_) {
    // Give back the blocks reserved past the end, which would stay allocated;
    // if that fails, only they are lost.
    [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(offset_));
  }
  if (::close(fd_) != 0) Fail(errno);
  fd_ = -1;
  return error();
}

void TraceOutput::ResetAfterFork() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  path_.clear();
  offset_ = reserved_end_ = chunks_ = records_ = 0;
  can_reserve_ = true;
  discard_ = finished_ = torn_ = announce_ = false;
  epilogue_.store(false);
  failed_.store(false);
  error_number_ = 0;
  dropped_records_.store(0);
  dropped_chunks_.store(0);
  live_ = nullptr;
  index_ = format::IndexBuilder();
  lock_.Unlock();
}

Status TraceOutput::error() const {
  if (!failed()) return Status::Ok();
  return ErrnoError(path_, error_number_);
}

}  // namespace plx::capture
