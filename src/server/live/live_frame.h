// The live wire protocol's framing (docs/live.md): frames are cut out of the
// bytes of a connection as they arrive, with bounded sizes, and the HELLO and
// END frames' JSON is read into structs. Writing frames is here too (tests,
// the benchmark, replaying a file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace plx::server::live {

inline constexpr uint32_t kProtocol = 1;
enum class FrameKind : uint8_t { kHello = 1, kChunk = 2, kEnd = 3 };
inline constexpr size_t kFrameHeaderSize = 5;  // length u32le, kind u8
/// Largest `length` (kind byte and payload): a 64 MiB chunk and its header.
inline constexpr uint32_t kMaxFrameLength = (64u << 20) + 1024;
/// Largest HELLO or END payload.
inline constexpr uint32_t kMaxJsonFrame = 64 * 1024;

/// Appends one frame (header and payload) to `out`.
void AppendFrame(FrameKind kind, const void* payload, size_t size, std::vector<uint8_t>* out);

struct Hello {
  uint32_t protocol = 0;
  std::string token;
  uint32_t format_major = 0;
  uint32_t format_minor = 0;
  int64_t pid = -1;
  std::string host;
  std::string executable;
};

struct End {
  bool finished = false;  // else crashed
  int64_t signal = 0;
  uint64_t records = 0;
  uint64_t dropped_chunks = 0;
};

/// Reads a HELLO payload; the error names the field.
StatusOr<Hello> ParseHello(std::string_view json);
/// Reads an END payload; the error names the field.
StatusOr<End> ParseEnd(std::string_view json);
/// The HELLO JSON a client sends (tests, replay).
std::string HelloJson(const Hello& hello);
/// The END JSON a client sends.
std::string EndJson(const End& end);

/// Cuts frames out of a byte stream fed in pieces of any size.
class FrameReader {
 public:
  struct Frame {
    FrameKind kind;
    uint64_t offset;  // of the frame's length field in the connection's bytes
    std::vector<uint8_t> payload;
  };

  /// Takes the next `size` bytes of the connection. Complete frames are
  /// appended to `out` (their payload vectors are moved out). Returns a
  /// one-line error ("offset N: frame length L: ...") on a frame that breaks
  /// the bounds, or a first frame that is not HELLO; nothing more may be fed
  /// after that. A payload's memory grows with the bytes that arrived, not
  /// with the length its header declares.
  Status Feed(const uint8_t* data, size_t size, std::vector<Frame>* out);
  /// Bytes taken so far.
  uint64_t offset() const { return offset_; }
  /// True between frames (a connection that ends here ended cleanly).
  bool at_frame_boundary() const { return header_fill_ == 0 && !in_payload_; }
  /// Bytes still to come before the current frame's header or payload is
  /// complete: feeding at most this many lets the caller act on each frame
  /// before reading on (a session reads nothing past HELLO until it checked it).
  size_t bytes_to_next_step() const {
    return in_payload_ ? expected_ - payload_.size() : kFrameHeaderSize - header_fill_;
  }

 private:
  uint64_t offset_ = 0;
  uint64_t frame_offset_ = 0;
  uint8_t header_[kFrameHeaderSize] = {};
  size_t header_fill_ = 0;
  bool in_payload_ = false;
  FrameKind kind_ = FrameKind::kHello;
  std::vector<uint8_t> payload_;  // grows as the payload arrives
  size_t expected_ = 0;           // the payload's declared size
};

}  // namespace plx::server::live
