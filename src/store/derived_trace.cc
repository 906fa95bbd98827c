// KeptTrace: the source's list of files decides whether the kept copy is theirs.
#include "store/derived_trace.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/strings.h"
#include "format/merge.h"
#include "format/parts_dir.h"

namespace plx::store {

namespace {

constexpr std::string_view kProblem = "problem: ";

// One line per file, in the given order: its size, modification time and
// path. A file rewritten in place changes its size or its time.
StatusOr<std::string> ListingOf(const std::vector<std::string>& files) {
  std::string out = "parallax derived trace 1\n";
  for (const std::string& file : files) {
    struct stat st;
    if (::stat(file.c_str(), &st) != 0) return IoError(file + ": " + std::strerror(errno));
    out += StrFormat("%lld %lld.%09ld %s\n", static_cast<long long>(st.st_size),
                     static_cast<long long>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec, file.c_str());
  }
  return out;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

}  // namespace

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

StatusOr<DerivedTrace> KeptTrace(const std::string& source, const std::vector<std::string>& files,
                                 const IndexSettings& settings, const MakeTrace& make) {
  PLX_ASSIGN_OR_RETURN(std::string listing, ListingOf(files));
  const std::vector<std::string> places = DerivedPaths(source, settings, ".plx");
  if (places.empty())
    return IoError(source + ": no directory to keep the trace made from it in (give --index-dir)");
  DerivedTrace out;
  out.path = places.front();
  const std::string list_path = out.path + ".list";

  std::error_code ec;
  const std::string kept = ReadText(list_path);
  if (kept.starts_with(listing) && std::filesystem::exists(out.path, ec)) {
    std::istringstream rest(kept.substr(listing.size()));
    for (std::string line; std::getline(rest, line);)
      if (line.starts_with(kProblem)) out.problems.push_back(line.substr(kProblem.size()));
    return out;
  }
  // The list goes first: a copy made part-way has no list that vouches for it.
  std::filesystem::remove(list_path, ec);
  std::filesystem::create_directories(std::filesystem::path(out.path).parent_path(), ec);
  StatusOr<std::vector<std::string>> problems = make(out.path);
  if (!problems.ok())
    return Status(problems.status().code(), source + ": cannot make its trace " + out.path + ": " +
                                                problems.status().message());
  out.made = true;
  out.problems = std::move(*problems);
  for (const std::string& p : out.problems)
    listing += std::string(kProblem) + p + "\n";
  // Without the list the copy is made again next time: nothing is lost.
  (void)WriteIndexFile({list_path},
                       std::span(reinterpret_cast<const uint8_t*>(listing.data()), listing.size()));
  return out;
}

StatusOr<DerivedTrace> MergedParts(const std::string& dir, const IndexSettings& settings,
                                   const std::function<void(uint64_t, uint64_t)>& progress) {
  PLX_ASSIGN_OR_RETURN(std::vector<format::MergeInput> inputs, format::ListParts(dir));
  std::vector<std::string> files;
  for (const format::MergeInput& in : inputs)
    files.push_back(in.path);
  return KeptTrace(
      dir, files, settings, [&](const std::string& out) -> StatusOr<std::vector<std::string>> {
        PLX_ASSIGN_OR_RETURN(format::MergeResult merged,
                             format::MergeTraceFiles(inputs, out, progress));
        // Named with the trace they are problems of (its directory).
        std::vector<std::string> problems = format::MissingRanks(inputs);
        problems.insert(problems.end(), merged.problems.begin(), merged.problems.end());
        return problems;
      });
}

}  // namespace plx::store
