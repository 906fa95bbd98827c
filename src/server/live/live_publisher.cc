// LivePublisher: snapshot, swap, tell the viewers.
#include "server/live/live_publisher.h"

#include <malloc.h>

#include <algorithm>

#include "server/api/api_handlers.h"
#include "server/live/live_snapshot.h"

namespace plx::server::live {

LivePublisher::LivePublisher(LiveTrace& trace, TraceStore& store, BroadcastFn broadcast,
                             std::chrono::milliseconds update)
    : trace_(trace),
      store_(store),
      broadcast_(std::move(broadcast)),
      update_(update),
      board_(std::make_shared<Board>()) {
  // Every update builds a snapshot's columns anew and frees the last one's.
  // Keeping freed memory in the heap (blocks up to 32 MiB, the most malloc
  // keeps there) spares the page faults of touching it again: about a
  // quarter of a snapshot's build time. For the whole process: a live server.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  current_ = NewSnapshot(BuildImage({}, {}));
  store_.Replace(current_);
  board_->status = trace_.Status(Clock::now(), false);
}

LivePublisher::~LivePublisher() {
  Stop();
}

std::shared_ptr<ServedTrace> LivePublisher::NewSnapshot(std::vector<uint8_t> image,
                                                        WindowDropped dropped) {
  auto snapshot = std::make_shared<ServedTrace>("live", "live");
  snapshot->SetDropped(std::move(dropped));
  snapshot->SetLiveStatus([board = board_] {
    std::lock_guard lock(board->mu);
    return board->status;
  });
  snapshot->LoadFromBytes(std::move(image), &cache_);
  return snapshot;
}

void LivePublisher::Start() {
  if (thread_.joinable()) return;
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
}

void LivePublisher::Stop() {
  {
    std::lock_guard lock(stop_mu_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LivePublisher::Run() {
  auto next = Clock::now() + update_;
  std::unique_lock lock(stop_mu_);
  while (!stop_cv_.wait_until(lock, next, [this] { return stop_; })) {
    lock.unlock();
    const auto start = Clock::now();
    UpdateNow();
    // Coalescing: updates come every interval, but a build that took longer
    // than half of it is followed by as long a pause. The snapshot thread
    // then takes at most half a core, and the viewers' tile and panel
    // requests, and the viewers themselves where they share the machine, are
    // not starved by it (which made a build's records reach the screen later).
    const auto end = Clock::now();
    next = std::max(start + update_, end + (end - start));
    lock.lock();
  }
}

void LivePublisher::UpdateNow() {
  trace_.FlushIfStalled(Clock::now());
  bool built = false;
  std::string summary;  // of a new snapshot, for the message
  if (trace_.Changed(version_)) {
    const auto start = Clock::now();
    SnapshotWork work = trace_.TakeSnapshotWork();
    std::shared_ptr<ServedTrace> snapshot =
        NewSnapshot(BuildImage(work.input, work.process_of), std::move(work.dropped));
    const auto ready = Clock::now();
    version_ = work.applied_version;
    if (snapshot->ready()) {
      const model::Trace& t = snapshot->trace();
      clock_ = static_cast<double>(t.end_ns - t.begin_ns);
      lag_ms_ =
          work.newest_arrival == Clock::time_point{}
              ? 0
              : std::chrono::duration<double, std::milli>(ready - work.newest_arrival).count();
      ++generation_;
      ApiResponse r = handlers::Summary(*snapshot);
      if (r.status == 200 && r.body.size() <= kMaxMessageSummary) summary = std::move(r.body);
      store_.Replace(snapshot);
      std::lock_guard lock(mu_);
      current_ = std::move(snapshot);
      build_time_ = ready - start;
      built = true;
    }
    // A snapshot that does not load (it cannot: every chunk was checked) keeps the last one.
  }
  std::shared_ptr<ServedTrace> current = this->current();
  const auto now = Clock::now();
  const bool deadlock =
      trace_.Quiet(now) && current->ready() && !current->deadlocks().deadlocks.empty();
  LiveStatus s = trace_.Status(now, deadlock);
  s.generation = generation_;
  s.clock = clock_;
  s.lag_ms = lag_ms_;
  {
    std::lock_guard lock(board_->mu);
    board_->status = s;
  }
  if ((built || !sent_any_ || !(s == last_sent_)) && broadcast_) {
    broadcast_(LiveMessage(s, summary));
    last_sent_ = s;
    sent_any_ = true;
  }
}

LiveStatus LivePublisher::status() const {
  std::lock_guard lock(board_->mu);
  return board_->status;
}

std::shared_ptr<ServedTrace> LivePublisher::current() const {
  std::lock_guard lock(mu_);
  return current_;
}

std::chrono::duration<double> LivePublisher::last_build_time() const {
  std::lock_guard lock(mu_);
  return build_time_;
}

}  // namespace plx::server::live
