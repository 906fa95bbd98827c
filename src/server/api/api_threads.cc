// The thread views' endpoints: /cpus (the processor-scheduling strip, from
// analysis/cpu_schedule) and /loops (OpenMP loops and their chunks, from
// analysis/omp_loops), each analysis computed once per served trace
// (ServedTrace::cpu_schedule, omp_loops).
#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analysis/cpu_schedule.h"
#include "analysis/omp_loops.h"
#include "server/api/api_handlers.h"

namespace plx::server::handlers {
namespace {

// from/to (trace time, default the whole trace) as model times, rounded
// inward; false (and a 400 in *error) when a parameter is bad.
bool TimeRange(const model::Trace& t, const QueryParams& q, int64_t* from_ns, int64_t* to_ns,
               ApiResponse* error) {
  const auto from = q.Number("from", 0, -1e18, 1e18);
  if (!from.ok()) return *error = StatusResponse(from.status()), false;
  const auto to = q.Number("to", TraceTime(t, t.end_ns), -1e18, 1e18);
  if (!to.ok()) return *error = StatusResponse(to.status()), false;
  if (*to < *from)
    return *error = ErrorResponse(400, "parameter 'to': must not be less than 'from'"), false;
  *from_ns = ClampedModelTime(t, *from, true);
  *to_ns = ClampedModelTime(t, *to, false);
  return true;
}

Json LoopJson(const model::Trace& t, const analysis::OmpLoop& l, size_t id) {
  return Json{{"id", id},
              {"process", l.process},
              {"begin", TraceTime(t, l.begin_ns)},
              {"end", TraceTime(t, l.end_ns)},
              {"first", l.first},
              {"last", l.last},
              {"iterations", l.iterations},
              {"threads", l.threads},
              {"chunks", l.chunk_end - l.chunk_begin},
              {"schedule", l.dynamic ? "dynamic" : "static"}};
}

Json ChunkJson(const model::Trace& t, const analysis::OmpChunk& c) {
  return Json{{"row", c.thread},
              {"thread_num", c.thread_num},
              {"first", c.first},
              {"last", c.last},
              {"begin", TraceTime(t, c.begin_ns)},
              {"end", TraceTime(t, c.end_ns)},
              {"estimated", c.estimated}};
}

}  // namespace

ApiResponse Cpus(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  int64_t from_ns = 0, to_ns = 0;
  ApiResponse error;
  if (!TimeRange(t, q, &from_ns, &to_ns, &error)) return error;
  const auto limit = q.Limit("limit", 50000, 1);
  if (!limit.ok()) return StatusResponse(limit.status());
  const analysis::CpuSchedule* schedule = &served.cpu_schedule();
  bool truncated = false;
  const std::vector<size_t> selected =
      analysis::SelectCpuSpans(*schedule, from_ns, to_ns, static_cast<size_t>(*limit), &truncated);
  Json spans = Json::array();
  for (size_t i : selected) {
    const analysis::CpuSpan& s = schedule->spans[i];
    spans.push_back(Json{{"cpu", s.cpu},
                         {"row", s.thread},
                         {"begin", TraceTime(t, s.begin_ns)},
                         {"end", TraceTime(t, s.end_ns)}});
  }
  return JsonResponse(Json{{"has_data", schedule->has_data},
                           {"cpus", schedule->cpus},
                           {"spans", std::move(spans)},
                           {"migrations", schedule->migrations},
                           {"truncated", truncated}});
}

ApiResponse Loops(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  int64_t from_ns = 0, to_ns = 0;
  ApiResponse error;
  if (!TimeRange(t, q, &from_ns, &to_ns, &error)) return error;
  const auto limit = q.Limit("limit", 1000, 1);
  if (!limit.ok()) return StatusResponse(limit.status());
  const auto loop = q.Integer("loop", -1, -1, INT64_MAX);
  if (!loop.ok()) return StatusResponse(loop.status());
  const auto chunk_limit = q.Limit("chunk_limit", 100000, 1);
  if (!chunk_limit.ok()) return StatusResponse(chunk_limit.status());
  const analysis::OmpLoops* loops = &served.omp_loops();
  const size_t total = loops->loops.size();
  if (*loop >= 0 && static_cast<uint64_t>(*loop) >= total)
    return ErrorResponse(400, "parameter 'loop': no loop " + std::to_string(*loop) +
                                  " (the trace has " + std::to_string(total) + ")");
  bool truncated = false;
  Json list = Json::array(), chunks = Json::array();
  for (size_t i :
       analysis::SelectOmpLoops(*loops, from_ns, to_ns, static_cast<size_t>(*limit), &truncated))
    list.push_back(LoopJson(t, loops->loops[i], i));
  bool chunks_truncated = false;
  if (*loop >= 0) {
    const analysis::OmpLoop& l = loops->loops[static_cast<size_t>(*loop)];
    const size_t end =
        std::min<size_t>(l.chunk_end, l.chunk_begin + static_cast<size_t>(*chunk_limit));
    chunks_truncated = end < l.chunk_end;
    for (size_t i = l.chunk_begin; i < end; ++i)
      chunks.push_back(ChunkJson(t, loops->chunks[i]));
  }
  return JsonResponse(Json{{"total", total},
                           {"loops", std::move(list)},
                           {"chunks", std::move(chunks)},
                           {"chunks_truncated", chunks_truncated},
                           {"truncated", truncated}});
}

}  // namespace plx::server::handlers
