// StoreTimeline::Analyses: the report's passes over the file on the repaired
// times the timeline already holds (the repair is not run again), then the
// messages' pass for the communication matrix, and the RMA records' pass
// only when the trace has RMA records; kept in the trace's index, so the
// next start reads them instead.
#include <utility>

#include "server/timeline/store_timeline.h"
#include "store/stream_messages.h"
#include "store/stream_report.h"

namespace plx::server {

const StoreAnalyses& StoreTimeline::Analyses(const std::function<void(std::string_view)>& step) {
  std::call_once(analyses_once_, [&] {
    const auto begin = [&](std::string_view name) {
      if (step) step(name);
    };
    store::AnalysesOptions options;
    options.longest_waits = kLongestWaits;
    if (repair_options_) {
      analyses_.key = {*repair_options_, options.longest_waits, options.anomalies};
      if (std::optional<store::IndexedAnalyses> kept = store_->FindAnalyses(analyses_.key)) {
        analyses_ = std::move(*kept);
        analyses_.repair.repairs = repair_.repairs;  // not kept twice (below)
        analyses_reused_ = true;
        analyses_ready_.store(true, std::memory_order_release);
        return;
      }
    }
    store::StreamedReport r = store::StreamAnalyses(*store_, repair_, maps_, options, step);
    analyses_.repair = std::move(r.repair);
    analyses_.waits = std::move(r.waits);
    analyses_.deadlocks = std::move(r.deadlocks);
    analyses_.path = std::move(r.path);
    analyses_.anomalies = std::move(r.anomalies);
    analyses_.imbalance = analysis::ComputeImbalance(defs_, r.stats);

    const uint64_t* rows = store_->totals().table;
    if (rows[store::kMessages] > 0) {
      begin("communication matrix");
      analyses_.matrix = store::StreamMessages(*store_, {}, &maps_).matrix;
    } else {
      analyses_.matrix = analysis::CommMatrixBuilder(defs_.processes.size()).Finish();
    }
    if (rows[store::kRma] > 0) {
      begin("RMA matrix");
      analyses_.rma = store::StreamRmaMatrix(*store_);
    } else {
      analyses_.rma = analysis::RmaMatrixBuilder(defs_).matrix();
    }
    if (repair_options_) {
      // The repaired events are the repair's, which the index holds already
      // (tens of MB at 10^9 events): kept without them.
      std::vector<time::Repair> repairs = std::move(analyses_.repair.repairs);
      analyses_.repair.repairs.clear();
      store_->KeepAnalyses(&analyses_);
      analyses_.repair.repairs = std::move(repairs);
    }
    analyses_ready_.store(true, std::memory_order_release);
  });
  return analyses_;
}

}  // namespace plx::server
