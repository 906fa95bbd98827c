// Test side of the live protocol: a client that speaks docs/live.md over a
// real socket, traces written from trace scripts to replay through it, and
// waiting for a condition with a deadline.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "server/live/live_frame.h"

namespace plx::testing {

/// One connection to a live listener on 127.0.0.1, written to with blocking sends.
class LiveClient {
 public:
  explicit LiveClient(uint16_t port);
  ~LiveClient();
  LiveClient(const LiveClient&) = delete;
  LiveClient& operator=(const LiveClient&) = delete;

  bool connected() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  void Hello(const std::string& token, int64_t pid);
  void Chunk(const std::vector<uint8_t>& chunk);
  void End(bool finished, uint64_t records = 0);
  void Raw(const std::vector<uint8_t>& bytes);
  /// Closes the socket (without END unless End() was called).
  void Close();

 private:
  int fd_ = -1;
};

/// A .plx trace of `ranks` MPI ranks (trace_script MpiScriptPreamble) passing
/// messages on a ring each iteration (every rank sends to the next and
/// receives from the one before, 10 ns apart), with compute between; small
/// chunks (`chunk` raw bytes) so one rank's stream has many. Returns its path.
std::string WriteRingTrace(const std::string& dir, int ranks, int iterations, int chunk);
/// A one-process trace of `slices` compute slices, one every `step_ns`.
std::string WriteLongTrace(const std::string& dir, int slices, int64_t step_ns, int chunk);

std::vector<uint8_t> ReadWholeFile(const std::string& path);

/// Polls `done` every few ms until it holds or `timeout` passes; its last answer.
bool WaitUntil(const std::function<bool()>& done,
               std::chrono::milliseconds timeout = std::chrono::seconds(20));

}  // namespace plx::testing
