// Parts directories: listing their rank-<R>.plx and pid-<PID>.plx files.
#include "format/parts_dir.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

#include "format/trace_file.h"

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

// The number of world ranks a part's MPI_COMM_WORLD has (its members are
// uvarints: one byte without the high bit ends each); 0 when not recorded.
uint64_t WorldSize(const std::string& part) {
  auto file = TraceFile::Open(part);
  if (!file.ok()) return 0;
  for (const auto& [process, defs] : (*file)->processes()) {
    for (const auto& [id, comm] : defs.communicators) {
      if (defs.Str(comm.name) != "MPI_COMM_WORLD") continue;
      auto members = defs.communicator_members.find(id);
      if (members == defs.communicator_members.end()) continue;
      return static_cast<uint64_t>(std::count_if(members->second.begin(), members->second.end(),
                                                 [](char c) { return (c & 0x80) == 0; }));
    }
  }
  return 0;
}

// "2", "2, 5-7": sorted ranks as runs.
std::string Runs(const std::vector<uint64_t>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> MissingRanks(const std::vector<MergeInput>& parts) {
  constexpr size_t kPartsToAsk = 3;
  std::set<uint64_t> present;
  std::vector<const MergeInput*> rank_parts;
  for (const MergeInput& in : parts) {
    if (std::filesystem::path(in.path).filename().string().rfind("rank-", 0) != 0) continue;
    present.insert(in.process);
    rank_parts.push_back(&in);
  }
  uint64_t world = 0;
  for (size_t i = 0; i < rank_parts.size() && i < kPartsToAsk && world == 0; ++i)
    world = WorldSize(rank_parts[i]->path);
  std::vector<uint64_t> missing;
  for (uint64_t r = 0; r < world; ++r)
    if (present.count(r) == 0) missing.push_back(r);
  if (missing.empty()) return {};
  const bool one = missing.size() == 1;
  return {std::string(one ? "rank " : "ranks ") + Runs(missing) + " of " + std::to_string(world) +
          " (MPI_COMM_WORLD) " + (one ? "has" : "have") + " no rank-<R>.plx part; " +
          (one ? "its process is" : "their processes are") + " missing from the trace"};
}

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
