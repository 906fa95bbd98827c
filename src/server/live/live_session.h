// LiveSession: one live connection's protocol (docs/live.md), without the
// socket: bytes in, frames out, HELLO checked (protocol, token in constant
// time), chunks checked and decoded on the caller's thread, then handed to
// the LiveTrace. Until its HELLO proved the token a peer costs its HELLO's
// bytes only: no connection in the trace, no byte read past the HELLO. The
// first bad frame ends the session; what it sent before stays applied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "server/live/live_chunk.h"
#include "server/live/live_frame.h"
#include "server/live/live_trace.h"

namespace plx::server::live {

class LiveSession {
 public:
  /// A connection from `peer`; it joins `trace` with a valid HELLO.
  LiveSession(LiveTrace& trace, std::string peer);
  /// Disconnects it if Close() was not called.
  ~LiveSession();
  LiveSession(const LiveSession&) = delete;
  LiveSession& operator=(const LiveSession&) = delete;

  /// Takes the next bytes the peer sent. False once the connection must be
  /// closed (bad input, reported to the trace; or data after END).
  bool Feed(const uint8_t* data, size_t size);
  /// The peer closed the connection (or the server stops).
  void Close();
  /// The server closes a peer that sent no valid HELLO in time (`why`).
  void Refuse(const std::string& why);

  /// True once a HELLO with the token arrived.
  bool authenticated() const { return hello_; }
  uint32_t connection() const { return connection_; }

 private:
  bool Bad(const std::string& what);
  bool HandleFrame(FrameReader::Frame& frame);

  LiveTrace& trace_;
  std::string peer_;
  uint32_t connection_ = 0;  // valid once hello_
  FrameReader reader_;
  std::vector<FrameReader::Frame> frames_;
  std::unique_ptr<ChunkChecker> checker_;
  bool hello_ = false;
  bool ended_ = false;
  bool failed_ = false;
  bool closed_ = false;
};

}  // namespace plx::server::live
