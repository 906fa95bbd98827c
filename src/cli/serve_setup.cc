#include "cli/serve_setup.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "base/strings.h"
#include "cli/trace_input.h"

namespace plx::cli {

StatusOr<std::vector<std::string>> ServePaths(const ServeOptions& o) {
  std::vector<std::string> paths = o.paths;
  if (paths.empty()) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(".", ec))
      if (entry.is_regular_file() && entry.path().extension() == ".plx")
        paths.push_back(entry.path().filename().string());
    std::sort(paths.begin(), paths.end());
    if (paths.empty())
      return InvalidArgument("no FILE given and no .plx file in the current directory");
  }
  // A directory is a parts directory or an OTF2 archive: read from a kept copy.
  for (const std::string& path : paths)
    if (!std::filesystem::is_regular_file(path) && !std::filesystem::is_directory(path))
      return NotFound(path + ": no such file");
  return paths;
}

server::StoreServing ServingOf(const std::string& path, const GlobalOptions& global,
                               std::mutex* print_mu) {
  server::StoreServing serving;
  serving.pool = global.pool();
  serving.memory_bytes = global.resources().Memory();
  serving.index.enabled = !global.no_index;
  serving.index.dir = global.index_dir;
  serving.warn = [print_mu, path](const std::string& line) {
    std::lock_guard lock(*print_mu);
    fmt::print(stderr, "parallax: warning: {}\n", EscapeControl(path + ": " + line));
  };
  return serving;
}

Status AddServedTraces(const std::vector<std::string>& paths, const ServeOptions& o,
                       const GlobalOptions& global, server::TraceStore* store,
                       std::mutex* print_mu) {
  std::vector<std::string> source_dirs;
  for (const std::string& list : o.source_dirs) {
    for (std::string_view rest = list; !rest.empty();) {
      const std::string dir(NextToken(&rest, ':'));
      if (dir.empty()) continue;
      if (!std::filesystem::is_directory(dir))
        return NotFound("--source-dir: " + dir + ": no such folder");
      source_dirs.push_back(std::filesystem::absolute(dir).lexically_normal().string());
    }
  }
  store->SetSourceDirs(std::move(source_dirs));
  for (const std::string& path : paths) {
    // Above --memory, a trace is served from its file (docs/memory.md).
    server::StoreServing serving = ServingOf(path, global, print_mu);
    const store::IndexSettings index = serving.index;
    server::ServedTrace& served = store->Add(path);
    served.ServeLargeFromFile(std::move(serving), MaxRecordsInMemory(global));
    // Parts directories and other formats: a kept copy, made on first open.
    served.ResolveWith([index](const std::string& p, const auto& progress,
                               std::vector<std::string>* problems) -> StatusOr<std::string> {
      PLX_ASSIGN_OR_RETURN(
          ResolvedTrace r,
          ResolveTrace(p, index, [&](std::string_view step, uint64_t done, uint64_t total) {
            progress(step == "merging the parts" ? "merge" : "import", done, total);
          }));
      *problems = std::move(r.problems);
      return r.path;
    });
  }
  return Status::Ok();
}

std::string PhaseLine(const server::ServedTrace& t, const server::LoadProgressInfo& p,
                      double seconds) {
  switch (p.status) {
    case server::LoadStatus::kReady:
      if (p.phase == "recorded")
        return fmt::format(
            "parallax: {}: ready on the recorded times ({:.1f} s); repairing causality meanwhile",
            t.name(), seconds);
      if (p.phase == "repaired")
        return fmt::format(
            "parallax: {}: causal repair done, serving the repaired times ({:.1f} s)", t.name(),
            seconds);
      return fmt::format("parallax: {}: ready ({:.1f} s)", t.name(), seconds);
    case server::LoadStatus::kFailed:
      return fmt::format("parallax: {}: cannot load: {}", t.name(), p.error);
    case server::LoadStatus::kLoading:
      break;
  }
  static const std::pair<const char*, const char*> kPhases[] = {
      {"load", "reading the file"},
      {"repair", "repairing causality"},
      {"index", "building the timeline index"},
      {"analyse", "computing statistics"},
      {"summary", "summarising the timeline"}};
  for (const auto& [name, text] : kPhases)
    if (p.phase == name) return fmt::format("parallax: {}: {}", t.name(), text);
  return fmt::format("parallax: {}: {}", t.name(), p.phase);
}

server::ServerOptions ServerOptionsOf(const ServeOptions& o) {
  server::ServerOptions options;
  options.bind = o.bind;
  options.port = o.port;
  options.token = o.token;
  options.web_root = o.web_dir;
  return options;
}

void PrintUrl(const server::TraceStore& store, const server::HttpServer& http) {
  fmt::print("parallax: serving {} trace{} at {}\n", store.traces().size(),
             store.traces().size() == 1 ? "" : "s", http.Url());
  std::fflush(stdout);  // before anything on stderr
  if (http.web_root().empty())
    fmt::print(stderr,
               "parallax: warning: the viewer is not built (web/dist); only the API is served\n");
}

std::unique_ptr<server::TraceLoader> LoadInBackground(server::TraceStore& store,
                                                      server::HttpServer& http,
                                                      std::mutex* print_mu) {
  const auto start = std::chrono::steady_clock::now();
  return std::make_unique<server::TraceLoader>(
      store, http,
      [start, print_mu](const server::ServedTrace& t, const server::LoadProgressInfo& p) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::lock_guard lock(*print_mu);
        // Load errors may quote the trace file's text.
        fmt::print(stderr, "{}\n", EscapeControl(PhaseLine(t, p, seconds)));
      });
}

}  // namespace plx::cli
