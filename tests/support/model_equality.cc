// ModelDifferences: tables compare column by column (columns() ties them).
#include "support/model_equality.h"

#include <algorithm>

namespace plx::testing {

std::vector<std::string> ModelDifferences(const model::Trace& a, const model::Trace& b) {
  std::vector<std::string> out;
  const auto check = [&](bool same, const char* what) {
    if (!same) out.push_back(what);
  };
  check(a.slices.columns() == b.slices.columns(), "slices");
  check(a.instants.columns() == b.instants.columns(), "instants");
  check(a.messages.columns() == b.messages.columns(), "messages");
  check(a.counter_samples.columns() == b.counter_samples.columns(), "counter samples");
  check(a.rma.columns() == b.rma.columns(), "rma");
  check(a.controls.columns() == b.controls.columns(), "controls");
  check(a.collectives.columns() == b.collectives.columns(), "collectives");
  check(a.recv_posts.columns() == b.recv_posts.columns(), "recv posts");
  check(a.texts == b.texts, "texts");
  check(a.problems == b.problems, "problems");
  check(a.begin_ns == b.begin_ns && a.end_ns == b.end_ns, "time span");
  check(a.states.size() == b.states.size(), "states");
  for (size_t i = 0; i < std::min(a.states.size(), b.states.size()); ++i)
    check(a.states[i].name == b.states[i].name && a.states[i].category == b.states[i].category,
          "a state");
  check(a.callsites.size() == b.callsites.size(), "callsites");
  check(a.event_types.size() == b.event_types.size(), "event types");
  check(a.counters.size() == b.counters.size(), "counters");
  check(a.communicators.size() == b.communicators.size(), "communicators");
  const model::LoadStats &x = a.stats, &y = b.stats;
  check(x.records == y.records && x.unknown_record_kinds == y.unknown_record_kinds &&
            x.leave_without_enter == y.leave_without_enter &&
            x.leave_mismatch == y.leave_mismatch && x.unclosed_slices == y.unclosed_slices &&
            x.undefined_refs == y.undefined_refs && x.lost_records == y.lost_records &&
            x.damaged_chunks == y.damaged_chunks,
        "load stats");
  check(a.threads.size() == b.threads.size(), "thread count");
  for (size_t t = 0; t < std::min(a.threads.size(), b.threads.size()); ++t) {
    const model::Thread &p = a.threads[t], &q = b.threads[t];
    check(p.process == q.process && p.records == q.records && p.begin_ns == q.begin_ns &&
              p.end_ns == q.end_ns && p.ended == q.ended && p.name == q.name,
          "a thread");
  }
  check(a.processes.size() == b.processes.size(), "process count");
  for (size_t i = 0; i < std::min(a.processes.size(), b.processes.size()); ++i)
    check(a.processes[i].clock_offset_ns == b.processes[i].clock_offset_ns &&
              a.processes[i].clock_drift_ppm == b.processes[i].clock_drift_ppm &&
              a.processes[i].rank == b.processes[i].rank,
          "a process");
  return out;
}

}  // namespace plx::testing
