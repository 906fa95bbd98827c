// OpenTrace / LoadModel: the reader and loader with warnings and progress.
#include "cli/trace_input.h"

#include "cli/output.h"
#include "cli/progress.h"

namespace plx::cli {

StatusOr<std::unique_ptr<format::TraceFile>> OpenTrace(const std::string& path) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, format::TraceFile::Open(path));
  for (const std::string& line : file->report().problems)
    Warn(path + ": " + line);
  return file;
}

StatusOr<model::Trace> LoadModel(const format::TraceFile& file, const GlobalOptions& global,
                                 bool events) {
  model::LoadOptions options;
  options.events = events;
  if (events) options.pool = global.pool();
  StatusOr<model::Trace> trace = [&] {
    LoadProgress drawer(global.progress);
    if (events) options.progress = drawer.Callback();
    return model::LoadTrace(file, options);
  }();
  if (!trace.ok()) return trace.status();
  const size_t already = file.report().problems.size();
  for (size_t i = already; i < trace->problems.size(); ++i)
    Warn(file.name() + ": " + trace->problems[i]);
  return trace;
}

}  // namespace plx::cli
