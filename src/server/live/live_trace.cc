// LiveTrace: the shared state of ingest. Each EVENTS chunk goes into the
// consistent-run builder as its sends and receives followed by one marker
// event (a local event); every event's payload names its chunk. The marker
// comes out only after everything before it in its stream: the chunk's
// records are all released. It is applied when, in addition, the chunks
// holding the sends of its receives are applied — or are released too and
// applied with it (chunks of ranks exchanging messages often need each other),
// so that no snapshot shows a receive without its send.
#include "server/live/live_trace.h"

#include <algorithm>
#include <set>

#include "base/strings.h"
#include "server/live/live_snapshot.h"

namespace plx::server::live {

using Kind = time::RunEvent::Kind;

LiveTrace::LiveTrace(LiveOptions options)
    : options_(std::move(options)),
      run_(options_.max_buffered),
      window_(static_cast<int64_t>(std::min(options_.window_seconds * 1e9, 0x1p61)),
              options_.window_bytes) {}

void LiveTrace::SetLog(std::function<void(const std::string&)> log) {
  std::lock_guard lock(mu_);
  log_ = std::move(log);
}

void LiveTrace::Log(const std::string& line) const {
  // Lines carry what peers sent (host, executable, their bad fields), which
  // goes to a terminal: a newline or an escape sequence must not act there.
  if (log_) log_(EscapeControl(line));
}

uint32_t LiveTrace::Connect(const std::string& peer) {
  std::lock_guard lock(mu_);
  connections_.emplace_back();
  connections_.back().peer = peer;
  return static_cast<uint32_t>(connections_.size() - 1);
}

std::string LiveTrace::DescribeLocked(uint32_t id) const {
  if (id >= connections_.size()) return StrFormat("live: connection %u", id);
  const Connection& c = connections_[id];
  if (!c.hello) return StrFormat("live: connection %u (%s)", id, c.peer.c_str());
  return StrFormat("live: connection %u (pid %lld, %s)", id, static_cast<long long>(c.pid),
                   c.host.c_str());
}

std::string LiveTrace::Describe(uint32_t connection) const {
  std::lock_guard lock(mu_);
  return DescribeLocked(connection);
}

void LiveTrace::Hello(uint32_t id, const live::Hello& hello) {
  std::lock_guard lock(mu_);
  Connection& c = connections_.at(id);
  c.hello = true;
  c.pid = hello.pid;
  c.host = hello.host.substr(0, 256);
  Log(DescribeLocked(id) + ": connected (" + hello.executable.substr(0, 256) + ")");
}

void LiveTrace::AddChunk(uint32_t id, const CheckedChunk& chunk, std::vector<uint8_t> bytes,
                         const std::vector<MessageEvent>& messages, int64_t rank) {
  auto shared = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  Connection& c = connections_.at(id);
  c.rank = rank;
  c.has_chunks = true;
  if (chunk.header.type == format::ChunkType::kDefs) {
    window_.AddDefs(id, std::move(shared));
    ++applied_version_;  // new names show in the next snapshot
    return;
  }
  const uint32_t records = chunk.header.record_count;
  c.received += records;
  c.missing += chunk.missing;
  received_ += records;
  missing_ += chunk.missing;
  last_record_ = now;

  auto [it, fresh] =
      c.run_streams.try_emplace(chunk.header.stream, static_cast<uint32_t>(run_seq_.size()));
  if (fresh) run_seq_.push_back(0);
  const uint32_t stream = it->second;
  const uint64_t slot = next_slot_++;
  pending_.emplace(
      slot,
      Pending{id, chunk.header, shared, chunk.begin_ns, chunk.end_ns, now, chunk.tally, false, {}});
  pending_bytes_ += shared->size();
  for (const MessageEvent& m : messages)
    run_.Push({stream, run_seq_[stream]++, m.send ? Kind::kSend : Kind::kReceive, m.key, slot},
              &released_);
  run_.Push({stream, run_seq_[stream]++, Kind::kLocal, 0, slot}, &released_);
  if (pending_bytes_ > options_.max_pending_bytes) run_.Flush(&released_);
  HandleReleased();
}

void LiveTrace::HandleReleased() {
  if (released_.empty()) return;
  last_release_ = Clock::now();
  for (const time::ReleasedEvent& r : released_) {
    const uint64_t slot = r.event.payload;
    switch (r.event.kind) {
      case Kind::kSend:
        forced_ += r.forced ? 1 : 0;
        send_slot_[r.event.key] = slot;
        break;
      case Kind::kReceive: {
        forced_ += r.forced ? 1 : 0;
        const auto s = send_slot_.find(r.event.key);
        if (s == send_slot_.end()) break;  // forced before its send
        const auto need = pending_.find(s->second);
        if (s->second != slot && need != pending_.end())
          pending_.at(slot).needs.push_back(s->second);
        send_slot_.erase(s);
        break;
      }
      case Kind::kLocal: {
        const auto it = pending_.find(slot);
        if (it == pending_.end()) break;
        it->second.released = true;
        held_.push_back(slot);
        break;
      }
    }
  }
  released_.clear();
  ApplyHeld();
}

void LiveTrace::ApplyHeld() {
  if (held_.empty()) return;
  // The largest set of held chunks each of whose needs is applied or in the
  // set: start with all, drop those needing a chunk not yet released, repeat.
  std::vector<uint64_t> ok = held_, dropped;
  for (bool changed = true; changed;) {
    changed = false;
    std::erase_if(ok, [&](uint64_t slot) {
      for (uint64_t need : pending_.at(slot).needs) {
        const auto n = pending_.find(need);
        if (n == pending_.end()) continue;  // applied
        if (!n->second.released ||
            std::find(dropped.begin(), dropped.end(), need) != dropped.end()) {
          dropped.push_back(slot);
          changed = true;
          return true;
        }
      }
      return false;
    });
  }
  if (ok.empty()) return;
  ++batch_;
  for (uint64_t slot : ok)
    Apply(slot);
  held_ = std::move(dropped);
}

void LiveTrace::Apply(uint64_t slot) {
  const auto it = pending_.find(slot);
  Pending& p = it->second;
  applied_ += p.header.record_count;
  pending_bytes_ -= p.bytes->size();
  newest_applied_arrival_ = std::max(newest_applied_arrival_, p.arrival);
  if (observer_) observer_(p.connection, connections_[p.connection].rank, p.header, batch_);
  window_.AddEvents(p.connection, p.header, std::move(p.bytes), p.begin_ns, p.end_ns,
                    std::move(p.tally));
  pending_.erase(it);
  ++applied_version_;
}

void LiveTrace::End(uint32_t id, const live::End& end) {
  std::lock_guard lock(mu_);
  Connection& c = connections_.at(id);
  c.ending = end.finished ? Ending::kFinished : Ending::kCrashed;
  // A chunk left out at the end of a stream shows only in END's count.
  if (end.dropped_chunks > 0 && end.records > c.received + c.missing) {
    const uint64_t more = end.records - c.received - c.missing;
    c.missing += more;
    missing_ += more;
  }
  Log(DescribeLocked(id) +
      (end.finished ? ": finished"
                    : StrFormat(": crashed (signal %lld)", static_cast<long long>(end.signal))));
}

void LiveTrace::BadInput(uint32_t id, const std::string& what) {
  std::lock_guard lock(mu_);
  ++bad_;
  last_bad_ = DescribeLocked(id) + ": " + what;
  if (id < connections_.size() && connections_[id].ending == Ending::kNone)
    connections_[id].ending = Ending::kBad;
  Log(last_bad_);
}

void LiveTrace::Refused(const std::string& peer, const std::string& what) {
  std::lock_guard lock(mu_);
  ++bad_;
  last_bad_ = "live: " + peer + ": " + what;
  const Clock::time_point now = Clock::now();
  if (now - last_refused_log_ < std::chrono::seconds(1)) {
    ++refused_unlogged_;
    return;
  }
  last_refused_log_ = now;
  if (refused_unlogged_ > 0)
    Log(StrFormat("live: %llu more peers refused before this one",
                  static_cast<unsigned long long>(refused_unlogged_)));
  refused_unlogged_ = 0;
  Log(last_bad_);
}

void LiveTrace::Disconnect(uint32_t id) {
  std::lock_guard lock(mu_);
  Connection& c = connections_.at(id);
  if (!c.open) return;
  c.open = false;
  if (c.hello && c.ending == Ending::kNone) {
    c.ending = Ending::kNoEnd;
    Log(DescribeLocked(id) + ": closed without END (abnormal end)");
  }
}

void LiveTrace::FlushIfStalled(Clock::time_point now) {
  std::lock_guard lock(mu_);
  if (run_.buffered() == 0) return;
  const bool anyone_open =
      std::any_of(connections_.begin(), connections_.end(), [](const auto& c) { return c.open; });
  if (anyone_open && now - last_release_ < options_.stall) return;
  run_.Flush(&released_);
  HandleReleased();
}

bool LiveTrace::Changed(uint64_t version) const {
  std::lock_guard lock(mu_);
  return applied_version_ != version;
}

SnapshotWork LiveTrace::TakeSnapshotWork() const {
  SnapshotWork w;
  std::lock_guard lock(mu_);
  window_.Collect(&w.input);
  w.dropped = window_.dropped();
  w.newest_arrival = newest_applied_arrival_;
  w.applied_version = applied_version_;
  // As `parallax merge` numbers part files: by MPI rank when every process
  // has a distinct one, else in order of arrival.
  std::set<int64_t> ranks;
  size_t with_chunks = 0;
  for (const Connection& c : connections_) {
    if (!c.has_chunks) continue;
    ++with_chunks;
    if (c.rank >= 0 && c.rank <= INT64_C(0xfffffffe)) ranks.insert(c.rank);
  }
  const bool by_rank = ranks.size() == with_chunks;
  w.process_of.assign(connections_.size(), kNoProcess);
  uint32_t next = 0;
  for (size_t i = 0; i < connections_.size(); ++i) {
    const Connection& c = connections_[i];
    if (!c.has_chunks) continue;
    w.process_of[i] = by_rank ? static_cast<uint32_t>(c.rank) : next++;
  }
  return w;
}

bool LiveTrace::Quiet(Clock::time_point now) const {
  std::lock_guard lock(mu_);
  const bool anyone_open =
      std::any_of(connections_.begin(), connections_.end(), [](const auto& c) { return c.open; });
  return anyone_open && now - last_record_ > std::chrono::seconds(1);
}

LiveStatus LiveTrace::Status(Clock::time_point now, bool deadlock_found) const {
  LiveStatus s;
  std::lock_guard lock(mu_);
  bool crashed = false, any_finished = false;
  for (const Connection& c : connections_) {
    if (!c.hello) continue;
    ++s.processes;
    s.connections += c.open ? 1 : 0;
    crashed |= c.ending == Ending::kCrashed || c.ending == Ending::kNoEnd;
    any_finished |= c.ending == Ending::kFinished;
  }
  if (s.processes == 0) {
    s.program = "waiting";
  } else if (crashed) {
    s.program = "crashed";
  } else if (s.connections > 0) {
    const bool quiet = now - last_record_ > std::chrono::seconds(1);
    s.program = deadlock_found && quiet ? "deadlocked" : "running";
  } else {
    s.program = any_finished ? "finished" : "crashed";
  }
  s.received = received_;
  s.applied = applied_;
  s.forced = forced_;
  s.missing = missing_;
  s.dropped = window_.dropped_records();
  s.window_from =
      static_cast<double>(std::max<int64_t>(0, window_.oldest_kept_ns() - window_.first_ns()));
  s.bad_input = bad_;
  s.last_bad_input = last_bad_;
  return s;
}

void LiveTrace::SetApplyObserver(ApplyObserver observer) {
  std::lock_guard lock(mu_);
  observer_ = std::move(observer);
}

uint64_t LiveTrace::KeptBytes() const {
  std::lock_guard lock(mu_);
  return window_.kept_bytes();
}

uint64_t LiveTrace::PendingBytes() const {
  std::lock_guard lock(mu_);
  return pending_bytes_;
}

std::map<uint32_t, uint64_t> LiveTrace::DroppedByConnection() const {
  std::lock_guard lock(mu_);
  return window_.dropped_by_connection();
}

time::ConsistentRunStats LiveTrace::RunStats() const {
  std::lock_guard lock(mu_);
  return run_.stats();
}

}  // namespace plx::server::live
