// The runtime's write path when the disk says no: a full disk met when room is
// reserved or in the middle of a write, I/O errors, short and zero-byte
// writes. The system calls TraceOutput makes are replaced by ones that fail on
// purpose (FileCalls); the file is real and is read back with the reader.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "capture/drain.h"
#include "capture/registry.h"
#include "capture/trace_output.h"
#include "format/chunk_encoder.h"
#include "format/records.gen.h"
#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::capture {
namespace {

using plx::testing::ReadFile;
using plx::testing::TempDir;

// One file on a disk that misbehaves as told.
struct FakeDisk {
  uint64_t capacity = UINT64_MAX;  // room on the disk; writing or reserving past it: ENOSPC
  uint64_t fail_at = UINT64_MAX;   // writes reaching this file size fail with fail_errno
  int fail_errno = EIO;
  size_t max_write = SIZE_MAX;  // a write takes at most this many bytes
  bool zero_writes = false;     // writes return 0
  bool can_reserve = true;      // else fallocate is not supported
  int interruptions = 0;        // this many calls (of either kind) fail with EINTR first
  int writes = 0;               // calls made
};
FakeDisk g_disk;

uint64_t FileSize(int fd) {
  struct stat st;
  return ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

ssize_t FakeWrite(int fd, const void* data, size_t n) {
  ++g_disk.writes;
  if (g_disk.interruptions > 0) {
    --g_disk.interruptions;
    errno = EINTR;
    return -1;
  }
  if (g_disk.zero_writes) return 0;
  const uint64_t size = FileSize(fd);
  const uint64_t limit = std::min(g_disk.capacity, g_disk.fail_at);
  if (size >= limit) {
    errno = size >= g_disk.fail_at ? g_disk.fail_errno : ENOSPC;
    return -1;
  }
  n = static_cast<size_t>(std::min<uint64_t>({n, limit - size, g_disk.max_write}));
  return ::write(fd, data, n);
}

int FakeReserve(int, off_t offset, off_t length) {
  if (g_disk.interruptions > 0) {
    --g_disk.interruptions;
    errno = EINTR;
    return -1;
  }
  if (!g_disk.can_reserve) {
    errno = EOPNOTSUPP;
    return -1;
  }
  if (static_cast<uint64_t>(offset + length) > g_disk.capacity) {
    errno = ENOSPC;
    return -1;
  }
  return 0;
}

// Captures what this process writes to stderr while it lives.
class StderrCapture {
 public:
  explicit StderrCapture(const std::string& path) : path_(path) {
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
  ~StderrCapture() { Stop(); }
  std::string Stop() {
    if (saved_ >= 0) {
      ::dup2(saved_, STDERR_FILENO);
      ::close(saved_);
      saved_ = -1;
    }
    return ReadFile(path_);
  }

 private:
  std::string path_;
  int saved_ = -1;
};

size_t CountLines(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

// An EVENTS chunk of `records` enter/leave records of stream 1, stored uncompressed.
std::vector<uint8_t> EventsChunk(uint64_t first_index, uint32_t records) {
  std::vector<uint8_t> raw(records * 8u + 8);
  uint8_t* p = raw.data();
  for (uint32_t i = 0; i < records; ++i)
    p = (first_index + i) % 2 == 0 ? format::EncodeEvent(p, i > 0, format::EnterRecord{1, 0})
                                   : format::EncodeEvent(p, 1, format::LeaveRecord{1});
  format::ChunkHeader h;
  h.type = format::ChunkType::kEvents;
  h.stream = 1;
  h.record_count = records;
  h.first_index = first_index;
  h.tick_begin = first_index;
  h.tick_end = first_index + records - 1;
  format::ChunkEncoder encoder(raw.size(), 0);
  std::span<const uint8_t> sealed =
      encoder.Seal(h, raw.data(), static_cast<size_t>(p - raw.data()));
  return {sealed.begin(), sealed.end()};
}

constexpr uint32_t kRecords = 10000;  // about 45 KB a chunk

class WriteFailure : public ::testing::Test {
 protected:
  void SetUp() override {
    g_disk = FakeDisk();
    path_ = dir_.File("t.plx");
    chunk_bytes_ = EventsChunk(0, kRecords).size();
  }

  // Appends `n` chunks of kRecords records; returns how many were accepted.
  int AppendChunks(TraceOutput& out, int n) {
    int accepted = 0;
    for (int i = 0; i < n; ++i)
      accepted += out.Append(EventsChunk(static_cast<uint64_t>(i) * kRecords, kRecords), false);
    return accepted;
  }

  // What the runtime does at exit after a failure: the counts, then the index.
  void FinishLikeTheRuntime(TraceOutput& out) {
    if (out.failed()) {
      out.BeginEpilogue();
      Registry registry;
      registry.Init("all");
      registry.Attribute("parallax.dropped_records", std::to_string(out.dropped_records()));
      DrainContext ctx(0);
      DrainDefinitions(ctx, DrainTarget{0, &registry, &out, false});
    }
    (void)out.Finish();
  }

  TempDir dir_;
  std::string path_;
  size_t chunk_bytes_ = 0;
};

TEST_F(WriteFailure, FullDiskStopsAtOnceAndTheFileEndsComplete) {
  // Room for the header, two chunks and the end of the file, not three chunks.
  g_disk.capacity = 16 + 2 * chunk_bytes_ + 32 * 1024;
  StderrCapture err(dir_.File("stderr"));
  TraceOutput out;
  ASSERT_TRUE(out.Open(path_, {&FakeWrite, &FakeReserve}).ok());
  EXPECT_EQ(AppendChunks(out, 2), 2);
  EXPECT_FALSE(out.failed());
  const int writes = g_disk.writes;
  EXPECT_EQ(AppendChunks(out, 5), 0);
  EXPECT_TRUE(out.stopped());
  EXPECT_EQ(g_disk.writes, writes) << "refused before writing anything";
  EXPECT_EQ(out.dropped_chunks(), 5u);
  EXPECT_EQ(out.dropped_records(), 5u * kRecords);
  FinishLikeTheRuntime(out);
  const std::string said = err.Stop();
  EXPECT_EQ(
      CountLines(said, "parallax: cannot write the trace " + path_ + ": No space left on device"),
      1u)
      << said;
  EXPECT_EQ(CountLines(said, "\n"), 1u) << said;

  auto file = format::TraceFile::Open(path_);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_TRUE((*file)->report().used_index);
  EXPECT_EQ((*file)->total_records(), 2u * kRecords);
  ASSERT_EQ((*file)->processes().size(), 1u);
  const format::ProcessDefs& defs = (*file)->processes().begin()->second;
  ASSERT_FALSE(defs.attributes.empty());
  EXPECT_EQ(defs.Str(defs.attributes.back().key), "parallax.dropped_records");
  EXPECT_EQ(defs.Str(defs.attributes.back().value), std::to_string(5 * kRecords));
  struct stat st;
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_LE(static_cast<uint64_t>(st.st_size), g_disk.capacity);
}

TEST_F(WriteFailure, FullDiskMidWriteCutsThePartialChunkOff) {
  // No reservations: the disk fills in the middle of the third chunk.
  g_disk.can_reserve = false;
  g_disk.capacity = 16 + 2 * chunk_bytes_ + chunk_bytes_ / 2;
  StderrCapture err(dir_.File("stderr"));
  TraceOutput out;
  ASSERT_TRUE(out.Open(path_, {&FakeWrite, &FakeReserve}).ok());
  EXPECT_EQ(AppendChunks(out, 4), 2);
  EXPECT_EQ(out.dropped_chunks(), 2u);
  EXPECT_EQ(out.bytes_written(), 16 + 2 * chunk_bytes_);
  FinishLikeTheRuntime(out);  // the room the cut freed takes the end of the file
  EXPECT_EQ(CountLines(err.Stop(), "No space left on device"), 1u);

  auto file = format::TraceFile::Open(path_);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ((*file)->report().damaged_chunks, 0u);
  EXPECT_FALSE((*file)->report().truncated);
  EXPECT_EQ((*file)->total_records(), 2u * kRecords);
}

TEST_F(WriteFailure, IoErrorLeavesWhatWasWrittenReadable) {
  g_disk.fail_at = 16 + chunk_bytes_ + 20;  // inside the second chunk, and for good
  g_disk.fail_errno = EIO;
  StderrCapture err(dir_.File("stderr"));
  TraceOutput out;
  ASSERT_TRUE(out.Open(path_, {&FakeWrite, &FakeReserve}).ok());
  EXPECT_EQ(AppendChunks(out, 3), 1);
  FinishLikeTheRuntime(out);  // the epilogue fails too: no index
  EXPECT_FALSE(out.error().ok());
  const std::string said = err.Stop();
  EXPECT_EQ(CountLines(said, "Input/output error"), 1u) << said;
  EXPECT_EQ(CountLines(said, "\n"), 1u) << said;

  auto file = format::TraceFile::Open(path_);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_FALSE((*file)->report().used_index);
  EXPECT_FALSE((*file)->report().truncated);
  EXPECT_EQ((*file)->report().damaged_chunks, 0u);
  EXPECT_EQ((*file)->total_records(), 1u * kRecords);
}

TEST_F(WriteFailure, ShortWritesLoseNothing) {
  g_disk.max_write = 7;
  TraceOutput out;
  ASSERT_TRUE(out.Open(path_, {&FakeWrite, &FakeReserve}).ok());
  EXPECT_EQ(AppendChunks(out, 3), 3);
  EXPECT_TRUE(out.Finish().ok());
  EXPECT_GT(g_disk.writes, 3 * static_cast<int>(chunk_bytes_ / 7));
  auto file = format::TraceFile::Open(path_);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_TRUE((*file)->report().used_index);
  EXPECT_EQ((*file)->total_records(), 3u * kRecords);
}

TEST_F(WriteFailure, InterruptedCallsAreTriedAgain) {
  TraceOutput out;
  ASSERT_TRUE(out.Open(path_, {&FakeWrite, &FakeReserve}).ok());
  g_disk.interruptions = 3;  // the reservation, then the write, then the reservation again
  EXPECT_EQ(AppendChunks(out, 2), 2);
  EXPECT_EQ(g_disk.interruptions, 0);
  EXPECT_FALSE(out.failed());
  EXPECT_TRUE(out.Finish().ok());
  auto file = format::TraceFile::Open(path_);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ((*file)->total_records(), 2u * kRecords);
}

TEST_F(WriteFailure, ZeroByteWritesFailInsteadOfSpinning) {
  StderrCapture err(dir_.File("stderr"));
  TraceOutput out;
  ASSERT_TRUE(out.Open(path_, {&FakeWrite, &FakeReserve}).ok());
  g_disk.zero_writes = true;
  EXPECT_EQ(AppendChunks(out, 2), 0);
  EXPECT_EQ(g_disk.writes, 2);  // one attempt, then refused without trying
  (void)out.Finish();
  EXPECT_EQ(CountLines(err.Stop(), "Input/output error"), 1u);
}

TEST_F(WriteFailure, DrainAfterFailureFreesTheRingWithoutEncoding) {
  g_disk.capacity = 16 + 20 * 1024;  // the header, the definitions, the room for the end
  StderrCapture err(dir_.File("stderr"));
  TraceOutput out;
  ASSERT_TRUE(out.Open(path_, {&FakeWrite, &FakeReserve}).ok());
  Registry registry;
  registry.Init("all");
  DrainContext ctx(0);  // stored: 3,000 records take about 13 KB
  const DrainTarget target{0, &registry, &out, false};

  ThreadStream s;
  std::vector<Slot> ring(1u << 12);
  s.ring = ring.data();
  s.capacity = ring.size();
  s.mask = ring.size() - 1;
  auto fill = [&s](uint64_t n) {
    for (uint64_t i = 0; i < n; ++i, ++s.head)
      s.ring[s.head & s.mask] = Slot{s.head, MakeW0(i % 2 ? kRawLeave : kRawEnter, 1), 0};
    s.published.store(s.head);
  };
  fill(3000);
  EXPECT_EQ(DrainStream(&s, ctx, target), 0u);  // the chunk does not fit: refused
  EXPECT_TRUE(out.stopped());
  EXPECT_EQ(s.tail.load(), s.head) << "the ring is free again";
  const uint64_t dropped = out.dropped_records();
  EXPECT_EQ(dropped, 3000u);
  const uint64_t chunks = out.dropped_chunks();
  const int writes = g_disk.writes;
  fill(1000);
  EXPECT_EQ(DrainStream(&s, ctx, target), 0u);
  EXPECT_EQ(s.tail.load(), s.head);
  EXPECT_EQ(out.dropped_records(), dropped + 1000);
  EXPECT_EQ(out.dropped_chunks(), chunks) << "no chunk was even sealed";
  EXPECT_EQ(g_disk.writes, writes);
  (void)out.Finish();
}

}  // namespace
}  // namespace plx::capture
