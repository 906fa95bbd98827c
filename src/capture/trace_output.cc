// TraceOutput: append-only writes with an in-memory index, and the hand-off
// of each chunk to the live stream.
#include "capture/trace_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace plx::capture {

Status TraceOutput::Open(const std::string& path) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) return ErrnoError(path, errno);
  uint8_t header[format::kFileHeaderSize];
  format::EncodeFileHeader(header);
  if (!WriteAll(header, sizeof header)) return error_;
  return Status::Ok();
}

void TraceOutput::OpenWithoutFile() {
  path_.assign(1, '-');  // not = "-": a false -Wrestrict in gcc 12
  discard_ = true;
}

bool TraceOutput::WriteAll(const uint8_t* p, size_t n) {
  if (failed_) return false;
  while (n > 0) {
    ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      failed_ = true;
      error_ = ErrnoError(path_, errno);
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
    offset_ += static_cast<uint64_t>(w);
  }
  return true;
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
  const uint64_t at = offset_;
  const bool ok = discard_ ? !finished_ : fd_ >= 0 && WriteAll(chunk.data(), chunk.size());
  if (ok) {
    ++chunks_;
    format::ChunkHeader h;
    if (format::ParseChunkHeader(chunk.data(), &h) == nullptr &&
        h.type == format::ChunkType::kEvents)
      records_ += h.record_count;
    if (!crashing && !discard_) index_.AddSealed(at, chunk.data());
    if (!crashing && live_ != nullptr) live_->Offer(chunk, h.type == format::ChunkType::kDefs);
  }
  if (locked) lock_.Unlock();
  return ok;
}

Status TraceOutput::Finish() {
  OwnerLockGuard guard(lock_);
  finished_ = true;
  if (fd_ < 0) return error_;
  if (!failed_) {
    std::vector<uint8_t> tail = index_.Finish(offset_);
    WriteAll(tail.data(), tail.size());
  }
  if (::close(fd_) != 0 && !failed_) {
    failed_ = true;
    error_ = ErrnoError(path_, errno);
  }
  fd_ = -1;
  return error_;
}

}  // namespace plx::capture
