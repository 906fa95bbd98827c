// LivePublisher: the snapshot thread of a live trace. Every update interval
// in which something was applied it builds the window's .plx image, loads it
// as a ServedTrace (model, causal repair, timeline index; analyses on first
// use) through a load cache that keeps what the last snapshot decoded, so
// that only the chunks new since then are decoded again; puts it in the
// TraceStore in place of the previous one, and broadcasts one `live`
// WebSocket message. The message carries the new snapshot's summary (when at
// most kMaxMessageSummary bytes; a viewer fetches a larger one), so a viewer
// shows it without another round trip. A build that takes longer than half
// the interval is followed by a pause as long as itself, then by one with
// everything that came meanwhile.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "model/load_cache.h"
#include "server/api/api.h"
#include "server/api/live_status.h"
#include "server/live/live_trace.h"

namespace plx::server::live {

/// The largest summary a `live` message carries (a trace with thousands of rows
/// has a larger one; viewers fetch /summary then).
inline constexpr size_t kMaxMessageSummary = size_t{256} << 10;

class LivePublisher {
 public:
  using BroadcastFn = std::function<void(const std::string& message)>;

  /// Adds the live trace (id "live", an empty snapshot at first) to `store`.
  /// `broadcast` sends a `live` message to every viewer (may be empty).
  LivePublisher(LiveTrace& trace, TraceStore& store, BroadcastFn broadcast,
                std::chrono::milliseconds update = std::chrono::milliseconds(100));
  /// Stops the thread.
  ~LivePublisher();
  LivePublisher(const LivePublisher&) = delete;
  LivePublisher& operator=(const LivePublisher&) = delete;

  /// Starts the snapshot thread.
  void Start();
  /// Stops it (waits for a build in progress).
  void Stop();
  /// One update now, on the caller's thread (when the thread is not running).
  void UpdateNow();

  /// The status the last update published.
  LiveStatus status() const;
  /// The newest snapshot.
  std::shared_ptr<ServedTrace> current() const;
  /// Wall time of the last snapshot build (image, load, repair, index).
  std::chrono::duration<double> last_build_time() const;

 private:
  struct Board {
    mutable std::mutex mu;
    LiveStatus status;
  };
  void Run();
  std::shared_ptr<ServedTrace> NewSnapshot(std::vector<uint8_t> image, WindowDropped dropped = {});

  LiveTrace& trace_;
  TraceStore& store_;
  BroadcastFn broadcast_;
  std::chrono::milliseconds update_;
  std::shared_ptr<Board> board_;
  model::LoadCache cache_;  // used by one snapshot build at a time

  mutable std::mutex mu_;  // current_, build_time_
  std::shared_ptr<ServedTrace> current_;
  std::chrono::duration<double> build_time_{0};
  uint64_t version_ = 0;
  uint64_t generation_ = 0;
  double clock_ = 0, lag_ms_ = 0;
  bool sent_any_ = false;
  LiveStatus last_sent_;

  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace plx::server::live
