// Background loading with progress messages (see trace_loader.h).
#include "server/http/trace_loader.h"

#include <chrono>
#include <string>

namespace plx::server {

TraceLoader::TraceLoader(TraceStore& store, HttpServer& server, PhaseFn on_phase) {
  for (const auto& trace : store.traces()) {
    if (trace->live()) continue;   // live_publisher.h loads its snapshots
    ServedTrace* t = trace.get();  // files stay in the store as long as the server
    threads_.emplace_back([t, &server, on_phase] {
      std::string phase;
      auto last = std::chrono::steady_clock::time_point();
      t->Load([&](const LoadProgressInfo& p) {
        const auto now = std::chrono::steady_clock::now();
        const bool changed = p.phase != phase || p.status != LoadStatus::kLoading;
        if (!changed && now - last < std::chrono::milliseconds(100)) return;
        last = now;
        if (changed) {
          phase = p.phase;
          if (on_phase) on_phase(*t, p);
        }
        server.Broadcast(ProgressMessage(*t, p));
      });
    });
  }
}

TraceLoader::~TraceLoader() {
  for (auto& t : threads_)
    t.join();
}

}  // namespace plx::server
