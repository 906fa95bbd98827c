// OpenTrace / LoadModel: the reader and loader with warnings and progress.
#include "cli/trace_input.h"

#include "cli/output.h"
#include "cli/progress.h"
#include "store/parts_trace.h"

namespace plx::cli {

StatusOr<std::unique_ptr<format::TraceFile>> OpenTrace(const std::string& path,
                                                       const GlobalOptions& global) {
  if (store::IsPartsDirectory(path)) {
    store::IndexSettings settings;
    settings.dir = global.index_dir;
    StatusOr<store::PartsTrace> parts = [&] {
      LoadProgress drawer(global.progress, "merging the parts", ProgressUnit::kBytes);
      return store::MergedParts(path, settings, drawer.Callback());
    }();
    if (!parts.ok()) return parts.status();
    for (const std::string& line : parts->problems)
      Warn(path + ": " + line);
    PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file,
                         format::TraceFile::Open(parts->path));
    for (const std::string& line : file->report().problems)
      Warn(path + ": " + line);
    return file;
  }
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

uint64_t MaxRecordsInMemory(const GlobalOptions& global) {
  constexpr uint64_t kBytesPerRecord = 100;
  return global.resources().Memory() / kBytesPerRecord;
}

bool FitsInMemory(const format::TraceFile& file, const GlobalOptions& global) {
  return file.total_records() <= MaxRecordsInMemory(global);
}

StatusOr<std::unique_ptr<store::TraceStore>> OpenStore(const format::TraceFile& file,
                                                       const GlobalOptions& global) {
  LoadProgress drawer(global.progress, "indexing");
  store::StoreOptions options;
  options.pool = global.pool();
  options.memory_bytes = global.resources().Memory();
  options.progress = drawer.Callback();
  options.index.enabled = !global.no_index;
  options.index.dir = global.index_dir;
  options.warn = [&file](const std::string& line) { Warn(file.name() + ": " + line); };
  StatusOr<std::unique_ptr<store::TraceStore>> store = store::TraceStore::Open(file, options);
  if (!store.ok()) return store.status();
  const model::Trace& trace = (*store)->trace();
  const size_t already = file.report().problems.size();
  for (size_t i = already; i < trace.problems.size(); ++i)
    Warn(file.name() + ": " + trace.problems[i]);
  return store;
}

}  // namespace plx::cli
