// HistoryWindow: the applied chunks a live trace keeps — every DEFS chunk, and
// the EVENTS chunks within `window_ns` of the newest record and `window_bytes`
// in all; older ones are dropped, counted per connection, and their tallies
// summed (per state, live_tally.h). Drops come in batches: once the oldest
// chunk ends more than window_ns + window_ns/8 before the newest record, or
// the chunks exceed window_bytes, it drops down to window_ns and to
// 7/8 window_bytes. A stream whose
// first chunks were dropped keeps an anchor (its first record's tick) so the
// snapshot's trace time still starts where the run started.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "format/layout.h"
#include "server/api/live_tally.h"

namespace plx::server::live {

using ChunkBytes = std::shared_ptr<const std::vector<uint8_t>>;  // a CHUNK frame's payload

/// What a snapshot is built from (live_snapshot.h).
struct SnapshotInput {
  struct Chunk {
    uint32_t connection = 0;
    ChunkBytes bytes;
  };
  struct Anchor {
    uint32_t connection = 0;
    uint32_t stream = 0;
    uint64_t tick = 0;   // the stream's first record
    uint64_t index = 0;  // record index the anchor takes: just before the first kept one
  };
  std::vector<Chunk> defs;    // per connection in arrival order
  std::vector<Chunk> events;  // kept EVENTS chunks
  std::vector<Anchor> anchors;
};

class HistoryWindow {
 public:
  HistoryWindow(int64_t window_ns, uint64_t window_bytes)
      : window_ns_(window_ns), window_bytes_(window_bytes) {}

  void AddDefs(uint32_t connection, ChunkBytes bytes);
  /// An applied EVENTS chunk; then drops what left the window.
  void AddEvents(uint32_t connection, const format::ChunkHeader& header, ChunkBytes bytes,
                 int64_t begin_ns, int64_t end_ns, ChunkTally tally = {});
  /// Appends the kept chunks and anchors to `out`.
  void Collect(SnapshotInput* out) const;

  uint64_t kept_bytes() const { return kept_bytes_; }
  uint64_t kept_chunks() const { return kept_.size(); }
  uint64_t dropped_records() const { return dropped_.records; }
  /// What was dropped, summed: slices that ended in dropped chunks, messages.
  const WindowDropped& dropped() const { return dropped_; }
  /// Records dropped per connection.
  const std::map<uint32_t, uint64_t>& dropped_by_connection() const { return dropped_by_; }
  /// The earliest record ever applied and the oldest still kept (ns of the
  /// connections' clocks; equal while nothing was dropped).
  int64_t first_ns() const { return first_ns_; }
  int64_t oldest_kept_ns() const;
  int64_t newest_ns() const { return newest_ns_; }

 private:
  struct Kept {
    int64_t end_ns;
    uint64_t seq;
    uint32_t connection;
    format::ChunkHeader header;
    int64_t begin_ns;
    ChunkBytes bytes;
    ChunkTally tally;
    bool operator<(const Kept& o) const {
      return end_ns != o.end_ns ? end_ns < o.end_ns : seq < o.seq;
    }
  };
  struct StreamState {
    bool seen = false;
    uint64_t first_tick = 0;   // of its first applied record
    bool dropped = false;      // its head is gone: needs an anchor
    uint64_t dropped_end = 0;  // record index after the last dropped chunk
  };
  void Trim();

  int64_t window_ns_;
  uint64_t window_bytes_;
  std::map<uint32_t, std::vector<ChunkBytes>> defs_;
  std::set<Kept> kept_;  // oldest end first
  std::map<std::pair<uint32_t, uint32_t>, StreamState> streams_;
  uint64_t seq_ = 0;
  uint64_t kept_bytes_ = 0;
  WindowDropped dropped_;
  std::map<uint32_t, uint64_t> dropped_by_;
  bool any_ = false;
  int64_t first_ns_ = 0;
  int64_t newest_ns_ = 0;
};

}  // namespace plx::server::live
