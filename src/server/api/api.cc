// Routing of the API, the trace list, and the JSON helpers every handler
// shares (the summary and the process table: api_summary.cc).
#include "server/api/api.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <set>

#include "server/api.gen.h"
#include "server/api/api_handlers.h"

#ifndef PLX_VERSION
#define PLX_VERSION "unknown"
#endif

namespace plx::server {
namespace handlers {

ApiResponse JsonResponse(const Json& body) {
  ApiResponse r;
  r.body = body.dump(-1, ' ', false, Json::error_handler_t::replace);
  return r;
}

ApiResponse StatusResponse(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
      return ErrorResponse(400, status.message());
    case StatusCode::kNotFound:
      return ErrorResponse(404, status.message());
    case StatusCode::kUnimplemented:
      return ErrorResponse(501, status.message());
    default:
      return ErrorResponse(500, status.message());
  }
}

int64_t ModelTime(const model::Trace& t, double trace_time) {
  return t.begin_ns + static_cast<int64_t>(std::floor(trace_time));
}

Json CallsiteJson(const model::Trace& t, uint32_t callsite) {
  if (callsite >= t.callsites.size()) return nullptr;
  const model::Callsite& c = t.callsites[callsite];
  return Json{{"file", c.file}, {"line", c.line}, {"function", c.function}};
}

Json SliceRefJson(const model::Trace& t, uint32_t slice) {
  const model::SliceTable& s = t.slices;
  return Json{{"id", slice},
              {"row", s.thread[slice]},
              {"state", s.state[slice]},
              {"begin", TraceTime(t, s.begin[slice])},
              {"end", TraceTime(t, s.end[slice])},
              {"depth", s.depth[slice]}};
}

SliceRefs::SliceRefs(ServedTrace& served)
    : store_(served.from_store() ? served.store_timeline_held() : nullptr),
      t_(store_ ? store_->trace() : served.trace()) {}

Json SliceRefs::Ref(uint32_t slice) const {
  if (!store_) return slice < t_.slices.size() ? SliceRefJson(t_, slice) : Json();
  const auto s = store_->SliceAt(slice);
  if (!s) return Json();
  return Json{{"id", slice},
              {"row", s->thread},
              {"state", s->state},
              {"begin", TraceTime(t_, s->begin_ns)},
              {"end", TraceTime(t_, s->end_ns)},
              {"depth", s->depth}};
}

std::string SliceRefs::Name(uint32_t slice) const {
  uint32_t state = model::kNone;
  if (!store_) {
    if (slice < t_.slices.size()) state = t_.slices.state[slice];
  } else if (const auto s = store_->SliceAt(slice)) {
    state = s->state;
  }
  return state < t_.states.size() ? t_.states[state].name : "?";
}

std::string ProcessLabel(const model::Process& p) {
  if (p.rank >= 0) return "rank " + std::to_string(p.rank);
  if (!p.name.empty()) return p.name;
  return "pid " + std::to_string(p.pid);
}

namespace {

std::string NameOrTid(const model::Thread& t) {
  return t.name.empty() ? "thread " + std::to_string(t.tid) : t.name;
}

}  // namespace

std::string ThreadLabel(const model::Trace& t, uint32_t thread) {
  const model::Thread& th = t.threads[thread];
  const std::string name = NameOrTid(th);
  // Threads are sorted by process: its other threads are the neighbours.
  uint32_t first = thread, last = thread;
  while (first > 0 && t.threads[first - 1].process == th.process)
    --first;
  while (last + 1 < t.threads.size() && t.threads[last + 1].process == th.process)
    ++last;
  auto reads_alike = [&](const model::Thread& o) {
    return th.name.empty() ? o.name.empty() && o.tid == th.tid : o.name == th.name;
  };
  uint32_t same_name = 0, same_tid = 0, before = 0;
  for (uint32_t i = first; i <= last; ++i) {
    if (i == thread || !reads_alike(t.threads[i])) continue;
    ++same_name;
    if (t.threads[i].tid == th.tid) same_tid += 1, before += i < thread;
  }
  if (same_name == 0) return name;
  std::string label = name + " (tid " + std::to_string(th.tid);
  if (same_tid > 0) label += " #" + std::to_string(before + 1);
  return label + ")";
}

std::string RowLabel(const model::Trace& t, uint32_t thread) {
  if (thread >= t.threads.size()) return "?";
  return ProcessLabel(t.processes[t.threads[thread].process]) + " / " + ThreadLabel(t, thread);
}

std::string StateColor(const model::State& s) {
  // Without a recorded colour the viewer picks one from its palette, where
  // states of one family (point-to-point, collectives, ...) share a hue.
  if (!(s.color & 0x1000000u)) return "";
  const uint32_t rgb = s.color & 0xffffffu;
  char text[8];
  std::snprintf(text, sizeof text, "#%06x", rgb);
  return text;
}

}  // namespace handlers

