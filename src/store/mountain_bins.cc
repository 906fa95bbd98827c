// MountainBins: each thread's slices, in begin order, go through a stack
// sweep that turns them into the intervals of its innermost state (the
// in-memory concurrency profile's rule: a slice's time minus its nested
// slices'); each interval adds its ns to the bins it covers.
#include "store/mountain_bins.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace plx::store {

class InnermostSweep : public ChunkVisitor {
 public:
  explicit InnermostSweep(MountainBins* bins) : bins_(bins) {}
  void BeginThread(uint32_t) override {
    open_.clear();
    cursor_ = std::numeric_limits<int64_t>::min();
  }
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    const model::SliceTable& s = rows.tables->slices;
    for (size_t r = rows.carried; r < s.size(); ++r) {
      CloseUntil(s.begin[r]);
      if (!open_.empty() && s.begin[r] > cursor_)
        bins_->Add(open_.back().second, cursor_, s.begin[r]);
      cursor_ = std::max(cursor_, s.begin[r]);
      open_.emplace_back(s.end[r], s.state[r]);
    }
  }
  void EndThread(uint32_t) override { CloseUntil(std::numeric_limits<int64_t>::max()); }
  bool SlicesOnly() const override { return true; }

 private:
  // Ends the open slices that end by `t`, innermost first.
  void CloseUntil(int64_t t) {
    while (!open_.empty() && open_.back().first <= t) {
      const auto [end, state] = open_.back();
      open_.pop_back();
      if (end > cursor_) bins_->Add(state, cursor_, end);
      cursor_ = std::max(cursor_, end);
    }
  }

  MountainBins* bins_;
  std::vector<std::pair<int64_t, uint32_t>> open_;  // (end, state), outermost first
  int64_t cursor_ = 0;                              // time attributed so far
};

MountainBins::MountainBins(const model::Trace& defs, uint64_t bytes)
    : begin_(defs.begin_ns),
      end_(std::max(defs.end_ns, defs.begin_ns + 1)),
      states_(std::max<size_t>(defs.states.size(), 1)) {
  const uint64_t fit = std::max<uint64_t>(bytes / (8 * states_), 1);
  const uint64_t most = std::min<uint64_t>(fit, kMaxBins);
  const uint64_t span = static_cast<uint64_t>(end_ - begin_);
  while (span > most * static_cast<uint64_t>(bin_ns_))
    bin_ns_ *= 2;
  bins_ = static_cast<size_t>((span + static_cast<uint64_t>(bin_ns_) - 1) /
                              static_cast<uint64_t>(bin_ns_));
  ns_ = std::vector<std::atomic<int64_t>>(bins_ * states_);
}

std::unique_ptr<MountainBins> MountainBins::FromCounts(const model::Trace& defs,
                                                       MountainCounts counts, uint64_t bytes) {
  std::unique_ptr<MountainBins> b(new MountainBins());
  b->begin_ = defs.begin_ns;
  b->end_ = std::max(defs.end_ns, defs.begin_ns + 1);
  b->states_ = std::max<size_t>(defs.states.size(), 1);
  const uint64_t span = static_cast<uint64_t>(b->end_ - b->begin_);
  const uint64_t width = counts.bin_ns > 0 ? static_cast<uint64_t>(counts.bin_ns) : 0;
  if (width == 0 || counts.states != b->states_ || counts.bins == 0 || counts.bins > kMaxBins ||
      counts.bins != (span + width - 1) / width || counts.ns.size() != counts.bins * b->states_ ||
      counts.ns.size() * 8 > std::max<uint64_t>(bytes, 8 * b->states_))
    return nullptr;
  b->bin_ns_ = counts.bin_ns;
  b->bins_ = static_cast<size_t>(counts.bins);
  b->ns_ = std::vector<std::atomic<int64_t>>(counts.ns.size());
  for (size_t i = 0; i < counts.ns.size(); ++i)
    b->ns_[i].store(counts.ns[i], std::memory_order_relaxed);
  return b;
}

