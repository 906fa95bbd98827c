// HistoryWindow: a set of kept EVENTS chunks ordered by their last record, so
// that both bounds (trace time and bytes) drop the oldest first.
#include "server/live/live_window.h"

#include <algorithm>

namespace plx::server::live {

void HistoryWindow::AddDefs(uint32_t connection, ChunkBytes bytes) {
  defs_[connection].push_back(std::move(bytes));
}

void HistoryWindow::AddEvents(uint32_t connection, const format::ChunkHeader& header,
                              ChunkBytes bytes, int64_t begin_ns, int64_t end_ns,
                              ChunkTally tally) {
  StreamState& s = streams_[{connection, header.stream}];
  if (!s.seen) s.first_tick = header.tick_begin;
  s.seen = true;
  if (!any_ || begin_ns < first_ns_) first_ns_ = begin_ns;
  if (!any_ || end_ns > newest_ns_) newest_ns_ = end_ns;
  any_ = true;
  kept_bytes_ += bytes->size();
  kept_.insert({end_ns, seq_++, connection, header, begin_ns, std::move(bytes), std::move(tally)});
  Trim();
}

void HistoryWindow::Trim() {
  // Drops come in batches of an eighth of the window, so that the snapshots
  // between them only add chunks at the end, which the load cache
  // (model/load_cache.h) decodes alone; a drop makes it decode all again.
  const int64_t cutoff = newest_ns_ - window_ns_;
  const uint64_t bytes_goal = window_bytes_ - window_bytes_ / 8;
  if (kept_.empty() ||
      (kept_.begin()->end_ns >= cutoff - window_ns_ / 8 && kept_bytes_ <= window_bytes_))
    return;
  while (!kept_.empty() &&
         (kept_.begin()->end_ns < cutoff || (kept_bytes_ > bytes_goal && kept_.size() > 1))) {
    const Kept& k = *kept_.begin();
    StreamState& s = streams_[{k.connection, k.header.stream}];
    s.dropped = true;
    s.dropped_end = std::max(s.dropped_end, k.header.first_index + k.header.record_count);
    dropped_.Add(k.tally, k.header.record_count);
    dropped_by_[k.connection] += k.header.record_count;
    kept_bytes_ -= k.bytes->size();
    kept_.erase(kept_.begin());
  }
}

int64_t HistoryWindow::oldest_kept_ns() const {
  if (dropped_.records == 0) return first_ns_;
  int64_t oldest = newest_ns_;
  for (const Kept& k : kept_)
    oldest = std::min(oldest, k.begin_ns);
  return oldest;
}

void HistoryWindow::Collect(SnapshotInput* out) const {
  for (const auto& [connection, list] : defs_)
    for (const ChunkBytes& b : list)
      out->defs.push_back({connection, b});
  // The first kept record index of each stream with a dropped head.
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> first_kept;
  for (const Kept& k : kept_) {
    out->events.push_back({k.connection, k.bytes});
    const auto key = std::make_pair(k.connection, k.header.stream);
    const auto s = streams_.find(key);
    if (s == streams_.end() || !s->second.dropped) continue;
    auto [it, fresh] = first_kept.try_emplace(key, k.header.first_index);
    if (!fresh) it->second = std::min(it->second, k.header.first_index);
  }
  for (const auto& [key, s] : streams_) {
    if (!s.dropped) continue;
    const auto it = first_kept.find(key);
    const uint64_t next = it != first_kept.end() ? it->second : s.dropped_end;
    if (next == 0) continue;  // nothing before it to stand for
    out->anchors.push_back({key.first, key.second, s.first_tick, next - 1});
  }
}

}  // namespace plx::server::live
