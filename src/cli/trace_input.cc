// OpenTrace / LoadModel: the reader and loader with warnings and progress.
#include "cli/trace_input.h"

#include <algorithm>
#include <filesystem>

#include "cli/output.h"
#include "cli/progress.h"
#include "distributed/group.h"
#include "interop/convert.h"
#include "interop/import_counters.gen.h"
#include "store/derived_trace.h"

namespace plx::cli {

namespace {

// The files an OTF2 archive with this anchor or directory is made of.
std::vector<std::string> Otf2Files(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path root = store::IsDirectory(path) ? fs::path(path) : fs::path(path).parent_path();
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root.empty() ? "." : root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

StatusOr<ResolvedTrace> ResolveTrace(
    const std::string& path, const store::IndexSettings& settings,
    const std::function<void(std::string_view, uint64_t, uint64_t)>& progress) {
  const StatusOr<interop::Format> format = interop::FormatOfPath(path);
  const bool foreign =
      format.ok() && *format != interop::Format::kPlx && interop::InfoOf(*format).can_read;
  if (store::IsDirectory(path) && !foreign) {
    PLX_ASSIGN_OR_RETURN(store::DerivedTrace parts,
                         store::MergedParts(path, settings, [&](uint64_t done, uint64_t total) {
                           if (progress) progress("merging the parts", done, total);
                         }));
    return ResolvedTrace{parts.path, parts.problems};
  }
  if (!foreign) return ResolvedTrace{path, {}};
  const std::vector<std::string> files =
      *format == interop::Format::kOtf2 ? Otf2Files(path) : std::vector<std::string>{path};
  PLX_ASSIGN_OR_RETURN(
      store::DerivedTrace imported,
      store::KeptTrace(
          path, files, settings, [&](const std::string& out) -> StatusOr<std::vector<std::string>> {
            interop::ConvertOptions options;
            options.from = *format;
            options.to = interop::Format::kPlx;
            options.force = true;
            options.progress = progress;
            PLX_ASSIGN_OR_RETURN(interop::ConvertResult r, interop::Convert(path, out, options));
            // What was changed or lost (choices of representation are not
            // problems); `info` lists every counter with what it means.
            std::vector<std::string> notes;
            for (const auto& [name, count] : r.stats) {
              const interop::ImportCounterInfo* c = interop::FindImportCounter(name);
              if (c == nullptr || c->severity == interop::ImportSeverity::kInfo) continue;
              const bool lost = c->severity == interop::ImportSeverity::kDataLoss;
              notes.push_back((lost ? "the import dropped " : "the import repaired ") +
                              std::to_string(count) + " x " + name +
                              " ('parallax info' says what)");
            }
            return notes;
          }));
  return ResolvedTrace{imported.path, imported.problems};
}

namespace {

// `open` on process 0 of `parallax-mpi` first (it may make the copy or the
// index the others then read), then on the others; an error anywhere is an
// error everywhere. Just `open` in `parallax`.
template <typename T, typename Open>
StatusOr<T> FirstProcessFirst(const GlobalOptions& global, Open&& open) {
  distributed::Group* group = global.group;
  if (group == nullptr) return open();
  const bool first = group->rank() == 0;
  StatusOr<T> out = Internal("not opened");
  if (first) out = open();
  if (!group->AllOk(!first || out.ok()))
    return first ? out.status() : Internal("process 0 could not open the trace");
  if (!first) out = open();
  if (!group->AllOk(out.ok()))
    return out.ok() ? Internal("another process could not open the trace") : out.status();
  return out;
}

StatusOr<std::unique_ptr<format::TraceFile>> OpenTraceHere(const std::string& path,
                                                           const GlobalOptions& global) {
  store::IndexSettings settings;
  settings.dir = global.index_dir;
  PipelineProgress progress(global.progress);
  StatusOr<ResolvedTrace> resolved =
      ResolveTrace(path, settings, [&](std::string_view step, uint64_t done, uint64_t total) {
        progress.Update(step, done, total);
      });
  progress.End();
  if (!resolved.ok()) return resolved.status();
  for (const std::string& problem : resolved->problems)
    Warn(path + ": " + problem);
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file,
                       format::TraceFile::Open(resolved->path));
  for (const std::string& problem : file->report().problems)
    Warn(path + ": " + problem);
  return file;
}

StatusOr<std::unique_ptr<store::TraceStore>> OpenStoreHere(const format::TraceFile& file,
                                                           const GlobalOptions& global);

}  // namespace

StatusOr<std::unique_ptr<format::TraceFile>> OpenTrace(const std::string& path,
                                                       const GlobalOptions& global) {
  return FirstProcessFirst<std::unique_ptr<format::TraceFile>>(
      global, [&] { return OpenTraceHere(path, global); });
}

StatusOr<std::unique_ptr<store::TraceStore>> OpenStore(const format::TraceFile& file,
                                                       const GlobalOptions& global) {
  return FirstProcessFirst<std::unique_ptr<store::TraceStore>>(
      global, [&] { return OpenStoreHere(file, global); });
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

namespace {

StatusOr<std::unique_ptr<store::TraceStore>> OpenStoreHere(const format::TraceFile& file,
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

}  // namespace

}  // namespace plx::cli
