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
