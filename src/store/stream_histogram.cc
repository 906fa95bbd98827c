// One visitor per worker counts the state's slices of its chunks (on
// repaired times the long slices once, at their thread's end, as the
// statistics count them); the counts add up. Over an area the slices are
// taken with their chunks: their begin and end are final there, and only
// those matter.
#include "store/stream_histogram.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "store/thread_pass.h"

namespace plx::store {

namespace {

// Calls `f(duration)` for the state's slices of a chunk that `area` (when
// given) covers; on repaired times without an area, not for long slices.
template <typename F>
void EachSlice(const ChunkRows& rows, const TimeMapper* mapper, uint32_t state,
               const analysis::Selection* area, F&& f) {
  const model::SliceTable& s = rows.tables->slices;
  if (area != nullptr && !area->Has(rows.thread)) return;
  for (size_t r = rows.carried; r < s.size(); ++r) {
    if (s.state[r] != state) continue;
    if (area != nullptr) {
      if (s.begin[r] > area->to || s.end[r] < area->from) continue;
    } else if (mapper != nullptr && mapper->IsLong(r)) {
      continue;
    }
    f(s.end[r] - s.begin[r]);
  }
}

class HistogramVisitor : public ChunkVisitor {
 public:
  HistogramVisitor(const analysis::DurationBins& bins, uint32_t state,
                   const analysis::Selection* area)
      : bins_(bins), state_(state), area_(area), counts_(bins.edges().size() - 1, 0) {}
  void Chunk(const ChunkRows& rows, const TimeMapper* mapper) override {
    EachSlice(rows, mapper, state_, area_, [&](int64_t d) { ++counts_[bins_.Bin(d)]; });
  }
  void LongSlices(uint32_t, const model::SliceTable& s, const std::vector<uint64_t>&) override {
    if (area_ != nullptr) return;  // counted with their chunks
    for (size_t r = 0; r < s.size(); ++r)
      if (s.state[r] == state_) ++counts_[bins_.Bin(s.end[r] - s.begin[r])];
  }
  bool SlicesOnly() const override { return true; }
  const std::vector<uint64_t>& counts() const { return counts_; }

 private:
  const analysis::DurationBins& bins_;
  uint32_t state_;
  const analysis::Selection* area_;
  std::vector<uint64_t> counts_;
};

// The shortest and longest duration of an area's slices of the state, and
// how many there are.
class RangeVisitor : public ChunkVisitor {
 public:
  RangeVisitor(uint32_t state, const analysis::Selection* area) : state_(state), area_(area) {}
  void Chunk(const ChunkRows& rows, const TimeMapper* mapper) override {
    EachSlice(rows, mapper, state_, area_, [&](int64_t d) {
      min = std::min(min, d);
      max = std::max(max, d);
      ++count;
    });
  }
  bool SlicesOnly() const override { return true; }
  int64_t min = std::numeric_limits<int64_t>::max(), max = std::numeric_limits<int64_t>::min();
  uint64_t count = 0;

 private:
  uint32_t state_;
  const analysis::Selection* area_;
};

analysis::Histogram Count(const TraceStore& store, const ThreadPassOptions& pass, uint32_t state,
                          const analysis::Selection* area, analysis::Histogram h, size_t bins,
                          bool logarithmic) {
  h.counts.assign(bins, 0);
  const analysis::DurationBins binner(h.min_ns, h.max_ns, bins, logarithmic);
  h.edges = binner.edges();
  if (h.total == 0) return h;
  std::vector<HistogramVisitor> visitors = RunThreadPass<HistogramVisitor>(
      store, [&] { return HistogramVisitor(binner, state, area); }, pass);
  for (const HistogramVisitor& v : visitors)
    for (size_t b = 0; b < bins; ++b)
      h.counts[b] += v.counts()[b];
  return h;
}

}  // namespace

analysis::Histogram StreamDurationHistogram(const TraceStore& store,
                                            const std::vector<time::ThreadTimeMap>* maps,
                                            uint32_t state, const analysis::StateStats* row,
                                            size_t bins, bool logarithmic) {
  analysis::Histogram h;
  if (row != nullptr && row->count > 0) {
    h.total = row->count;
    h.min_ns = row->min_ns;
    h.max_ns = row->max_ns;
  }
  return Count(store, WithProgress({}, maps), state, nullptr, std::move(h), bins, logarithmic);
}

analysis::Histogram StreamDurationHistogram(const TraceStore& store,
                                            const std::vector<time::ThreadTimeMap>* maps,
                                            uint32_t state, const analysis::Selection& area,
                                            size_t bins, bool logarithmic) {
  ThreadPassOptions pass = WithProgress({}, maps);
  pass.only = [&area](uint32_t thread) { return area.Has(thread); };
  pass.until_ns = area.to;  // slices that begin after the window are not in it
  RangeVisitor range(state, &area);
  for (const RangeVisitor& v : RunThreadPass<RangeVisitor>(
           store, [&] { return RangeVisitor(state, &area); }, pass)) {
    range.count += v.count;
    range.min = std::min(range.min, v.min);
    range.max = std::max(range.max, v.max);
  }
  analysis::Histogram h;
  if (range.count > 0) {
    h.total = range.count;
    h.min_ns = range.min;
    h.max_ns = range.max;
  }
  return Count(store, pass, state, &area, std::move(h), bins, logarithmic);
}

}  // namespace plx::store
