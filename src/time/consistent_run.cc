// ConsistentRun: per stream a map of waiting events by sequence number; a
// stream's head goes out when it is next in sequence and, for a receive, its
// send is out. Sends wake the stream blocked on their key. The oldest waiting
// event (by arrival, a queue with lazily skipped entries) is forced when the
// bound is passed.
#include "time/consistent_run.h"

#include <algorithm>

namespace plx::time {

using Kind = RunEvent::Kind;

void ConsistentRun::Release(const Waiting& w, bool forced, std::vector<ReleasedEvent>* out) {
  const RunEvent& e = w.event;
  const uint64_t lag = stats_.pushed - 1 - w.arrival;
  out->push_back({e, forced, lag});
  ++stats_.released;
  stats_.forced += forced ? 1 : 0;
  stats_.max_lag = std::max(stats_.max_lag, lag);
  if (e.kind == Kind::kSend) {
    if (received_early_.erase(e.key) == 0) sent_.insert(e.key);
    const auto it = blocked_.find(e.key);
    if (it != blocked_.end()) {
      woken_.push_back(it->second);
      blocked_.erase(it);
    }
  } else if (e.kind == Kind::kReceive) {
    if (sent_.erase(e.key) == 0) received_early_.insert(e.key);
  }
}

void ConsistentRun::Drain(uint32_t stream, std::vector<ReleasedEvent>* out) {
  woken_.push_back(stream);
  while (!woken_.empty()) {
    const uint32_t id = woken_.back();
    woken_.pop_back();
    Stream& s = streams_[id];
    for (auto it = s.waiting.begin(); it != s.waiting.end() && it->first == s.next;) {
      const RunEvent& e = it->second.event;
      if (e.kind == Kind::kReceive && !sent_.contains(e.key)) {
        blocked_[e.key] = id;
        break;
      }
      const Waiting w = it->second;
      it = s.waiting.erase(it);
      ++s.next;
      --buffered_;
      Release(w, false, out);
    }
  }
}

void ConsistentRun::ForceOldest(std::vector<ReleasedEvent>* out) {
  while (!arrivals_.empty()) {
    const Arrival a = arrivals_.front();
    arrivals_.pop_front();
    Stream& s = streams_[a.stream];
    const auto found = s.waiting.find(a.seq);
    if (found == s.waiting.end() || found->second.arrival != a.arrival) continue;  // stale
    // The stream's waiting events up to this one, in order; the gaps before
    // them count as passed (their events will come late).
    while (!s.waiting.empty() && s.waiting.begin()->first <= a.seq) {
      const Waiting w = s.waiting.begin()->second;
      s.waiting.erase(s.waiting.begin());
      --buffered_;
      if (w.event.kind == Kind::kReceive) {
        const auto b = blocked_.find(w.event.key);
        if (b != blocked_.end() && b->second == a.stream) blocked_.erase(b);
      }
      Release(w, true, out);
    }
    s.next = a.seq + 1;
    Drain(a.stream, out);
    return;
  }
}

void ConsistentRun::Push(const RunEvent& event, std::vector<ReleasedEvent>* out) {
  const uint64_t arrival = stats_.pushed++;
  Stream& s = streams_[event.stream];
  if (event.seq < s.next || s.waiting.contains(event.seq)) {
    // Its stream moved past it (forced earlier) or it is a duplicate: out now.
    ++stats_.late;
    Release({event, arrival}, true, out);
    // A late send may unblock a receive.
    while (!woken_.empty()) {
      const uint32_t id = woken_.back();
      woken_.pop_back();
      Drain(id, out);
    }
    return;
  }
  s.waiting.emplace(event.seq, Waiting{event, arrival});
  ++buffered_;
  arrivals_.push_back({arrival, event.stream, event.seq});
  Drain(event.stream, out);
  while (max_buffered_ > 0 && buffered_ > max_buffered_)
    ForceOldest(out);
  stats_.max_buffered = std::max(stats_.max_buffered, buffered_);
  // Keep the arrival queue from growing with stale entries.
  if (arrivals_.size() > 2 * buffered_ + 64) {
    std::deque<Arrival> live;
    for (const Arrival& a : arrivals_) {
      const auto& w = streams_[a.stream].waiting;
      const auto it = w.find(a.seq);
      if (it != w.end() && it->second.arrival == a.arrival) live.push_back(a);
    }
    arrivals_.swap(live);
  }
}

void ConsistentRun::Flush(std::vector<ReleasedEvent>* out) {
  while (buffered_ > 0)
    ForceOldest(out);
}

}  // namespace plx::time
