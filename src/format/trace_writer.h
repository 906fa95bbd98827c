// TraceWriter: writes a .plx file from definitions and records handed to it one
// by one. For tools, converters and tests; the capture runtime has its own
// crash-safe writer (src/capture) built on the same ChunkEncoder.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/byte_buffer.h"
#include "base/status.h"
#include "format/chunk_encoder.h"
#include "format/index_builder.h"
#include "format/records.gen.h"

namespace plx::format {

struct WriterOptions {
  int zstd_level = 1;                 // 0 = no compression
  size_t chunk_raw_size = 256 << 10;  // a chunk is sealed past this many raw bytes
  bool write_index = true;            // false leaves the file as a crash would (tests)
};

class TraceWriter {
 public:
  static StatusOr<std::unique_ptr<TraceWriter>> Create(const std::string& path,
                                                       WriterOptions options = {});
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  /// Adds a definition of `process` (a *Def struct from records.gen.h).
  template <typename D>
  void Def(uint32_t process, const D& def) {
    if (!Fits(MaxEncodedSize(def))) return;
    ByteBuffer& buf = defs_[process];
    buf.Commit(EncodeDef(buf.Reserve(MaxEncodedSize(def)), def));
    // Seal big batches early: the encoder holds at most 2 * chunk_raw_size + 1 MiB.
    if (buf.size() >= options_.chunk_raw_size) FlushDefs(process);
  }

  /// Appends a record (a *Record struct) to a stream at `tick`. Ticks must not
  /// decrease within a stream; a violation is reported by Finish().
  template <typename R>
  void Event(uint32_t process, uint32_t stream, uint64_t tick, const R& record) {
    if (!Fits(MaxEncodedSize(record))) return;
    StreamBuffer& s = Stream(process, stream, &tick);
    s.bytes.Commit(
        EncodeEvent(s.bytes.Reserve(MaxEncodedSize(record)), tick - s.last_tick, record));
    Advance(process, stream, s, tick);
  }

  /// Appends a record of any kind from raw body bytes (to test unknown kinds).
  void RawEvent(uint32_t process, uint32_t stream, uint64_t tick, uint8_t kind,
                std::span<const uint8_t> body);

  /// Writes what `stream` still buffers and lets its buffer go: a tool that
  /// writes many streams one after another keeps one in memory. No record of
  /// the stream may follow.
  void EndStream(uint32_t process, uint32_t stream);

  /// Writes everything still buffered, then (if enabled) the index and trailer.
  /// Reports the first problem met (a decreasing tick, a record too large).
  Status Finish();

  /// The largest record (in encoded bytes) the writer takes; larger ones are
  /// dropped and reported by Finish().
  size_t max_record_bytes() const { return options_.chunk_raw_size + (1u << 20); }

 private:
  struct StreamBuffer {
    ByteBuffer bytes;
    uint64_t tick_begin = 0;
    uint64_t last_tick = 0;
    uint64_t first_index = 0;
    uint32_t count = 0;
  };
  TraceWriter(int fd, std::string path, WriterOptions options);
  StreamBuffer& Stream(uint32_t process, uint32_t stream, uint64_t* tick);
  void Advance(uint32_t process, uint32_t stream, StreamBuffer& s, uint64_t tick);
  void FlushDefs(uint32_t process);
  void FlushStream(uint32_t process, uint32_t stream, StreamBuffer& s);
  void WriteChunk(const ChunkHeader& header, const ByteBuffer& payload);
  void WriteBytes(const uint8_t* p, size_t n);
  /// False (and the error noted) when a record of `bytes` cannot be written.
  bool Fits(size_t bytes);

  int fd_;
  std::string path_;
  WriterOptions options_;
  ChunkEncoder encoder_;
  uint64_t offset_ = 0;
  Status error_;            // the first error, reported by Finish()
  bool io_failed_ = false;  // a write failed: stop writing (a bad tick does not stop it)
  bool finished_ = false;
  std::map<uint32_t, ByteBuffer> defs_;
  std::map<std::pair<uint32_t, uint32_t>, StreamBuffer> streams_;
  IndexBuilder index_;
};

}  // namespace plx::format