using handlers::Json;

ApiResponse ErrorResponse(int status, std::string_view message) {
  ApiResponse r;
  r.status = status;
  r.body = Json{{"error", message}}.dump(-1, ' ', false, Json::error_handler_t::replace);
  return r;
}

ServedTrace& TraceStore::Add(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string stem = slash == std::string::npos ? path : path.substr(slash + 1);
  if (stem.size() > 4 && stem.ends_with(".plx")) stem.resize(stem.size() - 4);
  std::string id;
  for (char c : stem)
    id += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  if (id.empty()) id = "trace";
  std::lock_guard lock(mu_);
  std::string unique = id;
  for (int n = 2; FindLocked(unique) != nullptr; ++n)
    unique = id + "-" + std::to_string(n);
  traces_.push_back(std::make_shared<ServedTrace>(unique, path));
  return *traces_.back();
}

void TraceStore::AddShared(std::shared_ptr<ServedTrace> trace) {
  std::lock_guard lock(mu_);
  traces_.push_back(std::move(trace));
}

void TraceStore::Replace(std::shared_ptr<ServedTrace> trace) {
  std::lock_guard lock(mu_);
  for (auto& t : traces_) {
    if (t->id() == trace->id()) {
      t.swap(trace);
      return;  // the old one dies with its last request, outside the lock
    }
  }
  traces_.push_back(std::move(trace));
}

std::shared_ptr<ServedTrace> TraceStore::FindLocked(std::string_view id) const {
  for (const auto& t : traces_)
    if (t->id() == id) return t;
  return nullptr;
}

std::shared_ptr<ServedTrace> TraceStore::Find(std::string_view id) const {
  std::lock_guard lock(mu_);
  return FindLocked(id);
}

void TraceStore::SetSourceDirs(std::vector<std::string> dirs) {
  std::lock_guard lock(mu_);
  source_dirs_ = std::move(dirs);
}

std::vector<std::string> TraceStore::source_dirs() const {
  std::lock_guard lock(mu_);
  return source_dirs_;
}

std::vector<std::shared_ptr<ServedTrace>> TraceStore::traces() const {
  std::lock_guard lock(mu_);
  return traces_;
}

