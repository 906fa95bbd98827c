#include "distributed/spread_report.h"

#include <utility>

#include "distributed/group_spread.h"
#include "distributed/spread_repair.h"

namespace plx::distributed {

StatusOr<store::StreamedReport> SpreadReport(const store::TraceStore& store, Group& group,
                                             const analysis::AnomalyOptions& anomalies,
                                             const std::function<void(std::string_view)>& step) {
  if (step) step("causal repair");
  PLX_ASSIGN_OR_RETURN(store::StreamedRepair repaired, SpreadRepair(store, group, {}));
  GroupSpread spread(store.trace(), group);
  store::AnalysesOptions options;
  options.anomalies = anomalies;
  StatusOr<store::StreamedReport> report = store::StreamAnalysesSpread(
      store, std::move(repaired.report), repaired.maps, spread, options, step);
  if (!group.AllOk(report.ok()))
    return report.ok() ? Internal("another process could not finish the report") : report.status();
  return report;
}

}  // namespace plx::distributed
