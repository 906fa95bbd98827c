// The replay endpoints: the program's state at the cursor (/at), one event
// forward or back (/step) and the next trigger (/find), over the trace's
// ReplayIndex (built on first use).
#include <algorithm>
#include <cmath>
#include <string>

#include "base/strings.h"
#include "server/api/api_handlers.h"
#include "server/timeline/replay_search.h"

namespace plx::server::handlers {

int64_t ClampedModelTime(const model::Trace& t, double trace_time, bool round_up) {
  // Parameters are range-checked (|trace_time| <= 1e18), so the cast is exact.
  const double whole = round_up ? std::ceil(trace_time) : std::floor(trace_time);
  int64_t r = 0;
  if (__builtin_add_overflow(t.begin_ns, static_cast<int64_t>(whole), &r))
    return whole > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

namespace {

Json EventRefJson(const model::Trace& t, const EventHit& hit, std::string text) {
  if (!hit.found)
    return Json{{"found", false}, {"time", 0}, {"row", 0}, {"kind", ""}, {"ref", 0}, {"text", ""}};
  return Json{{"found", true},  {"time", TraceTime(t, hit.time)},
              {"row", hit.row}, {"kind", EventKindName(hit.kind)},
              {"ref", hit.ref}, {"text", std::move(text)}};
}

std::string StateName(const model::Trace& t, uint32_t slice) {
  const uint32_t s = t.slices.state[slice];
  return s < t.states.size() ? t.states[s].name : "?";
}

std::string CounterName(const model::Trace& t, uint32_t sample) {
  const uint32_t c = t.counter_samples.counter[sample];
  return c < t.counters.size() ? t.counters[c].name : "?";
}

std::string Number(double v) {
  return Json(v).dump();
}

// One line for people about the event of a step.
std::string StepText(const model::Trace& t, const EventHit& hit) {
  const std::string on = " on " + RowLabel(t, hit.row);
  const model::MessageTable& m = t.messages;
  switch (hit.kind) {
    case EventKind::kBegin:
      return "begin of " + StateName(t, hit.ref) + on;
    case EventKind::kEnd:
      return "end of " + StateName(t, hit.ref) + on;
    case EventKind::kInstant: {
      const uint32_t type = t.instants.type[hit.ref];
      return (type < t.event_types.size() ? t.event_types[type].name : "event") + on;
    }
    case EventKind::kSend:
    case EventKind::kReceive:
      return std::string(hit.kind == EventKind::kSend ? "send" : "receive") + " of " +
             std::to_string(m.bytes[hit.ref]) + " bytes (tag " + std::to_string(m.tag[hit.ref]) +
             ")" + on;
    case EventKind::kSample:
      return CounterName(t, hit.ref) + " = " + Number(t.counter_samples.value[hit.ref]) + on;
    default:
      return "";
  }
}

// One line for people about what fired a trigger.
std::string TriggerText(ServedTrace& served, const EventHit& hit, const Trigger& trigger) {
  const model::Trace& t = served.trace();
  const std::string on = " on " + RowLabel(t, hit.row);
  switch (hit.kind) {
    case EventKind::kState:
      return StateName(t, hit.ref) + on + " lasted " +
             FormatDuration(t.slices.end[hit.ref] - t.slices.begin[hit.ref]) + " > " +
             FormatDuration(trigger.ns);
    case EventKind::kCounter:
      return CounterName(t, hit.ref) + on + " = " + Number(t.counter_samples.value[hit.ref]) +
             " > " + Number(trigger.value);
    case EventKind::kMessage: {
      const uint32_t recv = served.replay().partner(hit.ref);
      return "message of " + std::to_string(t.messages.bytes[hit.ref]) + " bytes > " +
             std::to_string(trigger.bytes) + " bytes from " + RowLabel(t, hit.row) +
             (recv == model::kNone ? " (never received)"
                                   : " to " + RowLabel(t, t.messages.thread[recv]));
    }
    default:
      return "";
  }
}

StatusOr<bool> Forward(const QueryParams& q) {
  PLX_ASSIGN_OR_RETURN(const std::string dir, q.Choice("dir", "forward", {"forward", "back"}));
  return dir == "forward";
}

}  // namespace

ApiResponse At(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto at = q.RequiredNumber("t", -1e18, 1e18);
  if (!at.ok()) return StatusResponse(at.status());
  const auto limit = q.Limit("limit", 10000);
  if (!limit.ok()) return StatusResponse(limit.status());
  const ReplayIndex& index = served.replay();
  const int64_t when = ClampedModelTime(t, *at, false);
  Json states = Json::array(), slices = Json::array(), counters = Json::array(),
       in_flight = Json::array();
  for (uint32_t row = 0; row < index.rows(); ++row) {
    const uint32_t slice = index.SliceAt(row, when);
    const bool none = slice == model::kNone;
    states.push_back(none ? int64_t{-1} : int64_t{t.slices.state[slice]});
    slices.push_back(none ? int64_t{-1} : int64_t{slice});
  }
  const auto& tracks = index.timeline().counter_tracks();
  for (uint32_t k = 0; k < tracks.size(); ++k) {
    const uint32_t sample = index.SampleAt(k, when);
    if (sample == model::kNone) continue;
    counters.push_back(Json{{"track", k},
                            {"value", t.counter_samples.value[sample]},
                            {"time", TraceTime(t, t.counter_samples.time[sample])}});
  }
  std::vector<ReplayIndex::InFlight> flying;
  const uint64_t total = index.InFlightAt(when, static_cast<size_t>(*limit), &flying);
  const model::MessageTable& m = t.messages;
  for (const ReplayIndex::InFlight& f : flying) {
    const bool received = f.recv != model::kNone;
    in_flight.push_back(Json{{"id", f.send},
                             {"send_row", m.thread[f.send]},
                             {"recv_row", received ? int64_t{m.thread[f.recv]} : int64_t{-1}},
                             {"send_time", TraceTime(t, m.time[f.send])},
                             {"recv_time", received ? TraceTime(t, m.time[f.recv]) : -1.0},
                             {"bytes", m.bytes[f.send]},
                             {"tag", m.tag[f.send]}});
  }
  return JsonResponse(Json{{"time", *at},
                           {"states", std::move(states)},
                           {"slices", std::move(slices)},
                           {"counters", std::move(counters)},
                           {"in_flight", std::move(in_flight)},
                           {"in_flight_total", total}});
}

ApiResponse Step(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto at = q.RequiredNumber("t", -1e18, 1e18);
  if (!at.ok()) return StatusResponse(at.status());
  const auto forward = Forward(q);
  if (!forward.ok()) return StatusResponse(forward.status());
  const auto rows = q.IndexList("rows", UINT32_MAX - 1, false);
  if (!rows.ok()) return StatusResponse(rows.status());
  for (uint32_t row : *rows)
    if (row >= t.threads.size())
      return ErrorResponse(400, "parameter 'rows': no row " + std::to_string(row) +
                                    " (the trace has " + std::to_string(t.threads.size()) + ")");
  // Strictly after t is after floor(t); strictly before t is before ceil(t).
  const EventHit hit =
      StepEvent(served.replay(), ClampedModelTime(t, *at, !*forward), *forward, *rows);
  return JsonResponse(EventRefJson(t, hit, hit.found ? StepText(t, hit) : ""));
}

ApiResponse Find(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto at = q.RequiredNumber("t", -1e18, 1e18);
  if (!at.ok()) return StatusResponse(at.status());
  const auto forward = Forward(q);
  if (!forward.ok()) return StatusResponse(forward.status());
  const auto until = q.Number("until", -1, -1, 1e18);
  if (!until.ok()) return StatusResponse(until.status());
  if (!q.Has("kind")) return ErrorResponse(400, "parameter 'kind' is required");
  const auto kind = q.Choice("kind", "", {"state", "counter", "message"});
  if (!kind.ok()) return StatusResponse(kind.status());
  Trigger trigger;
  if (*kind == "state") {
    const auto state = q.Integer("state", -1, -1, static_cast<int64_t>(t.states.size()) - 1);
    if (!state.ok()) return StatusResponse(state.status());
    const auto ns = q.Number("ns", 0, 0, 1e18);
    if (!ns.ok()) return StatusResponse(ns.status());
    trigger.kind = EventKind::kState;
    trigger.state = *state < 0 ? model::kNone : static_cast<uint32_t>(*state);
    trigger.ns = static_cast<int64_t>(std::floor(*ns));
  } else if (*kind == "counter") {
    const int64_t tracks = static_cast<int64_t>(served.index().counter_tracks().size());
    const auto counter = q.Integer("counter", -1, -1, tracks - 1);
    if (!counter.ok()) return StatusResponse(counter.status());
    const auto value = q.Number("value", 0, -1e300, 1e300);
    if (!value.ok()) return StatusResponse(value.status());
    trigger.kind = EventKind::kCounter;
    trigger.track = *counter < 0 ? model::kNone : static_cast<uint32_t>(*counter);
    trigger.value = *value;
  } else {
    const auto bytes = q.Number("bytes", 0, 0, 1e18);
    if (!bytes.ok()) return StatusResponse(bytes.status());
    trigger.kind = EventKind::kMessage;
    trigger.bytes = static_cast<uint64_t>(std::floor(*bytes));
  }
  const int64_t limit =
      *until < 0 ? (*forward ? INT64_MAX : INT64_MIN) : ClampedModelTime(t, *until, !*forward);
  const EventHit hit =
      FindEvent(served.replay(), trigger, ClampedModelTime(t, *at, !*forward), *forward, limit);
  return JsonResponse(EventRefJson(t, hit, hit.found ? TriggerText(served, hit, trigger) : ""));
}

}  // namespace plx::server::handlers
