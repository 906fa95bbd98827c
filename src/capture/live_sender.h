// The live stream of one traced process (docs/live.md): every sealed chunk
// goes to a bounded queue that a sender thread writes to a TCP connection.
// The program never waits for the receiver: a full queue leaves chunks out of
// the stream (counted), a failed connection ends streaming; the file is unaffected.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <thread>

#include "capture/config.h"
#include "capture/live_queue.h"

namespace plx::capture {

class LiveSender {
 public:
  /// Allocates the queue and starts the sender thread, which connects (2 s
  /// timeout) and sends HELLO. False (streaming off) when memory is short.
  bool Start(const Config& config, int pid, const std::string& host, const std::string& exe);
  /// A sealed chunk was appended to the trace: queues a copy, or counts it as
  /// left out. Callers serialise calls (TraceOutput::Append holds its lock).
  void Offer(std::span<const uint8_t> chunk, bool definitions);
  /// At normal finalize: sends what is queued and END "finished" (waiting at
  /// most about 2 s for the receiver), then closes the connection.
  void Finish(uint64_t records);
  /// From a signal handler: END "crashed" when the connection is idle between
  /// frames (after briefly letting the sender empty the queue). No allocation, no lock.
  void CrashEnd(int signal, uint64_t records);

  const std::string& endpoint() const { return endpoint_; }
  uint64_t dropped_chunks() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  // The connection, as the sender thread and a crash handler see it.
  enum Wire { kConnecting, kIdle, kBusy, kClosed, kCrashed };

  void Run();
  bool Connect();
  /// Sends all of [p, p + n); false after an error (reported).
  bool SendAll(const uint8_t* p, size_t n);
  /// Sends queued frames until the queue is empty; false when streaming ends.
  bool SendQueued();
  /// Prints the one line about the stream ending early, once.
  void Report(const char* what, const char* why);
  void Close();

  std::string endpoint_;  // as given in PLX_LIVE, for messages
  std::string host_;
  uint16_t port_ = 0;
  bool started_ = false;
  LiveQueue queue_;
  std::atomic<bool> accepting_{false};  // Offer queues chunks
  std::atomic<bool> defs_lost_{false};  // a DEFS chunk did not fit: nothing more is queued
  std::atomic<uint64_t> dropped_{0};
  std::atomic<int> wire_{kConnecting};
  std::atomic<int> fd_{-1};
  std::atomic<bool> at_frame_boundary_{true};
  uint64_t next_boundary_ = 0;  // sender thread: end of the frame being sent
  std::atomic<bool> reported_{false};

  std::string hello_;  // the HELLO frame's JSON
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;  // to the sender: data queued, or finish
  std::condition_variable done_cv_;
  bool finishing_ = false;          // guarded by mutex_
  bool done_ = false;               // guarded by mutex_: the sender thread has ended
  std::string end_;                 // END payload, set with finishing_
  std::atomic<bool> abort_{false};  // Finish gave up waiting
};

}  // namespace plx::capture
