// AnomalyFinder spread over processes: every process's counts and
// histograms go to every process, which merges them in rank order into
// the same tables, so all plan alike; after the collecting pass every
// process's collected values do the same, so all judge the groups alike
// and flag their own threads' slices; process 0 gathers the anomalies.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/wire.h"
#include "store/anomaly_passes.h"

namespace plx::store {

namespace {

using namespace anomaly_passes;  // NOLINT: the passes' types

struct BucketCount {
  uint32_t bucket;
  uint64_t count;
};

struct ValueCount {
  uint32_t offset;  // from the range's first value
  uint32_t count;
};

Status Cut(size_t rank, const char* what) {
  return DataLoss(std::string("the anomaly search's ") + what + " from process " +
                  std::to_string(rank) + " are cut");
}

}  // namespace

const Status& AnomalyFinder::spread_status() const {
  return s_->spread_status;
}

void AnomalyFinder::ShareCounts(std::vector<uint64_t>* counts,
                                std::vector<LogHistogram>* histograms) {
  // Per key: state, call site, count, the histogram's buckets in use.
  std::string mine;
  WirePut(&mine, static_cast<uint64_t>(counts->size()));
  for (uint32_t key = 0; key < counts->size(); ++key) {
    WirePut(&mine, s_->keys.state(key));
    WirePut(&mine, s_->keys.callsite(key));
    WirePut(&mine, (*counts)[key]);
    std::vector<BucketCount> buckets;
    (*histograms)[key].ForEach([&](uint32_t b, uint64_t n) { buckets.push_back({b, n}); });
    WirePutAll(&mine, buckets);
  }
  const std::vector<std::string> all = s_->spread->all_gather(std::move(mine));
  s_->keys = StateCallsiteKeys(s_->t.states.size(), CallsitesFor(s_->t, s_->o));
  counts->clear();
  histograms->clear();
  std::vector<BucketCount> buckets;
  for (size_t r = 0; r < all.size(); ++r) {
    WireReader in(all[r]);
    uint64_t keys = 0;
    bool ok = in.Get(&keys);
    for (uint64_t k = 0; ok && k < keys; ++k) {
      uint32_t state = 0, callsite = 0;
      uint64_t count = 0;
      buckets.clear();
      ok = in.Get(&state) && in.Get(&callsite) && in.Get(&count) && in.GetAll(&buckets) &&
           state < s_->t.states.size();
      if (!ok) break;
      const uint32_t key = s_->keys.Id(state, callsite);
      if (key >= counts->size()) {
        counts->resize(key + 1, 0);
        histograms->resize(key + 1);
      }
      (*counts)[key] += count;
      for (const BucketCount& b : buckets)
        if (b.bucket < LogHistogram::kBuckets)
          (*histograms)[key].Add(LogHistogram::Bounds(b.bucket).first, b.count);
    }
    if (!ok && s_->spread_status.ok()) s_->spread_status = Cut(r, "counts");
  }
}

void AnomalyFinder::ShareCollected() {
  // Every judged group's ranges in order (the plans are the same
  // everywhere): a dense range's values in use, a listed range's values.
  std::vector<CollectVisitor>& collected = s_->collectors;
  const std::vector<Plan>& plans = s_->plans;
  std::string mine;
  for (size_t g = 0; g < plans.size(); ++g) {
    if (!plans[g].judged) continue;
    for (size_t i = 0; i < plans[g].ranges.size(); ++i) {
      const Range& range = plans[g].ranges[i];
      if (range.dense) {
        std::vector<ValueCount> used;
        for (uint32_t k = 0; k <= range.hi - range.lo; ++k) {
          uint32_t n = 0;
          for (const CollectVisitor& v : collected)
            n += v.values[g][i].counts[k];
          if (n > 0) used.push_back({k, n});
        }
        WirePutAll(&mine, used);
      } else {
        std::vector<int64_t> values;
        for (const CollectVisitor& v : collected)
          values.insert(values.end(), v.values[g][i].values.begin(), v.values[g][i].values.end());
        WirePutAll(&mine, values);
      }
    }
  }
  const std::vector<std::string> all = s_->spread->all_gather(std::move(mine));
  // The others' values join this process's first collector.
  std::vector<ValueCount> used;
  for (size_t r = 0; r < all.size(); ++r) {
    if (r == static_cast<size_t>(s_->spread->rank)) continue;
    WireReader in(all[r]);
    bool ok = true;
    for (size_t g = 0; ok && g < plans.size(); ++g) {
      if (!plans[g].judged) continue;
      for (size_t i = 0; ok && i < plans[g].ranges.size(); ++i) {
        const Range& range = plans[g].ranges[i];
        Collected& into = collected[0].values[g][i];
        if (!range.dense) {
          ok = in.GetAll(&into.values);
          continue;
        }
        used.clear();
        ok = in.GetAll(&used);
        for (const ValueCount& v : used)
          if (v.offset < into.counts.size()) into.counts[v.offset] += v.count;
      }
    }
    if (!ok && s_->spread_status.ok()) s_->spread_status = Cut(r, "collected durations");
  }
}

StatusOr<std::vector<analysis::Anomaly>> StreamAnomaliesSpread(
    const TraceStore& store, const AnomalyOptions& options, const AnomalySpread& spread,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  AnomalyFinder finder(store, options, &spread);
  std::vector<ChunkVisitor*> counters;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    counters.push_back(finder.Counter(w));
  ThreadPassOptions pass = WithProgress([&](uint64_t done, uint64_t total) {
    if (progress) progress(done / 2, total);
  });
  pass.only = spread.only;
  RunThreadPass(store, counters, pass);
  std::vector<analysis::Anomaly> mine = finder.Finish(nullptr, [&](uint64_t done, uint64_t total) {
    if (progress) progress(total / 2 + done / 2, total);
  });
  std::string bytes;
  WirePutAll(&bytes, mine);
  const std::vector<std::string> all = spread.gather(std::move(bytes));
  PLX_RETURN_IF_ERROR(finder.spread_status());
  std::vector<analysis::Anomaly> out;
  for (size_t r = 0; r < all.size(); ++r) {
    WireReader in(all[r]);
    if (!in.GetAll(&out) || !in.done()) return Cut(r, "anomalies");
  }
  analysis::SortAnomalies(&out);
  return out;
}

}  // namespace plx::store
