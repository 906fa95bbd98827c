// MergedParts: the parts' list decides whether the kept copy is theirs.
#include "store/parts_trace.h"

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

// One line per part, in the merge's order: its process number, size,
// modification time and name. A part rewritten in place changes its size or
// its time.
StatusOr<std::string> ListingOf(const std::vector<format::MergeInput>& inputs) {
  std::string out = "parallax parts 1\n";
  for (const format::MergeInput& in : inputs) {
    struct stat st;
    if (::stat(in.path.c_str(), &st) != 0) return IoError(in.path + ": " + std::strerror(errno));
    out += StrFormat("%u %lld %lld.%09ld %s\n", in.process, static_cast<long long>(st.st_size),
                     static_cast<long long>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec,
                     std::filesystem::path(in.path).filename().c_str());
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

bool IsPartsDirectory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

StatusOr<PartsTrace> MergedParts(const std::string& dir, const IndexSettings& settings,
                                 const std::function<void(uint64_t, uint64_t)>& progress) {
  PLX_ASSIGN_OR_RETURN(std::vector<format::MergeInput> inputs, format::ListParts(dir));
  PLX_ASSIGN_OR_RETURN(std::string listing, ListingOf(inputs));
  const std::vector<std::string> places = DerivedPaths(dir, settings, ".plx");
  if (places.empty())
    return IoError(dir + ": no directory to keep its merged parts in (give --index-dir)");
  PartsTrace out;
  out.path = places.front();
  const std::string list_path = out.path + ".parts";

  std::error_code ec;
  const std::string kept = ReadText(list_path);
  if (kept.starts_with(listing) && std::filesystem::exists(out.path, ec)) {
    std::istringstream rest(kept.substr(listing.size()));
    for (std::string line; std::getline(rest, line);)
      if (line.starts_with(kProblem)) out.problems.push_back(line.substr(kProblem.size()));
    return out;
  }
  // The list goes first: a merge cut short leaves a copy that no list vouches for.
  std::filesystem::remove(list_path, ec);
  std::filesystem::create_directories(std::filesystem::path(out.path).parent_path(), ec);
  StatusOr<format::MergeResult> merged = format::MergeTraceFiles(inputs, out.path, progress);
  if (!merged.ok())
    return Status(merged.status().code(), dir + ": cannot merge its parts into " + out.path + ": " +
                                              merged.status().message());
  out.merged = true;
  out.problems = merged->problems;
  for (const std::string& p : out.problems)
    listing += std::string(kProblem) + p + "\n";
  // Without the list the copy is merged again next time: nothing is lost.
  (void)WriteIndexFile({list_path},
                       std::span(reinterpret_cast<const uint8_t*>(listing.data()), listing.size()));
  return out;
}

}  // namespace plx::store
