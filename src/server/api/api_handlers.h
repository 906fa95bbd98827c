// Internal to the API: one function per endpoint, split over api.cc,
// api_timeline.cc, api_analysis.cc and the others, and the helpers they share.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/selection.h"
#include "base/status.h"
#include "model/trace.h"
#include "server/api/api.h"
#include "server/api/query_params.h"
#include "server/api/served_trace.h"

namespace plx::server::handlers {

using Json = nlohmann::ordered_json;

ApiResponse JsonResponse(const Json& body);
/// 400 for InvalidArgument, 404 for NotFound, else 500.
ApiResponse StatusResponse(const Status& status);

/// Trace time of a model time: ns since the trace's first record.
inline double TraceTime(const model::Trace& t, int64_t ns) {
  return static_cast<double>(ns - t.begin_ns);
}
/// Model time of a trace time (rounded down).
int64_t ModelTime(const model::Trace& t, double trace_time);
/// Model time of a trace time of at most 1e18 in magnitude, rounded down (up),
/// saturating at the ends of int64.
int64_t ClampedModelTime(const model::Trace& t, double trace_time, bool round_up);

/// {"file", "line", "function"}, or null for an unknown call site.
Json CallsiteJson(const model::Trace& t, uint32_t callsite);
/// The SliceRef of a slice.
Json SliceRefJson(const model::Trace& t, uint32_t slice);
/// The slices an answer names, by id: the model's rows, or (a trace served
/// from its file) those of the chunks that hold them.
class SliceRefs {
 public:
  explicit SliceRefs(ServedTrace& served);
  /// SliceRefJson of the slice (null when there is none).
  Json Ref(uint32_t slice) const;
  /// Its state's name, '?' when there is no such slice.
  std::string Name(uint32_t slice) const;

 private:
  std::shared_ptr<StoreTimeline> store_;  // when served from the file
  const model::Trace& t_;
};
/// The area of from, to and rows (api_selection.cc): nullopt when none is
/// given; InvalidArgument naming the parameter that is wrong.
StatusOr<std::optional<analysis::Selection>> SelectionParams(const model::Trace& t,
                                                             const QueryParams& q);
/// {"from", "to" (trace times), "rows" (how many threads it covers)}.
Json SelectionJson(const model::Trace& t, const analysis::Selection& s);
/// 'rank 3', the process name, or 'pid 123'.
std::string ProcessLabel(const model::Process& p);
/// The thread's name, or 'thread <tid>'; ' (tid N)' added when another
/// thread of its process reads the same, and ' #k' too when their tids are
/// equal (imported traces), so that every thread of a process reads apart.
std::string ThreadLabel(const model::Trace& t, uint32_t thread);
/// 'rank 3 / main' style: process and thread.
std::string RowLabel(const model::Trace& t, uint32_t thread);
/// '#rrggbb': the recorded colour; '' when the trace records none.
std::string StateColor(const model::State& s);

ApiResponse Summary(ServedTrace& trace);
ApiResponse Processes(ServedTrace& trace);
ApiResponse Tile(ServedTrace& trace, const QueryParams& q);
ApiResponse Rowmap(ServedTrace& trace, const QueryParams& q);
ApiResponse Details(ServedTrace& trace, const QueryParams& q);
ApiResponse Search(ServedTrace& trace, const QueryParams& q);
ApiResponse Stats(ServedTrace& trace, const QueryParams& q);
ApiResponse Histogram(ServedTrace& trace, const QueryParams& q);
ApiResponse Anomalies(ServedTrace& trace, const QueryParams& q);
ApiResponse Mountain(ServedTrace& trace, const QueryParams& q);
/// Time in some states per row and time bucket (api_series.cc).
ApiResponse Series(ServedTrace& trace, const QueryParams& q);
ApiResponse Matrix(ServedTrace& trace, const QueryParams& q);
ApiResponse Waits(ServedTrace& trace, const QueryParams& q);
/// /waits-window (api_waits.cc): the waits of a window, for the timeline overlay.
ApiResponse WaitsWindow(ServedTrace& trace, const QueryParams& q);
ApiResponse CriticalPathHandler(ServedTrace& trace, const QueryParams& q);
ApiResponse DiagnosticsHandler(ServedTrace& trace, const QueryParams& q);
ApiResponse At(ServedTrace& trace, const QueryParams& q);
ApiResponse Step(ServedTrace& trace, const QueryParams& q);
ApiResponse Find(ServedTrace& trace, const QueryParams& q);
ApiResponse Lamport(ServedTrace& trace, const QueryParams& q);
// The thread views (api_threads.cc): they cache their analysis per trace, so
// they take the shared_ptr that tells one snapshot of a live trace from the next.
ApiResponse Cpus(ServedTrace& trace, const QueryParams& q);
ApiResponse Loops(ServedTrace& trace, const QueryParams& q);
/// SQL over the trace (api_query.cc).
ApiResponse Query(ServedTrace& trace, const QueryParams& q);
ApiResponse QueryCancel(ServedTrace& trace, const QueryParams& q);
/// The source files of the call sites, and one of them with the time at its
/// lines (api_source.cc); relative names are looked up in `source_dirs`,
/// then beside the trace file.
ApiResponse SourceFilesHandler(ServedTrace& trace, const std::vector<std::string>& source_dirs);
ApiResponse SourceHandler(ServedTrace& trace, const QueryParams& q,
                          const std::vector<std::string>& source_dirs);

}  // namespace plx::server::handlers