MountainCounts MountainBins::Counts() const {
  MountainCounts c;
  c.bin_ns = bin_ns_;
  c.bins = bins_;
  c.states = states_;
  c.ns.reserve(ns_.size());
  for (const std::atomic<int64_t>& v : ns_)
    c.ns.push_back(v.load(std::memory_order_relaxed));
  return c;
}

std::vector<std::unique_ptr<ChunkVisitor>> MountainBins::Visitors(size_t workers) {
  std::vector<std::unique_ptr<ChunkVisitor>> out;
  for (size_t w = 0; w < workers; ++w)
    out.push_back(std::make_unique<InnermostSweep>(this));
  return out;
}

void MountainBins::Add(uint32_t state, int64_t begin, int64_t end) {
  begin = std::max(begin, begin_);
  end = std::min(end, end_);
  if (end <= begin || state >= states_) return;
  for (int64_t t = begin; t < end;) {
    const size_t bin = static_cast<size_t>((t - begin_) / bin_ns_);
    const int64_t bin_end = std::min(end, begin_ + static_cast<int64_t>(bin + 1) * bin_ns_);
    ns_[bin * states_ + state].fetch_add(bin_end - t, std::memory_order_relaxed);
    t = bin_end;
  }
}

analysis::ConcurrencyProfile MountainBins::Profile(int64_t from_ns, int64_t to_ns,
                                                   size_t buckets) const {
  analysis::ConcurrencyProfile p;
  p.from_ns = from_ns;
  p.to_ns = to_ns;
  p.buckets = buckets;
  p.bucket_ns = static_cast<double>(to_ns - from_ns) / static_cast<double>(buckets);
  std::vector<double> sums(states_ * buckets, 0.0);
  // Each bin (clipped to the trace) spreads its ns over the buckets it
  // overlaps, in proportion to the overlap.
  const int64_t first = std::max<int64_t>(0, (from_ns - begin_) / bin_ns_);
  for (int64_t bin = first; bin < static_cast<int64_t>(bins_); ++bin) {
    const int64_t lo = begin_ + bin * bin_ns_;
    const int64_t hi = std::min(lo + bin_ns_, end_);
    if (lo >= to_ns) break;
    const double width = static_cast<double>(hi - lo);
    for (double t = static_cast<double>(std::max(lo, from_ns)); t < std::min(hi, to_ns);) {
      // The bucket that holds t (rounding may name the one before it); the
      // last one reaches to_ns.
      const auto end_of = [&](size_t k) {
        return k + 1 == buckets
                   ? static_cast<double>(to_ns)
                   : static_cast<double>(from_ns) + static_cast<double>(k + 1) * p.bucket_ns;
      };
      auto k = std::min(static_cast<size_t>((t - static_cast<double>(from_ns)) / p.bucket_ns),
                        buckets - 1);
      while (k + 1 < buckets && end_of(k) <= t)
        ++k;
      const double bucket_end = end_of(k);
      const double until =
          std::min({bucket_end, static_cast<double>(hi), static_cast<double>(to_ns)});
      const double share = (until - t) / width;
      for (size_t s = 0; s < states_; ++s) {
        const int64_t ns =
            ns_[static_cast<size_t>(bin) * states_ + s].load(std::memory_order_relaxed);
        if (ns != 0) sums[s * buckets + k] += static_cast<double>(ns) * share;
      }
      if (until <= t) break;
      t = until;
    }
  }
  for (size_t s = 0; s < states_; ++s) {
    const auto row = sums.begin() + static_cast<std::ptrdiff_t>(s * buckets);
    if (std::none_of(row, row + static_cast<std::ptrdiff_t>(buckets),
                     [](double v) { return v > 0; }))
      continue;
    p.states.push_back(static_cast<uint32_t>(s));
    for (size_t k = 0; k < buckets; ++k)
      p.threads.push_back(row[static_cast<std::ptrdiff_t>(k)] / p.bucket_ns);
  }
  return p;
}

}  // namespace plx::store