namespace {

Json TraceEntryJson(const ServedTrace& t) {
  const LoadProgressInfo p = t.progress();
  return Json{{"id", t.id()},
              {"name", t.name()},
              {"path", t.path()},
              {"status", LoadStatusName(p.status)},
              {"phase", p.phase},
              {"done", p.done},
              {"total", p.total},
              {"error", p.status == LoadStatus::kFailed ? Json(p.error) : Json(nullptr)},
              {"live", t.live()}};
}

// Served from its file, whether `endpoint` can be answered; if not, `*r`
// says why: 501 for what needs the trace in memory, 503 (retry) for the
// analyses while they wait for the causal repair or are being made.
bool FromFileAnswers(const ServedTrace& trace, const StoreTimeline& held, std::string_view endpoint,
                     ApiResponse* r) {
  if (endpoint == "summary" || endpoint == "processes" || endpoint == "tile" ||
      endpoint == "rowmap" || endpoint == "details" || endpoint == "stats" ||
      endpoint == "mountain" || endpoint == "series" || endpoint == "query" ||
      endpoint == "query-cancel" || endpoint == "source-files" || endpoint == "source")
    return true;
  // Search counts its matches from the statistics (made right after ready).
  if (endpoint == "search") {
    if (held.stats_ready()) return true;
    *r = ErrorResponse(503, "trace '" + trace.id() + "': /search waits for the statistics");
    r->retry_after = true;
    return false;
  }
  const bool analysis = endpoint == "waits" || endpoint == "waits-window" ||
                        endpoint == "critical-path" || endpoint == "diagnostics" ||
                        endpoint == "anomalies" || endpoint == "matrix" || endpoint == "histogram";
  if (!analysis) {
    *r = ErrorResponse(501, "trace '" + trace.id() + "' is served from its file (" +
                                std::to_string(trace.file_records()) +
                                " records, over the memory budget): /" + std::string(endpoint) +
                                " needs it in memory; run the matching parallax command on it, "
                                "or serve it with a larger --memory");
    return false;
  }
  if (held.analyses()) return true;
  if (held.recorded_times()) {
    *r = ErrorResponse(503, "trace '" + trace.id() + "': /" + std::string(endpoint) +
                                " waits for the causal repair (" +
                                std::to_string(std::lround(trace.repair_progress() * 100)) +
                                "% done)");
  } else {
    const std::string step = trace.analysing();
    *r = ErrorResponse(503, "trace '" + trace.id() + "': /" + std::string(endpoint) +
                                " is being computed from the file (" +
                                (step.empty() ? std::string("statistics first") : step) + ")");
  }
  r->retry_after = true;
  return false;
}

Json LiveStatusJson(const LiveStatus& s) {
  return Json{{"trace", s.trace},
              {"generation", s.generation},
              {"program", s.program},
              {"connections", s.connections},
              {"processes", s.processes},
              {"received", s.received},
              {"applied", s.applied},
              {"forced", s.forced},
              {"missing", s.missing},
              {"clock", s.clock},
              {"lag_ms", s.lag_ms},
              {"window_from", s.window_from},
              {"dropped", s.dropped},
              {"bad_input", s.bad_input},
              {"last_bad_input", s.last_bad_input}};
}

}  // namespace

