// GET /source-files and /source: the source files a trace's call sites name,
// and one of them, line by line, with the time spent at each line's call
// sites (summed from the per-call-site statistics /stats?callsites=1 gives).
// Only a file the trace names is ever read: the request picks an entry of
// that list, never a path of its own.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "server/api/api_handlers.h"

namespace plx::server::handlers {
namespace {

namespace fs = std::filesystem;

// Larger files are refused (413): a source file is rarely a tenth of this.
constexpr uintmax_t kMaxSourceBytes = 4 << 20;

// The time at one line: its call sites' rows of /stats?callsites=1, summed.
struct LineTime {
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t self_ns = 0;
  std::map<uint32_t, std::pair<uint64_t, int64_t>> states;  // state -> count, total
};

// One file the call sites name, with the time at its lines.
struct SourceFile {
  std::string name;  // as the trace names it
  uint64_t count = 0;
  int64_t total_ns = 0;
  std::map<uint32_t, LineTime> lines;
};

// The files of the trace's call sites, by name, with their statistics.
std::vector<SourceFile> SourceFiles(ServedTrace& served) {
  const model::Trace& t = served.trace();
  std::map<std::string, SourceFile> files;
  for (const model::Callsite& c : t.callsites)
    if (!c.file.empty()) files[c.file].name = c.file;
  for (const analysis::StateStats& row : served.callsite_stats()) {
    if (row.callsite >= t.callsites.size()) continue;
    const model::Callsite& c = t.callsites[row.callsite];
    if (c.file.empty()) continue;
    SourceFile& f = files[c.file];
    f.count += row.count;
    f.total_ns += row.total_ns;
    LineTime& line = f.lines[c.line];
    line.count += row.count;
    line.total_ns += row.total_ns;
    line.self_ns += row.self_ns;
    auto& [count, total] = line.states[row.state];
    count += row.count;
    total += row.total_ns;
  }
  std::vector<SourceFile> out;
  out.reserve(files.size());
  for (auto& [name, f] : files)
    out.push_back(std::move(f));
  return out;
}

// The folders a relative file name is looked up in, in order: the --source-dir
// folders, then the trace file's folder.
std::vector<fs::path> SearchDirs(const ServedTrace& served,
                                 const std::vector<std::string>& source_dirs) {
  std::vector<fs::path> dirs(source_dirs.begin(), source_dirs.end());
  std::error_code ec;
  const fs::path trace = fs::absolute(served.path(), ec);
  if (!ec && !served.live()) dirs.push_back(trace.parent_path());
  return dirs;
}

// Where the file is on this machine; empty when it is not (or is no regular file).
fs::path Resolve(const std::string& name, const std::vector<fs::path>& dirs) {
  std::error_code ec;
  const fs::path p(name);
  if (p.is_absolute()) return fs::is_regular_file(p, ec) ? p : fs::path();
  for (const fs::path& dir : dirs)
    if (fs::is_regular_file(dir / p, ec)) return dir / p;
  return {};
}

Json SourceFileJson(size_t index, const SourceFile& f, const fs::path& resolved) {
  return Json{{"index", index},
              {"file", f.name},
              {"found", !resolved.empty()},
              {"count", f.count},
              {"total", f.total_ns}};
}

Json LinesJson(const model::Trace& t, const SourceFile& f) {
  Json list = Json::array();
  for (const auto& [number, line] : f.lines) {
    Json states = Json::array();
    for (const auto& [state, ct] : line.states)
      states.push_back(Json{{"state", state},
                            {"name", t.states[state].name},
                            {"count", ct.first},
                            {"total", ct.second}});
    std::sort(states.begin(), states.end(),
              [](const Json& a, const Json& b) { return a["total"] > b["total"]; });
    list.push_back(Json{{"line", number},
                        {"count", line.count},
                        {"total", line.total_ns},
                        {"self", line.self_ns},
                        {"states", std::move(states)}});
  }
  return list;
}

// The file's lines, without their ends ("\n" or "\r\n").
std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    size_t stop = end;
    if (stop > begin && text[stop - 1] == '\r') --stop;
    lines.push_back(text.substr(begin, stop - begin));
    begin = end + 1;
  }
  return lines;
}

}  // namespace

ApiResponse SourceFilesHandler(ServedTrace& served, const std::vector<std::string>& source_dirs) {
  const std::vector<SourceFile> files = SourceFiles(served);
  const std::vector<fs::path> dirs = SearchDirs(served, source_dirs);
  Json list = Json::array();
  for (size_t i = 0; i < files.size(); ++i)
    list.push_back(SourceFileJson(i, files[i], Resolve(files[i].name, dirs)));
  Json searched = Json::array();
  for (const fs::path& dir : dirs)
    searched.push_back(dir.string());
  return JsonResponse(Json{{"files", std::move(list)}, {"search_dirs", std::move(searched)}});
}

ApiResponse SourceHandler(ServedTrace& served, const QueryParams& q,
                          const std::vector<std::string>& source_dirs) {
  const auto file = q.RequiredString("file");
  if (!file.ok()) return StatusResponse(file.status());
  const std::vector<SourceFile> files = SourceFiles(served);
  // A name exactly as the trace gives it, else an index of /source-files.
  size_t index = files.size();
  for (size_t i = 0; i < files.size() && index == files.size(); ++i)
    if (files[i].name == *file) index = i;
  for (size_t i = 0; i < files.size() && index == files.size(); ++i)
    if (std::to_string(i) == *file) index = i;
  if (index == files.size())
    return ErrorResponse(404, "parameter 'file': '" + *file +
                                  "' is not a source file of this trace's call sites "
                                  "(see /source-files)");
  const SourceFile& f = files[index];
  const std::vector<fs::path> dirs = SearchDirs(served, source_dirs);
  const fs::path path = Resolve(f.name, dirs);
  if (path.empty()) {
    std::string where;
    for (const fs::path& dir : dirs)
      where += (where.empty() ? "" : ", ") + dir.string();
    return ErrorResponse(
        404, "source file '" + f.name + "' is not on this machine" +
                 (fs::path(f.name).is_absolute()
                      ? std::string()
                      : " (looked in: " + where + "; add folders with serve --source-dir)"));
  }
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return ErrorResponse(404, "source file '" + path.string() + "': " + ec.message());
  if (size > kMaxSourceBytes)
    return ErrorResponse(413, "source file '" + path.string() + "' is " + std::to_string(size) +
                                  " bytes, over the limit of " + std::to_string(kMaxSourceBytes));
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<size_t>(size), '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(size)))
    return ErrorResponse(404, "source file '" + path.string() + "' cannot be read");
  return JsonResponse(Json{{"index", index},
                           {"file", f.name},
                           {"path", path.string()},
                           {"count", f.count},
                           {"total", f.total_ns},
                           {"text", SplitLines(text)},
                           {"lines", LinesJson(served.trace(), f)}});
}

}  // namespace plx::server::handlers
