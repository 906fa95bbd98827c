// Severity of a diagnostics finding from its cost (finding_severity.h).
#include "analysis/finding_severity.h"

#include <algorithm>

namespace plx::analysis {

const char* CostSeverity(double cost_ns, int64_t run_ns) {
  const double bar = std::max(static_cast<double>(kWarningFloorNs),
                              kWarningShareOfRun * static_cast<double>(run_ns));
  return cost_ns >= bar ? "warning" : "info";
}

}  // namespace plx::analysis
