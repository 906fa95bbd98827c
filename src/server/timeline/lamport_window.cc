// SelectLamportWindow: per row, the slices enclosing `from` (one per depth at
// most) and the records in [from, to], merged across rows in time order until
// the limit (see lamport_window.h).
#include "server/timeline/lamport_window.h"

#include <algorithm>
#include <queue>
#include <tuple>

namespace plx::server {

namespace {

using Range = ReplayIndex::Range;

// The records of `r` with time in [from, to] (the column is sorted in r).
Range Within(const std::vector<int64_t>& time, Range r, int64_t from, int64_t to) {
  const auto b = time.begin() + static_cast<ptrdiff_t>(r.begin);
  const auto e = time.begin() + static_cast<ptrdiff_t>(r.end);
  const auto lo = std::lower_bound(b, e, from);
  return {static_cast<uint64_t>(lo - time.begin()),
          static_cast<uint64_t>(std::upper_bound(lo, e, to) - time.begin())};
}

// Calls visit(record) for the records of `ranges` in (time, record) order
// until it returns false.
template <typename Visit>
void MergeInTime(const std::vector<int64_t>& time, std::vector<Range> ranges, const Visit& visit) {
  using Head = std::tuple<int64_t, uint64_t, size_t>;  // time, record, range
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
  for (size_t k = 0; k < ranges.size(); ++k)
    if (ranges[k].begin < ranges[k].end) heads.emplace(time[ranges[k].begin], ranges[k].begin, k);
  while (!heads.empty()) {
    const auto [when, record, k] = heads.top();
    heads.pop();
    if (!visit(record)) return;
    if (++ranges[k].begin < ranges[k].end) heads.emplace(time[ranges[k].begin], ranges[k].begin, k);
  }
}

// The slices of `row` beginning before `from` and ending at or after it.
void Enclosing(const ReplayIndex& index, uint32_t row, int64_t from, std::vector<uint32_t>* out) {
  const model::SliceTable& s = index.trace().slices;
  if (!index.ends_sorted(row)) {
    if (from == INT64_MIN) return;
    const Range r = Within(s.begin, index.slices(row), INT64_MIN, from - 1);
    for (uint64_t i = r.begin; i < r.end; ++i)
      if (s.end[i] >= from) out->push_back(static_cast<uint32_t>(i));
    return;
  }
  const TimelineIndex& tl = index.timeline();
  for (uint16_t d = 0; d <= tl.max_depth(row); ++d) {
    const TimelineIndex::Lane* lane = tl.lane(row, d);
    if (lane == nullptr) continue;
    uint32_t lo = 0, hi = lane->count;  // lane slices beginning before `from`
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (s.begin[tl.slice_id(*lane, mid)] < from)
        lo = mid + 1;
      else
        hi = mid;
    }
    // Ends follow begins in a lane: only the last one can reach `from`.
    if (lo > 0 && s.end[tl.slice_id(*lane, lo - 1)] >= from)
      out->push_back(tl.slice_id(*lane, lo - 1));
  }
}

}  // namespace

LamportWindow SelectLamportWindow(const ReplayIndex& index, int64_t from, int64_t to,
                                  const std::vector<uint32_t>& rows, size_t limit) {
  LamportWindow w;
  if (to < from) return w;
  std::vector<uint8_t> selected(index.rows(), rows.empty() ? 1 : 0);
  for (uint32_t r : rows)
    if (r < index.rows()) selected[r] = 1;
  const model::Trace& t = index.trace();

  // Slices: those enclosing `from` begin first; then all rows' slices
  // beginning in [from, to], merged by begin.
  std::vector<Range> ranges;
  for (uint32_t r = 0; r < index.rows(); ++r) {
    if (!selected[r]) continue;
    Enclosing(index, r, from, &w.slices);
    ranges.push_back(Within(t.slices.begin, index.slices(r), from, to));
  }
  std::sort(w.slices.begin(), w.slices.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(t.slices.begin[a], a) < std::tie(t.slices.begin[b], b);
  });
  if (w.slices.size() > limit) {
    w.slices.resize(limit);
    w.truncated = true;
  } else {
    MergeInTime(t.slices.begin, ranges, [&](uint64_t i) {
      if (w.slices.size() == limit) return !(w.truncated = true);
      w.slices.push_back(static_cast<uint32_t>(i));
      return true;
    });
  }

  // Messages: each once, from its send when that is in the range and in a
  // selected row, else from its receive.
  const model::MessageTable& m = t.messages;
  ranges.clear();
  for (uint32_t r = 0; r < index.rows(); ++r)
    if (selected[r]) ranges.push_back(Within(m.time, index.messages(r), from, to));
  auto from_send_side = [&](uint32_t send) {
    return selected[m.thread[send]] && m.time[send] >= from && m.time[send] <= to;
  };
  MergeInTime(m.time, ranges, [&](uint64_t i) {
    const uint32_t other = index.partner(static_cast<uint32_t>(i));
    if (other == model::kNone || m.thread[other] >= index.rows()) return true;
    const uint32_t send = m.is_send[i] ? static_cast<uint32_t>(i) : other;
    if (!m.is_send[i] && from_send_side(send)) return true;
    if (w.messages.size() == limit) return !(w.truncated = true);
    w.messages.push_back({send, m.is_send[i] ? other : static_cast<uint32_t>(i)});
    return true;
  });
  std::sort(w.messages.begin(), w.messages.end(),
            [&](const time::MessagePair& a, const time::MessagePair& b) {
              return std::tie(m.time[a.send], a.send) < std::tie(m.time[b.send], b.send);
            });
  return w;
}

}  // namespace plx::server
