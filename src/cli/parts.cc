// Parts directories, numbering of plain files, and the merge with its
// warnings and "merging 42%" line.
#include "cli/parts.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>

#include "base/strings.h"
#include "cli/output.h"
#include "format/trace_file.h"

namespace plx::cli {

namespace {

// "rank-12.plx" -> 12 for kPrefix "rank-".
bool ParsePartName(const std::string& name, std::string_view kPrefix, uint32_t* rank) {
  constexpr std::string_view kSuffix = ".plx";
  if (name.size() <= kPrefix.size() + kSuffix.size() || name.rfind(kPrefix, 0) != 0 ||
      name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
    return false;
  const std::string digits =
      name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  if (digits.size() > 10) return false;
  uint64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > UINT32_MAX) return false;
  *rank = static_cast<uint32_t>(v);
  return true;
}

// The merge's progress in input bytes; drawn like LoadProgress draws loading.
class MergeProgress {
 public:
  explicit MergeProgress(bool always)
      : always_(always),
        terminal_(::isatty(STDERR_FILENO) == 1),
        start_(std::chrono::steady_clock::now()) {}
  ~MergeProgress() {
    if (shown_) fmt::print(stderr, "\n");
  }
  MergeProgress(const MergeProgress&) = delete;
  MergeProgress& operator=(const MergeProgress&) = delete;

  void Update(uint64_t done, uint64_t total) {
    if (!always_) {
      if (!terminal_) return;
      if (!shown_ && std::chrono::steady_clock::now() - start_ < std::chrono::milliseconds(500))
        return;
    }
    const double percent = total > 0 ? 100.0 * static_cast<double>(done) / total : 100.0;
    fmt::print(stderr, "\rparallax: merging {:3.0f}% ({} of {})", percent, FormatBytes(done),
               FormatBytes(total));
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  bool always_;
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

StatusOr<std::vector<format::MergeInput>> ListParts(const std::string& dir) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) return IoError(dir + ": " + ec.message());
  std::vector<format::MergeInput> ranks, pids;  // pids: numbered by pid for now
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    uint32_t n = 0;
    const std::string name = it->path().filename().string();
    if (ParsePartName(name, "rank-", &n)) ranks.push_back({it->path().string(), n});
    if (ParsePartName(name, "pid-", &n)) pids.push_back({it->path().string(), n});
  }
  if (ec) return IoError(dir + ": " + ec.message());
  if (ranks.empty() && pids.empty())
    return NotFound(dir + ": no rank-<R>.plx or pid-<PID>.plx files in it");
  auto by_number = [](const format::MergeInput& a, const format::MergeInput& b) {
    return a.process != b.process ? a.process < b.process : a.path < b.path;
  };
  std::sort(ranks.begin(), ranks.end(), by_number);
  std::sort(pids.begin(), pids.end(), by_number);
  uint32_t next = ranks.empty() ? 0 : ranks.back().process + 1;
  for (format::MergeInput& in : pids) {
    in.process = next++;
    ranks.push_back(std::move(in));
  }
  return ranks;
}

std::string TracePathOfParts(const std::string& dir) {
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/')
    d.pop_back();
  constexpr std::string_view kSuffix = ".parts";
  if (d.size() <= kSuffix.size() ||
      d.compare(d.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0 ||
      d[d.size() - kSuffix.size() - 1] == '/')
    return "";
  return d.substr(0, d.size() - kSuffix.size());
}

std::vector<format::MergeInput> NumberFiles(const std::vector<std::string>& paths) {
  std::vector<format::MergeInput> inputs;
  std::set<uint32_t> ranks;
  for (const std::string& path : paths) {
    int64_t rank = -1;
    // Unreadable files keep rank -1; the merge reports what is wrong with them.
    auto file = format::TraceFile::Open(path);
    if (file.ok() && (*file)->processes().size() == 1) {
      const format::ProcessDefs& defs = (*file)->processes().begin()->second;
      if (defs.process && defs.process->rank >= 0 && defs.process->rank <= INT64_C(0xffffffff))
        rank = defs.process->rank;
    }
    if (rank >= 0) ranks.insert(static_cast<uint32_t>(rank));
    inputs.push_back({path, static_cast<uint32_t>(rank)});
  }
  // Only rank-carrying inputs were counted, so equal sizes mean every rank is there and unique.
  const bool by_rank = ranks.size() == paths.size();
  if (!by_rank) {
    for (size_t i = 0; i < inputs.size(); ++i)
      inputs[i].process = static_cast<uint32_t>(i);
  }
  return inputs;
}

StatusOr<format::MergeResult> MergeWithProgress(const std::vector<format::MergeInput>& inputs,
                                                const std::string& output, bool always_progress) {
  StatusOr<format::MergeResult> result = [&] {
    MergeProgress drawer(always_progress);
    return format::MergeTraceFiles(
        inputs, output, [&drawer](uint64_t done, uint64_t total) { drawer.Update(done, total); });
  }();
  if (result.ok()) {
    for (const std::string& line : result->problems)
      Warn(line);
  }
  return result;
}

std::string MergeSummary(const std::string& output, size_t processes,
                         const format::MergeResult& result) {
  const size_t problems = result.problems.size();
  return fmt::format("merged {} process{} into {}: {} chunk{}, {}, {}", processes,
                     processes == 1 ? "" : "es", output, FormatCount(result.chunks),
                     result.chunks == 1 ? "" : "s", FormatBytes(result.bytes),
                     problems == 0   ? std::string("no problems")
                     : problems == 1 ? std::string("1 problem")
                                     : fmt::format("{} problems", problems));
}

}  // namespace plx::cli
