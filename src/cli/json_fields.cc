// ProcessIdentity / ProcessClock / ThreadIdentity for --json output.
#include "cli/json_fields.h"

#include <utility>

namespace plx::cli {

nlohmann::ordered_json ProcessIdentity(const model::Process& p) {
  return {{"process", p.file_id}, {"rank", p.rank}, {"pid", p.pid}, {"host", p.host}};
}

nlohmann::ordered_json ProcessClock(const model::Process& p) {
  nlohmann::ordered_json offsets = nlohmann::ordered_json::array();
  for (const model::ClockOffset& m : p.clock_offsets)
    offsets.push_back({{"ns", m.ns}, {"offset_ns", m.offset_ns}, {"error_ns", m.error_ns}});
  return {{"clock_offset_ns", p.clock_offset_ns},
          {"clock_drift_ppm", p.clock_drift_ppm},
          {"clock_offsets", std::move(offsets)}};
}

nlohmann::ordered_json ThreadIdentity(const model::Trace& trace, const model::Thread& th) {
  return {{"process", trace.processes[th.process].file_id},
          {"stream", th.file_stream},
          {"tid", th.tid},
          {"name", th.name}};
}

}  // namespace plx::cli
