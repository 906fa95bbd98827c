// ProcessIdentity / ThreadIdentity for --json output.
#include "cli/json_fields.h"

namespace plx::cli {

nlohmann::ordered_json ProcessIdentity(const model::Process& p) {
  return {{"process", p.file_id}, {"rank", p.rank}, {"pid", p.pid}, {"host", p.host}};
}

nlohmann::ordered_json ThreadIdentity(const model::Trace& trace, const model::Thread& th) {
  return {{"process", trace.processes[th.process].file_id},
          {"stream", th.file_stream},
          {"tid", th.tid},
          {"name", th.name}};
}

}  // namespace plx::cli