std::string ProgressMessage(const ServedTrace& trace, const LoadProgressInfo& p) {
  Json j;
  switch (p.status) {
    case LoadStatus::kReady:
      j = Json{{"type", "ready"}, {"trace", trace.id()}};
      break;
    case LoadStatus::kFailed:
      j = Json{{"type", "failed"}, {"trace", trace.id()}, {"error", p.error}};
      break;
    case LoadStatus::kLoading:
      j = Json{{"type", "progress"},
               {"trace", trace.id()},
               {"phase", p.phase},
               {"done", p.done},
               {"total", p.total}};
      break;
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string HelloMessage() {
  return Json{{"type", "hello"}, {"api_version", wire::kApiVersion}, {"server", PLX_VERSION}}
      .dump();
}

std::string LiveMessage(const LiveStatus& status, std::string_view summary_json) {
  Json j{{"type", "live"}};
  j.update(LiveStatusJson(status));
  std::string out = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (summary_json.empty()) return out;
  // Spliced as text: the summary is already JSON, and parsing it again to
  // nest it would cost more than building it.
  out.pop_back();  // '}'
  out += ",\"summary\":";
  out += summary_json;
  out += '}';
  return out;
}

ApiResponse Api::Handle(std::string_view path, std::string_view query) {
  auto params = QueryParams::Parse(query);
  if (!params.ok()) return ErrorResponse(400, params.status().message());
  if (path == "/traces") {
    Json list = Json::array();
    for (const auto& t : store_.traces())
      list.push_back(TraceEntryJson(*t));
    return handlers::JsonResponse(Json{
        {"api_version", wire::kApiVersion}, {"server", PLX_VERSION}, {"traces", std::move(list)}});
  }
  constexpr std::string_view kTraces = "/traces/";
  if (!path.starts_with(kTraces))
    return ErrorResponse(404, "no such endpoint: " + std::string(path));
  path.remove_prefix(kTraces.size());
  const size_t slash = path.find('/');
  if (slash == std::string_view::npos)
    return ErrorResponse(404, "no such endpoint: /traces/" + std::string(path));
  const std::string_view id = path.substr(0, slash), endpoint = path.substr(slash + 1);
  // Held for the request: a live trace's newer snapshot may replace it meanwhile.
  const std::shared_ptr<ServedTrace> trace = store_.Find(id);
  if (trace == nullptr) return ErrorResponse(404, "no such trace: '" + std::string(id) + "'");
  if (endpoint == "live") {
    if (!trace->live())
      return ErrorResponse(404, "trace '" + trace->id() + "' is a file, not a live trace");
    return handlers::JsonResponse(LiveStatusJson(trace->live_status()));
  }
  if (!trace->ready()) {
    const LoadProgressInfo p = trace->progress();
    ApiResponse r =
        ErrorResponse(503, p.status == LoadStatus::kFailed
                               ? "trace '" + trace->id() + "' failed to load: " + p.error
                               : "trace '" + trace->id() + "' is still loading (" + p.phase + ")");
    r.retry_after = p.status == LoadStatus::kLoading;
    return r;
  }
  using namespace handlers;
  const QueryParams& q = *params;
  // Served from its file: the timeline of now outlives the request, even
  // if the one on the repaired times replaces it meanwhile.
  const std::shared_ptr<StoreTimeline> held =
      trace->from_store() ? trace->store_timeline_held() : nullptr;
  if (held) {
    if (ApiResponse r; !FromFileAnswers(*trace, *held, endpoint, &r)) return r;
  }
  if (endpoint == "summary") return Summary(*trace);
  if (endpoint == "processes") return Processes(*trace);
  if (endpoint == "tile") return Tile(*trace, q);
  if (endpoint == "rowmap") return Rowmap(*trace, q);
  if (endpoint == "details") return Details(*trace, q);
  if (endpoint == "search") return Search(*trace, q);
  if (endpoint == "stats") return Stats(*trace, q);
  if (endpoint == "histogram") return Histogram(*trace, q);
  if (endpoint == "anomalies") return Anomalies(*trace, q);
  if (endpoint == "mountain") return Mountain(*trace, q);
  if (endpoint == "series") return Series(*trace, q);
  if (endpoint == "matrix") return Matrix(*trace, q);
  if (endpoint == "waits") return Waits(*trace, q);
  if (endpoint == "waits-window") return WaitsWindow(*trace, q);
  if (endpoint == "critical-path") return CriticalPathHandler(*trace, q);
  if (endpoint == "diagnostics") return DiagnosticsHandler(*trace, q);
  if (endpoint == "at") return At(*trace, q);
  if (endpoint == "step") return Step(*trace, q);
  if (endpoint == "find") return Find(*trace, q);
  if (endpoint == "lamport") return Lamport(*trace, q);
  if (endpoint == "cpus") return Cpus(*trace, q);
  if (endpoint == "loops") return Loops(*trace, q);
  if (endpoint == "query") return Query(*trace, q);
  if (endpoint == "query-cancel") return QueryCancel(*trace, q);
  if (endpoint == "source-files") return SourceFilesHandler(*trace, store_.source_dirs());
  if (endpoint == "source") return SourceHandler(*trace, q, store_.source_dirs());
  return ErrorResponse(404, "no such endpoint: " + std::string(endpoint));
}

}  // namespace plx::server
