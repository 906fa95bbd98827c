// The frames of the live wire protocol (docs/live.md): a length, a kind and a
// payload; HELLO and END carry small JSON objects built here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plx::capture {

inline constexpr uint32_t kLiveProtocol = 1;
inline constexpr uint8_t kFrameHello = 1;
inline constexpr uint8_t kFrameChunk = 2;
inline constexpr uint8_t kFrameEnd = 3;
/// length:u32le kind:u8
inline constexpr size_t kFrameHeaderSize = 5;

/// Writes the 5-byte frame header for a payload of `payload_bytes`.
void EncodeFrameHeader(uint8_t kind, size_t payload_bytes, uint8_t* out);

/// The HELLO payload: protocol, token, format, pid, host, executable.
std::string HelloJson(std::string_view token, int pid, std::string_view host,
                      std::string_view executable);

/// The END payload of a normal finish. Allocates: not for signal handlers.
std::string EndFinishedJson(uint64_t records, uint64_t dropped_chunks);

/// Writes the whole END frame (header and payload) of a crash into `out`
/// without allocating; returns its size (0 when `capacity` is too small).
size_t EncodeCrashEndFrame(int signal, uint64_t records, uint64_t dropped_chunks, uint8_t* out,
                           size_t capacity);

}  // namespace plx::capture
