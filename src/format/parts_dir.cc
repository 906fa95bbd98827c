// Parts directories: listing their rank-<R>.plx and pid-<PID>.plx files.
#include "format/parts_dir.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace plx::format {

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

}  // namespace

StatusOr<std::vector<MergeInput>> ListParts(const std::string& dir) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) return IoError(dir + ": " + ec.message());
  std::vector<MergeInput> ranks, pids;  // pids: numbered by pid for now
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    uint32_t n = 0;
    const std::string name = it->path().filename().string();
    if (ParsePartName(name, "rank-", &n)) ranks.push_back({it->path().string(), n});
    if (ParsePartName(name, "pid-", &n)) pids.push_back({it->path().string(), n});
  }
  if (ec) return IoError(dir + ": " + ec.message());
  if (ranks.empty() && pids.empty())
    return NotFound(dir + ": no rank-<R>.plx or pid-<PID>.plx files in it");
  auto by_number = [](const MergeInput& a, const MergeInput& b) {
    return a.process != b.process ? a.process < b.process : a.path < b.path;
  };
  std::sort(ranks.begin(), ranks.end(), by_number);
  std::sort(pids.begin(), pids.end(), by_number);
  uint32_t next = ranks.empty() ? 0 : ranks.back().process + 1;
  for (MergeInput& in : pids) {
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

}  // namespace plx::format
