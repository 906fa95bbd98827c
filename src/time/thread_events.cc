// BuildThreadEvents: per thread, the slices walked with a stack of open ones
// (a begin first closes the open slices at or below its depth), then the
// thread's records merged in by time.
#include "time/thread_events.h"

#include <algorithm>

namespace plx::time {

namespace {

using Type = ThreadEvents::Type;

// Rows of a table that are sorted by (thread, time): thread t's rows.
std::vector<uint32_t> RowStarts(const std::vector<uint32_t>& thread, size_t threads) {
  std::vector<uint32_t> first(threads + 1, 0);
  for (uint32_t t : thread)
    if (t < threads) ++first[t + 1];
  for (size_t i = 1; i < first.size(); ++i)
    first[i] += first[i - 1];
  return first;
}

}  // namespace

ThreadEvents BuildThreadEvents(const model::Trace& trace) {
  const size_t threads = trace.threads.size();
  const model::SliceTable& s = trace.slices;
  const auto slice_first = RowStarts(s.thread, threads);
  const auto message_first = RowStarts(trace.messages.thread, threads);
  const auto collective_first = RowStarts(trace.collectives.thread, threads);
  ThreadEvents ev;
  const size_t total = 2 * s.size() + trace.messages.size() + trace.collectives.size();
  ev.type.reserve(total);
  ev.row.reserve(total);
  ev.time.reserve(total);
  ev.first.reserve(threads + 1);
  ev.first.push_back(0);
  struct Item {
    Type type;
    uint32_t row;
    int64_t time;
  };
  std::vector<Item> slices, records, merged;
  std::vector<uint32_t> rows, open;
  for (uint32_t t = 0; t < threads; ++t) {
    // Slice begins and ends, properly nested: a slice's begin closes the open
    // slices at or below its depth first.
    rows.clear();
    for (uint32_t r = slice_first[t]; r < slice_first[t + 1]; ++r)
      rows.push_back(r);
    // Usually in that order already: sorting is for damaged or imported
    // traces.
    const auto slice_less = [&](uint32_t a, uint32_t b) {
      return s.begin[a] != s.begin[b] ? s.begin[a] < s.begin[b] : s.depth[a] < s.depth[b];
    };
    if (!std::is_sorted(rows.begin(), rows.end(), slice_less))
      std::stable_sort(rows.begin(), rows.end(), slice_less);
    slices.clear();
    open.clear();
    for (uint32_t r : rows) {
      while (open.size() > s.depth[r]) {
        slices.push_back({Type::kSliceEnd, open.back(), s.end[open.back()]});
        open.pop_back();
      }
      slices.push_back({Type::kSliceBegin, r, s.begin[r]});
      open.push_back(r);
    }
    while (!open.empty()) {
      slices.push_back({Type::kSliceEnd, open.back(), s.end[open.back()]});
      open.pop_back();
    }
    // Messages and collectives by time (both tables are sorted by time).
    const auto by_time = [](const Item& a, const Item& b) { return a.time < b.time; };
    records.clear();
    for (uint32_t r = message_first[t]; r < message_first[t + 1]; ++r)
      records.push_back({Type::kMessage, r, trace.messages.time[r]});
    const auto collectives = static_cast<ptrdiff_t>(records.size());
    for (uint32_t r = collective_first[t]; r < collective_first[t + 1]; ++r)
      records.push_back({Type::kCollective, r, trace.collectives.time[r]});
    if (std::is_sorted(records.begin(), records.begin() + collectives, by_time) &&
        std::is_sorted(records.begin() + collectives, records.end(), by_time))
      std::inplace_merge(records.begin(), records.begin() + collectives, records.end(), by_time);
    else
      std::stable_sort(records.begin(), records.end(), by_time);
    // A record goes after slice begins at its time and before slice ends.
    merged.clear();
    size_t i = 0;
    for (const Item& r : records) {
      while (i < slices.size() &&
             (slices[i].time < r.time ||
              (slices[i].time == r.time && slices[i].type == Type::kSliceBegin)))
        merged.push_back(slices[i++]);
      merged.push_back(r);
    }
    merged.insert(merged.end(), slices.begin() + static_cast<ptrdiff_t>(i), slices.end());
    // Damaged nesting could leave times out of order; At() needs them sorted.
    if (!std::is_sorted(merged.begin(), merged.end(), by_time))
      std::stable_sort(merged.begin(), merged.end(), by_time);
    for (const Item& m : merged) {
      ev.type.push_back(m.type);
      ev.row.push_back(m.row);
      ev.time.push_back(m.time);
    }
    ev.first.push_back(static_cast<uint32_t>(ev.row.size()));
  }
  return ev;
}

}  // namespace plx::time
