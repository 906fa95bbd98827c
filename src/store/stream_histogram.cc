// One visitor per worker counts the state's slices of its chunks (on
// repaired times the long slices once, at their thread's end, as the
// statistics count them); the counts add up.
#include "store/stream_histogram.h"

#include "store/thread_pass.h"

namespace plx::store {

namespace {

class HistogramVisitor : public ChunkVisitor {
 public:
  HistogramVisitor(const analysis::DurationBins& bins, uint32_t state)
      : bins_(bins), state_(state), counts_(bins.edges().size() - 1, 0) {}
  void Chunk(const ChunkRows& rows, const TimeMapper* mapper) override {
    const model::SliceTable& s = rows.tables->slices;
    for (size_t r = rows.carried; r < s.size(); ++r)
      if (s.state[r] == state_ && (mapper == nullptr || !mapper->IsLong(r)))
        ++counts_[bins_.Bin(s.end[r] - s.begin[r])];
  }
  void LongSlices(uint32_t, const model::SliceTable& s, const std::vector<uint64_t>&) override {
    for (size_t r = 0; r < s.size(); ++r)
      if (s.state[r] == state_) ++counts_[bins_.Bin(s.end[r] - s.begin[r])];
  }
  const std::vector<uint64_t>& counts() const { return counts_; }

 private:
  const analysis::DurationBins& bins_;
  uint32_t state_;
  std::vector<uint64_t> counts_;
};

}  // namespace

analysis::Histogram StreamDurationHistogram(const TraceStore& store,
                                            const std::vector<time::ThreadTimeMap>* maps,
                                            uint32_t state, const analysis::StateStats* row,
                                            size_t bins, bool logarithmic) {
  analysis::Histogram h;
  h.counts.assign(bins, 0);
  if (row != nullptr && row->count > 0) {
    h.total = row->count;
    h.min_ns = row->min_ns;
    h.max_ns = row->max_ns;
  }
  const analysis::DurationBins binner(h.min_ns, h.max_ns, bins, logarithmic);
  h.edges = binner.edges();
  if (h.total == 0) return h;
  std::vector<HistogramVisitor> visitors = RunThreadPass<HistogramVisitor>(
      store, [&] { return HistogramVisitor(binner, state); }, WithProgress({}, maps));
  for (const HistogramVisitor& v : visitors)
    for (size_t b = 0; b < bins; ++b)
      h.counts[b] += v.counts()[b];
  return h;
}

}  // namespace plx::store
