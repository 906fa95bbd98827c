// /summary and /processes: what the viewer opens a trace with — its rows,
// states, counters and time span — and the process table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <set>

#include "server/api.gen.h"
#include "server/api/api_handlers.h"

namespace plx::server::handlers {

namespace {

std::string WallClock(const model::Trace& t) {
  if (t.processes.empty() || t.processes[0].realtime_minus_monotonic_ns == 0) return "";
  const int64_t ns = t.begin_ns + t.processes[0].realtime_minus_monotonic_ns;
  const std::time_t seconds = static_cast<std::time_t>(ns / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ns % 1'000'000'000 / 1000));
  return text;
}

Json ProcessJson(const model::Trace& t, uint32_t p) {
  const model::Process& proc = t.processes[p];
  Json threads = Json::array();
  for (uint32_t i = 0; i < t.threads.size(); ++i)
    if (t.threads[i].process == p) threads.push_back(i);
  return Json{{"index", p},
              {"rank", proc.rank},
              {"pid", proc.pid},
              {"host", proc.host},
              {"name", ProcessLabel(proc)},
              {"executable", proc.executable},
              {"arguments", proc.arguments},
              {"clock_offset_ns", proc.clock_offset_ns},
              {"clock_drift_ppm", proc.clock_drift_ppm},
              {"threads", std::move(threads)}};
}

std::string CategoryName(const model::Trace& t, uint32_t category) {
  return category < t.categories.size() ? t.categories[category].name : "";
}

}  // namespace

ApiResponse Summary(ServedTrace& served) {
  const std::shared_ptr<StoreTimeline> held =
      served.from_store() ? served.store_timeline_held() : nullptr;
  const StoreTimeline* from_file = held.get();
  const model::Trace& t = from_file ? from_file->trace() : served.trace();
  auto max_depth = [&](uint32_t row) {
    return from_file ? from_file->max_depth(row) : served.index().max_depth(row);
  };
  Json processes = Json::array(), threads = Json::array(), states = Json::array(),
       event_types = Json::array(), counters = Json::array(), hosts = Json::array();
  std::set<std::string> seen_hosts;
  for (uint32_t p = 0; p < t.processes.size(); ++p) {
    processes.push_back(ProcessJson(t, p));
    if (seen_hosts.insert(t.processes[p].host).second) hosts.push_back(t.processes[p].host);
  }
  for (uint32_t i = 0; i < t.threads.size(); ++i) {
    const model::Thread& th = t.threads[i];
    threads.push_back(Json{{"index", i},
                           {"process", th.process},
                           {"tid", th.tid},
                           {"name", ThreadLabel(t, i)},
                           {"begin", TraceTime(t, th.begin_ns)},
                           {"end", TraceTime(t, th.end_ns)},
                           {"records", th.records},
                           {"max_depth", max_depth(i)}});
  }
  for (uint32_t i = 0; i < t.states.size(); ++i)
    states.push_back(Json{{"index", i},
                          {"name", t.states[i].name},
                          {"category", CategoryName(t, t.states[i].category)},
                          {"color", StateColor(t.states[i])}});
  for (uint32_t i = 0; i < t.event_types.size(); ++i)
    event_types.push_back(Json{{"index", i},
                               {"name", t.event_types[i].name},
                               {"category", CategoryName(t, t.event_types[i].category)}});
  const auto& tracks = from_file ? from_file->counter_tracks() : served.index().counter_tracks();
  for (uint32_t i = 0; i < tracks.size(); ++i) {
    const model::Counter& c = t.counters[tracks[i].counter];
    counters.push_back(Json{{"index", i},
                            {"thread", tracks[i].thread},
                            {"name", c.name},
                            {"unit", c.unit},
                            {"min", tracks[i].min},
                            {"max", tracks[i].max},
                            {"samples", tracks[i].samples}});
  }
  return JsonResponse(
      Json{{"id", served.id()},
           {"name", served.name()},
           {"duration", TraceTime(t, t.end_ns)},
           {"begin_wall", WallClock(t)},
           {"events", served.file_records()},
           {"slices", from_file ? from_file->slices() : t.slices.size()},
           {"messages", from_file ? from_file->sends() : served.pairs().pairs.size()},
           {"from_file", from_file != nullptr},
           {"repairing", from_file != nullptr && from_file->recorded_times()},
           {"repair_progress",
            from_file != nullptr && from_file->recorded_times() ? served.repair_progress() : 1.0},
           {"processes", std::move(processes)},
           {"threads", std::move(threads)},
           {"states", std::move(states)},
           {"event_types", std::move(event_types)},
           {"counters", std::move(counters)},
           {"hosts", std::move(hosts)},
           {"problems", t.problems}});
}

ApiResponse Processes(ServedTrace& served) {
  const model::Trace& t = served.trace();
  Json list = Json::array();
  for (uint32_t p = 0; p < t.processes.size(); ++p)
    list.push_back(ProcessJson(t, p));
  return JsonResponse(list);
}

}  // namespace plx::server::handlers
