// TraceWriter: buffers per stream, seals chunks, keeps definitions ahead of the
// events that use them, and ends the file with an index and trailer.
#include "format/trace_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "base/strings.h"

namespace plx::format {

StatusOr<std::unique_ptr<TraceWriter>> TraceWriter::Create(const std::string& path,
                                                           WriterOptions options) {
  if (options.chunk_raw_size == 0 || options.chunk_raw_size > kMaxChunkRawSize / 2)
    return InvalidArgument(StrFormat("chunk_raw_size %zu out of range", options.chunk_raw_size));
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(path, errno);
  std::unique_ptr<TraceWriter> w(new TraceWriter(fd, path, options));
  uint8_t header[kFileHeaderSize];
  EncodeFileHeader(header);
  w->WriteBytes(header, sizeof header);
  if (!w->error_.ok()) return w->error_;
  return w;
}

TraceWriter::TraceWriter(int fd, std::string path, WriterOptions options)
    : fd_(fd),
      path_(std::move(path)),
      options_(options),
      // Room for the largest record past the seal threshold (strings up to 1 MiB).
      encoder_(options.chunk_raw_size * 2 + (1 << 20), options.zstd_level) {}

TraceWriter::~TraceWriter() {
  if (!finished_) (void)Finish();
}

TraceWriter::StreamBuffer& TraceWriter::Stream(uint32_t process, uint32_t stream, uint64_t* tick) {
  StreamBuffer& s = streams_[{process, stream}];
  // last_tick outlives a sealed chunk, so the order is checked across chunks too.
  if ((s.count > 0 || s.first_index > 0) && *tick < s.last_tick) {
    if (error_.ok())
      error_ = InvalidArgument(StrFormat("process %u stream %u: tick %llu after %llu", process,
                                         stream, static_cast<unsigned long long>(*tick),
                                         static_cast<unsigned long long>(s.last_tick)));
    *tick = s.last_tick;  // keep the encoding valid
  }
  if (s.count == 0) {
    s.tick_begin = *tick;
    s.last_tick = *tick;
  }
  return s;
}

void TraceWriter::Advance(uint32_t process, uint32_t stream, StreamBuffer& s, uint64_t tick) {
  if (tick > s.last_tick) s.last_tick = tick;
  ++s.count;
  if (s.bytes.size() >= options_.chunk_raw_size) FlushStream(process, stream, s);
}

bool TraceWriter::Fits(size_t bytes) {
  // A chunk is sealed once it passes chunk_raw_size, so it holds at most that
  // plus one record: the encoder was sized for records up to max_record_bytes().
  if (bytes <= max_record_bytes()) return true;
  if (error_.ok())
    error_ =
        InvalidArgument(StrFormat("%s: a record of %zu bytes is larger than the %zu-byte limit",
                                  path_.c_str(), bytes, max_record_bytes()));
  return false;
}

void TraceWriter::RawEvent(uint32_t process, uint32_t stream, uint64_t tick, uint8_t kind,
                           std::span<const uint8_t> body) {
  if (!Fits(1 + 2 * kMaxVarintBytes + body.size())) return;
  StreamBuffer& s = Stream(process, stream, &tick);
  uint8_t* p = s.bytes.Reserve(1 + 2 * kMaxVarintBytes + body.size());
  *p++ = kind;
  p = PutUvarint(p, tick - s.last_tick);
  p = PutUvarint(p, body.size());
  if (!body.empty()) std::memcpy(p, body.data(), body.size());
  s.bytes.Commit(p + body.size());
  Advance(process, stream, s, tick);
}

void TraceWriter::FlushDefs(uint32_t process) {
  auto it = defs_.find(process);
  if (it == defs_.end() || it->second.empty()) return;
  ChunkHeader h;
  h.type = ChunkType::kDefs;
  h.process = process;
  WriteChunk(h, it->second);
  it->second.Clear();
}

void TraceWriter::FlushStream(uint32_t process, uint32_t stream, StreamBuffer& s) {
  if (s.count == 0) return;
  FlushDefs(process);  // definitions always precede the events that use them
  ChunkHeader h;
  h.type = ChunkType::kEvents;
  h.process = process;
  h.stream = stream;
  h.record_count = s.count;
  h.first_index = s.first_index;
  h.tick_begin = s.tick_begin;
  h.tick_end = s.last_tick;
  WriteChunk(h, s.bytes);
  s.first_index += s.count;
  s.count = 0;
  s.bytes.Clear();
}

void TraceWriter::EndStream(uint32_t process, uint32_t stream) {
  auto it = streams_.find({process, stream});
  if (it == streams_.end()) return;
  FlushStream(process, stream, it->second);
  streams_.erase(it);
}

void TraceWriter::WriteChunk(const ChunkHeader& header, const ByteBuffer& payload) {
  std::span<const uint8_t> bytes = encoder_.Seal(header, payload.data(), payload.size());
  index_.AddSealed(offset_, bytes.data());
  WriteBytes(bytes.data(), bytes.size());
}

void TraceWriter::WriteBytes(const uint8_t* p, size_t n) {
  while (n > 0 && !io_failed_) {
    ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      io_failed_ = true;
      if (error_.ok()) error_ = ErrnoError(path_, errno);
      return;
    }
    p += w;
    n -= static_cast<size_t>(w);
    offset_ += static_cast<uint64_t>(w);
  }
}

Status TraceWriter::Finish() {
  if (finished_) return error_;
  finished_ = true;
  for (auto& [key, buf] : defs_)
    FlushDefs(key);
  for (auto& [key, s] : streams_)
    FlushStream(key.first, key.second, s);
  if (options_.write_index && !io_failed_) {
    std::vector<uint8_t> tail = index_.Finish(offset_);
    WriteBytes(tail.data(), tail.size());
  }
  if (::close(fd_) != 0 && error_.ok()) error_ = ErrnoError(path_, errno);
  return error_;
}

}  // namespace plx::format
