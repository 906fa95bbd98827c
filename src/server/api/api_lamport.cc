// The logical-time view's endpoint (/lamport): the slices and messages of a
// time range, placed on the trace's Lamport clocks (computed on first use).
#include <algorithm>
#include <string>

#include "server/api/api_handlers.h"
#include "server/timeline/lamport_window.h"

namespace plx::server::handlers {

ApiResponse Lamport(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto from = q.Number("from", 0, -1e18, 1e18);
  if (!from.ok()) return StatusResponse(from.status());
  const auto to = q.Number("to", TraceTime(t, t.end_ns), -1e18, 1e18);
  if (!to.ok()) return StatusResponse(to.status());
  const auto rows = q.IndexList("rows", UINT32_MAX - 1, false);
  if (!rows.ok()) return StatusResponse(rows.status());
  const auto limit = q.Limit("limit", 20000, 1);
  if (!limit.ok()) return StatusResponse(limit.status());
  if (*to < *from) return ErrorResponse(400, "parameter 'to': must not be less than 'from'");
  for (uint32_t row : *rows)
    if (row >= t.threads.size())
      return ErrorResponse(400, "parameter 'rows': no row " + std::to_string(row) +
                                    " (the trace has " + std::to_string(t.threads.size()) + ")");
  const LamportWindow w =
      SelectLamportWindow(served.replay(), ClampedModelTime(t, *from, true),
                          ClampedModelTime(t, *to, false), *rows, static_cast<size_t>(*limit));
  const time::LamportClocks& clocks = served.lamport();
  uint64_t min_clock = UINT64_MAX, max_clock = 0;
  auto seen = [&](uint64_t a, uint64_t b) {
    min_clock = std::min({min_clock, a, b});
    max_clock = std::max({max_clock, a, b});
  };
  Json slices = Json::array(), messages = Json::array();
  const model::SliceTable& s = t.slices;
  for (uint32_t id : w.slices) {
    seen(clocks.slice_begin[id], clocks.slice_end[id]);
    slices.push_back(Json{{"id", id},
                          {"row", s.thread[id]},
                          {"state", s.state[id]},
                          {"depth", s.depth[id]},
                          {"begin_clock", clocks.slice_begin[id]},
                          {"end_clock", clocks.slice_end[id]},
                          {"begin", TraceTime(t, s.begin[id])},
                          {"end", TraceTime(t, s.end[id])}});
  }
  const model::MessageTable& m = t.messages;
  for (const time::MessagePair& p : w.messages) {
    seen(clocks.message[p.send], clocks.message[p.recv]);
    messages.push_back(Json{{"id", p.send},
                            {"send_row", m.thread[p.send]},
                            {"recv_row", m.thread[p.recv]},
                            {"send_clock", clocks.message[p.send]},
                            {"recv_clock", clocks.message[p.recv]},
                            {"send_time", TraceTime(t, m.time[p.send])},
                            {"recv_time", TraceTime(t, m.time[p.recv])},
                            {"bytes", m.bytes[p.send]},
                            {"tag", m.tag[p.send]}});
  }
  if (min_clock > max_clock) min_clock = 0;
  return JsonResponse(Json{{"min_clock", min_clock},
                           {"max_clock", max_clock},
                           {"slices", std::move(slices)},
                           {"messages", std::move(messages)},
                           {"truncated", w.truncated}});
}

}  // namespace plx::server::handlers
