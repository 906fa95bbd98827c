// TraceLoader: loads every trace of a store on its own thread and tells the
// world how it goes: WebSocket progress messages (at most ~10 a second per
// trace, phase changes and the end always) and a callback for each phase.
#pragma once

#include <functional>
#include <thread>
#include <vector>

#include "server/api/api.h"
#include "server/http/http_server.h"

namespace plx::server {

class TraceLoader {
 public:
  using PhaseFn = std::function<void(const ServedTrace&, const LoadProgressInfo&)>;

  /// Starts loading at once (every trace but a live one). `on_phase` (may be empty) runs on the
  /// loading thread at every change of phase, and when a trace is ready or failed.
  TraceLoader(TraceStore& store, HttpServer& server, PhaseFn on_phase);
  /// Waits for the traces still loading.
  ~TraceLoader();
  TraceLoader(const TraceLoader&) = delete;
  TraceLoader& operator=(const TraceLoader&) = delete;

 private:
  std::vector<std::thread> threads_;
};

}  // namespace plx::server
