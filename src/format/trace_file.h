// TraceFile: opens a .plx file (finished, cut short by a crash, or damaged),
// collects its definitions and the index of its EVENTS chunks, and decodes
// chunks on demand: random access by stream and time range.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/mapped_file.h"
#include "base/status.h"
#include "format/definitions.h"
#include "format/layout.h"
#include "format/records.gen.h"
#include "format/tick_clock.h"

namespace plx::format {

struct ChunkInfo {
  uint64_t offset = 0;  // of the chunk header
  ChunkHeader header;
  int64_t begin_ns = 0;  // EVENTS chunks: first and last record, CLOCK_MONOTONIC ns
  int64_t end_ns = 0;
};

struct StreamInfo {
  uint32_t process = 0;
  uint32_t stream = 0;
  uint64_t records = 0;
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  std::vector<uint32_t> chunks;  // indices into TraceFile::event_chunks(), in record order
  uint64_t missing_records = 0;  // records lost between chunks (damage)
};

/// What opening the file found; `problems` are one line each, with offsets.
struct OpenReport {
  bool used_index = false;  // the file ended with a valid index and trailer
  uint64_t readable_bytes = 0;
  uint64_t chunks = 0;  // chunks found, the INDEX chunk not counted
  uint64_t damaged_chunks = 0;
  uint64_t duplicate_chunks = 0;
  uint64_t unknown_chunks = 0;
  bool truncated = false;  // the file ends inside a chunk
  std::vector<std::string> problems;
};

class TraceFile {
 public:
  static StatusOr<std::unique_ptr<TraceFile>> Open(const std::string& path);
  static StatusOr<std::unique_ptr<TraceFile>> FromBytes(std::string name,
                                                        std::vector<uint8_t> bytes);

  const std::string& name() const { return file_->name(); }
  /// True when opened from a path (name() is the path), false for bytes.
  bool on_disk() const { return file_->on_disk(); }
  uint64_t size() const { return file_->size(); }
  uint16_t version_minor() const { return version_minor_; }

  const std::map<uint32_t, ProcessDefs>& processes() const { return processes_; }
  /// Tick conversion of a process (identity for processes without a clock).
  const TickClock& clock(uint32_t process) const;
  /// EVENTS chunks sorted by process, stream and first record index.
  const std::vector<ChunkInfo>& event_chunks() const { return chunks_; }
  const std::vector<StreamInfo>& streams() const { return streams_; }
  const StreamInfo* FindStream(uint32_t process, uint32_t stream) const;
  uint64_t total_records() const { return total_records_; }
  int64_t begin_ns() const { return begin_ns_; }
  int64_t end_ns() const { return end_ns_; }
  const OpenReport& report() const { return report_; }
  /// Identifies the file's contents: a hash of its size and of every chunk
  /// header found, which hold their payload's checksum. Indexes built from a
  /// file are valid for another only when this is the same.
  uint64_t content_id() const { return content_id_; }

  /// The chunks of a stream whose records overlap [begin_ns, end_ns].
  std::vector<const ChunkInfo*> ChunksInRange(const StreamInfo& stream, int64_t begin_ns,
                                              int64_t end_ns) const;

  /// Checks and, when compressed, decompresses a chunk's payload. `*payload`
  /// points into the file or into *scratch. Thread-safe.
  Status ReadPayload(const ChunkInfo& chunk, std::vector<uint8_t>* scratch,
                     std::span<const uint8_t>* payload) const;

  /// Decodes an EVENTS chunk: v.On(tick, record) for each record in order.
  template <typename Visitor>
  Status DecodeChunk(const ChunkInfo& chunk, Visitor& v, std::vector<uint8_t>* scratch) const {
    std::span<const uint8_t> payload;
    PLX_RETURN_IF_ERROR(ReadPayload(chunk, scratch, &payload));
    DecodeError error;
    if (!DecodeEvents(payload.data(), payload.data() + payload.size(), chunk.header.tick_begin, v,
                      &error))
      return RecordError(chunk, error);
    return Status::Ok();
  }

  /// Lets the chunk's bytes go from memory once decoded (MappedFile::Release):
  /// a pass over a file larger than memory keeps only what it is reading.
  /// Every 64 MiB so released, the whole file goes too: the kernel maps the
  /// pages around each one read, which may belong to chunks done before.
  /// Thread-safe.
  void Release(const ChunkInfo& chunk) const;

  /// "file: offset N: ..." for a damaged record inside a chunk.
  Status RecordError(const ChunkInfo& chunk, const DecodeError& error) const;

 private:
  explicit TraceFile(std::unique_ptr<MappedFile> file) : file_(std::move(file)) {}
  Status Load();
  bool LoadIndex(std::vector<ChunkInfo>* all);
  void Scan(std::vector<ChunkInfo>* all);
  void Problem(std::string line);
  void Finish(const std::vector<ChunkInfo>& all);

  std::unique_ptr<MappedFile> file_;
  uint16_t version_minor_ = 0;
  std::map<uint32_t, ProcessDefs> processes_;
  std::map<uint32_t, TickClock> clocks_;
  std::vector<ChunkInfo> chunks_;
  std::vector<StreamInfo> streams_;
  uint64_t total_records_ = 0;
  int64_t begin_ns_ = 0;
  int64_t end_ns_ = 0;
  OpenReport report_;
  uint64_t content_id_ = 0;
  mutable std::atomic<uint64_t> released_{0};
};

}  // namespace plx::format
