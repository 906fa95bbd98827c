// TimeMapper: the rules of time::ApplyTimeMaps (MoveSlices, Column), with
// the state they keep between rows carried between chunks.
#include "store/time_mapper.h"

#include <algorithm>
#include <cstdlib>

#include "model/tables.h"

namespace plx::store {

int64_t TimeMapper::Move(int64_t t, size_t* hint, time::TimeMapStats* stats) const {
  const int64_t u = map_->Apply(t, hint);
  if (u != t) {
    ++stats->events_moved;
    stats->max_shift_ns = std::max(stats->max_shift_ns, std::abs(u - t));
  }
  return u;
}

// The chunk's own long slices, as they are now, for LongSlices().
void TimeMapper::KeepLong(const ChunkRows& rows, const model::SliceTable& s, size_t n) {
  for (size_t r = carried_; r < n; ++r)
    if (own_long_[r - carried_]) {
      const uint64_t global = rows.slice_row(r);
      long_index_[global] = long_.size();
      model::ZipColumns(long_.columns(), s.columns(),
                        [r](auto& to, const auto& from) { to.push_back(from[r]); });
      long_rows_.push_back(global);
    }
}

void TimeMapper::Map(const ChunkRows& rows, model::Trace* tables, time::TimeMapStats* stats) {
  model::SliceTable& s = tables->slices;
  carried_ = rows.carried;
  const size_t n = s.size();
  own_long_.assign(n - carried_, 0);
  // Own slices still open at the chunk's end are long slices: the decoder
  // gave them their final end (and self time before repair).
  const ThreadSkeleton* skeleton = rows.skeleton;
  if (skeleton != nullptr) {
    const uint64_t first = skeleton->chunks[rows.chunk].rows.slices();
    const uint64_t last = first + (n - carried_);
    auto it = std::lower_bound(skeleton->long_slices.begin(), skeleton->long_slices.end(), first,
                               [](const LongSlice& l, uint64_t r) { return l.row < r; });
    for (; it != skeleton->long_slices.end() && it->row < last; ++it)
      own_long_[it->row - first] = 1;
  }
  if (map_->anchors.empty()) {
    // The identity: nothing moves, but long slices still wait for the end.
    KeepLong(rows, s, n);
    return;
  }

  // Slices: begins kept in order, ends not before begins; each own slice's
  // change of duration.
  std::vector<int64_t> change(n - carried_);
  size_t begin_hint = time::ThreadTimeMap::kBeforeFirst, end_hint = begin_hint;
  for (size_t r = carried_; r < n; ++r) {
    const int64_t old_duration = s.end[r] - s.begin[r];
    int64_t begin = Move(s.begin[r], &begin_hint, stats);
    if (has_last_[0]) begin = std::max(begin, last_[0]);
    const int64_t end = std::max(begin, Move(s.end[r], &end_hint, stats));
    s.begin[r] = begin;
    s.end[r] = end;
    last_[0] = begin;
    has_last_[0] = true;
    change[r - carried_] = (end - begin) - old_duration;
    stats->max_duration_change_ns =
        std::max(stats->max_duration_change_ns, std::abs(change[r - carried_]));
    if (old_duration >= 1000)
      stats->max_relative_change =
          std::max(stats->max_relative_change, static_cast<double>(std::abs(change[r - carried_])) /
                                                   static_cast<double>(old_duration));
  }
  // Self times: a slice's own change, less each direct child's; the parent
  // of a slice at depth d is the latest slice at depth d - 1.
  const uint64_t base = rows.first.slices();
  for (size_t r = carried_; r < n; ++r) {
    const uint16_t depth = s.depth[r];
    s.self_ns[r] += change[r - carried_];
    if (depth > 0 && depth <= open_.size()) {
      const uint64_t parent = open_[depth - 1];
      if (parent >= base) {
        s.self_ns[carried_ + (parent - base)] -= change[r - carried_];
      } else {
        const auto it = long_index_.find(parent);
        if (it != long_index_.end()) long_.self_ns[it->second] -= change[r - carried_];
      }
    }
    open_.resize(depth);
    open_.push_back(rows.slice_row(r));
  }
  KeepLong(rows, s, n);

  // Every other time column, kept in order with the row before it.
  const auto column = [&](std::vector<int64_t>& times, size_t i) {
    size_t hint = time::ThreadTimeMap::kBeforeFirst;
    for (int64_t& x : times) {
      int64_t u = Move(x, &hint, stats);
      if (has_last_[i]) u = std::max(u, last_[i]);
      x = u;
      last_[i] = u;
      has_last_[i] = true;
    }
  };
  column(tables->instants.time, kInstants);
  column(tables->messages.time, kMessages);
  column(tables->counter_samples.time, kCounterSamples);
  column(tables->rma.time, kRma);
  column(tables->controls.time, kControls);
  column(tables->collectives.time, kCollectives);
  column(tables->recv_posts.time, kRecvPosts);
}

bool TimeMapper::IsLong(size_t r) const {
  return r >= carried_ && r - carried_ < own_long_.size() && own_long_[r - carried_] != 0;
}

const model::SliceTable& TimeMapper::LongSlices(std::vector<uint64_t>* rows) {
  *rows = long_rows_;
  return long_;
}

}  // namespace plx::store
