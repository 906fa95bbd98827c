// EnclosingSlices: per thread, the slices (sorted by begin) and the records
// (sorted by time) are merged in one sweep that keeps the stack of slices open
// at the current time; the top of the stack is the innermost one.
#include "time/record_calls.h"

#include <algorithm>
#include <numeric>

#include "base/status.h"

namespace plx::time {

namespace {

// Rows of records in (thread, time) order; tables from the loader already are.
std::vector<uint32_t> RecordOrder(const std::vector<uint32_t>& thread,
                                  const std::vector<int64_t>& time) {
  std::vector<uint32_t> order(time.size());
  std::iota(order.begin(), order.end(), 0u);
  auto before = [&](uint32_t a, uint32_t b) {
    return thread[a] != thread[b] ? thread[a] < thread[b] : time[a] < time[b];
  };
  if (!std::is_sorted(order.begin(), order.end(), before))
    std::stable_sort(order.begin(), order.end(), before);
  return order;
}

}  // namespace

std::vector<uint32_t> EnclosingSlices(const model::Trace& trace,
                                      const std::vector<uint32_t>& thread,
                                      const std::vector<int64_t>& time) {
  PLX_CHECK(thread.size() == time.size());
  const model::SliceTable& s = trace.slices;
  std::vector<uint32_t> out(time.size(), model::kNone);
  const std::vector<uint32_t> order = RecordOrder(thread, time);

  std::vector<uint32_t> open;  // slices open at the sweep's time, outermost first
  size_t next_slice = 0;
  uint32_t current_thread = model::kNone;
  for (uint32_t row : order) {
    const uint32_t th = thread[row];
    const int64_t t = time[row];
    if (th != current_thread) {
      current_thread = th;
      open.clear();
      // Slices are sorted by thread: skip to this thread's first.
      next_slice = static_cast<size_t>(std::lower_bound(s.thread.begin(), s.thread.end(), th) -
                                       s.thread.begin());
    }
    // Open every slice of the thread that began by t, closing those that ended
    // before it began (they cannot contain this record or a later one).
    for (; next_slice < s.size() && s.thread[next_slice] == th && s.begin[next_slice] <= t;
         ++next_slice) {
      const auto slice = static_cast<uint32_t>(next_slice);
      while (!open.empty() && s.end[open.back()] < s.begin[slice])
        open.pop_back();
      // A parent and a child that begin at the same ns may come in either
      // order: keep the deeper one on top.
      if (!open.empty() && s.begin[open.back()] == s.begin[slice] &&
          s.depth[open.back()] > s.depth[slice]) {
        open.insert(open.end() - 1, slice);
      } else {
        open.push_back(slice);
      }
    }
    while (!open.empty() && s.end[open.back()] < t)
      open.pop_back();
    if (!open.empty()) out[row] = open.back();
  }
  return out;
}

}  // namespace plx::time
