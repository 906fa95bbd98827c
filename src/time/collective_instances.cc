// GroupCollectives: sort the grouped rows by (communicator key, process,
// time), number each process's records on a communicator 0, 1, 2, ..., and
// give each (communicator key, k) an instance.
#include "time/collective_instances.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <unordered_map>

#include "base/status.h"
#include "time/communicator_keys.h"

namespace plx::time {

namespace {

using InstanceKey = std::array<uint64_t, 3>;  // key class, key, sequence number

struct InstanceKeyHash {
  size_t operator()(const InstanceKey& k) const {
    uint64_t h = k[0] * 0x9e3779b97f4a7c15ull ^ k[1];
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull ^ k[2];
    return static_cast<size_t>((h ^ (h >> 32)) * 0x94d049bb133111ebull);
  }
};

}  // namespace

CollectiveShape CollectiveShapeOf(uint8_t op) {
  switch (op) {
    case 1:  // barrier
    case 5:  // allgather
    case 6:  // alltoall
    case 8:  // allreduce
    case 9:  // reduce_scatter
      return CollectiveShape::kAllToAll;
    case 10:  // scan
    case 11:  // exscan
      return CollectiveShape::kPrefix;
    case 2:  // bcast
    case 4:  // scatter
      return CollectiveShape::kRootToAll;
    case 3:  // gather
    case 7:  // reduce
      return CollectiveShape::kAllToRoot;
    default:
      return CollectiveShape::kUnknown;
  }
}

CollectiveInstances GroupCollectives(const model::Trace& trace) {
  const model::CollectiveTable& c = trace.collectives;
  PLX_CHECK(c.size() < model::kNone);
  const auto keys = CommunicatorKeys(trace);
  CollectiveInstances out;
  out.instance_of.assign(c.size(), model::kNone);

  std::vector<uint32_t> rows;
  rows.reserve(c.size());
  for (uint32_t i = 0; i < c.size(); ++i)
    if (c.comm[i] < trace.communicators.size()) rows.push_back(i);
  auto process = [&](uint32_t row) { return trace.threads[c.thread[row]].process; };
  auto key = [&](uint32_t row) { return keys[c.comm[row]]; };
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    if (key(a) != key(b)) return key(a) < key(b);
    if (process(a) != process(b)) return process(a) < process(b);
    return c.time[a] != c.time[b] ? c.time[a] < c.time[b] : a < b;
  });

  // Instance numbers first in order of appearance in the sorted rows, then
  // renumbered by earliest record.
  std::unordered_map<InstanceKey, uint32_t, InstanceKeyHash> ids;
  std::vector<int64_t> earliest;
  std::vector<uint32_t> members;
  uint64_t sequence = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const uint32_t row = rows[i];
    const bool same_run =
        i > 0 && key(rows[i - 1]) == key(row) && process(rows[i - 1]) == process(row);
    sequence = same_run ? sequence + 1 : 0;
    const InstanceKey k = {static_cast<uint64_t>(key(row).first), key(row).second, sequence};
    auto [it, inserted] = ids.try_emplace(k, static_cast<uint32_t>(earliest.size()));
    if (inserted) {
      earliest.push_back(c.time[row]);
      members.push_back(static_cast<uint32_t>(trace.communicators[c.comm[row]].members.size()));
    }
    earliest[it->second] = std::min(earliest[it->second], c.time[row]);
    out.instance_of[row] = it->second;
  }

  std::vector<uint32_t> by_time(earliest.size());
  std::iota(by_time.begin(), by_time.end(), 0u);
  std::sort(by_time.begin(), by_time.end(), [&](uint32_t a, uint32_t b) {
    return earliest[a] != earliest[b] ? earliest[a] < earliest[b] : a < b;
  });
  std::vector<uint32_t> renumber(earliest.size());
  for (uint32_t i = 0; i < by_time.size(); ++i)
    renumber[by_time[i]] = i;

  // Counting sort of rows by instance; rows ascending within each.
  out.first.assign(earliest.size() + 1, 0);
  out.expected.resize(earliest.size());
  for (uint32_t i = 0; i < earliest.size(); ++i)
    out.expected[renumber[i]] = members[i];
  for (uint32_t& inst : out.instance_of) {
    if (inst == model::kNone) continue;
    inst = renumber[inst];
    ++out.first[inst + 1];
  }
  for (size_t i = 1; i < out.first.size(); ++i)
    out.first[i] += out.first[i - 1];
  out.rows.resize(rows.size());
  std::vector<uint32_t> next(out.first.begin(), out.first.end() - 1);
  for (uint32_t row = 0; row < c.size(); ++row)
    if (out.instance_of[row] != model::kNone) out.rows[next[out.instance_of[row]]++] = row;
  return out;
}

}  // namespace plx::time
