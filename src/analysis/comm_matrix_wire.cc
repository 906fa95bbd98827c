// The matrix builders as bytes (base/wire.h): the totals, the unmatched
// counts per process, then every cell with its key. Cells are read whole
// before any is merged, so bytes that are cut merge nothing.
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "analysis/comm_matrix.h"
#include "base/wire.h"

namespace plx::analysis {

static_assert(std::is_trivially_copyable_v<CommCell>);
static_assert(std::is_trivially_copyable_v<RmaCell>);

std::string CommMatrixBuilder::Save() const {
  std::string out;
  WirePut(&out, uint64_t{m_.processes});
  for (size_t p = 0; p < m_.processes; ++p) {
    WirePut(&out, m_.unmatched_sends[p]);
    WirePut(&out, m_.unmatched_recvs[p]);
  }
  WirePut(&out, m_.messages);
  WirePut(&out, m_.bytes);
  WirePut(&out, uint64_t{cells_.size()});
  for (size_t i = 0; i < cells_.size(); ++i) {
    WirePut(&out, slots_.keys()[i]);
    WirePut(&out, cells_[i]);
    WirePut(&out, latency_sum_[i]);
  }
  return out;
}

Status CommMatrixBuilder::MergeSaved(std::string_view saved) {
  WireReader in(saved);
  const size_t n = m_.processes;
  uint64_t processes = 0;
  if (!in.Get(&processes) || processes != n)
    return InvalidArgument("saved matrix: process count " + std::to_string(processes) +
                           ", the trace has " + std::to_string(n));
  std::vector<uint64_t> sends(n), recvs(n);
  for (size_t p = 0; p < n; ++p)
    if (!in.Get(&sends[p]) || !in.Get(&recvs[p]))
      return InvalidArgument("saved matrix: the unmatched counts are cut");
  uint64_t messages = 0, bytes = 0, cells = 0;
  if (!in.Get(&messages) || !in.Get(&bytes) || !in.Get(&cells) || cells > uint64_t{n} * n)
    return InvalidArgument("saved matrix: bad totals or cell count");
  struct Saved {
    uint64_t key;
    CommCell cell;
    __int128 latency_sum;
  };
  std::vector<Saved> read;  // grown as read: a damaged count allocates nothing
  for (uint64_t i = 0; i < cells; ++i) {
    Saved c;
    if (!in.Get(&c.key) || !in.Get(&c.cell) || !in.Get(&c.latency_sum) || c.key >= uint64_t{n} * n)
      return InvalidArgument("saved matrix: a cell is cut or out of range");
    read.push_back(c);
  }
  if (!in.done()) return InvalidArgument("saved matrix: bytes after the last cell");
  for (const Saved& c : read)
    AddCell(c.key, c.cell, c.latency_sum);
  for (size_t p = 0; p < n; ++p) {
    m_.unmatched_sends[p] += sends[p];
    m_.unmatched_recvs[p] += recvs[p];
  }
  m_.messages += messages;
  m_.bytes += bytes;
  return Status::Ok();
}

std::string RmaMatrixBuilder::Save() const {
  std::string out;
  WirePut(&out, uint64_t{m_.processes});
  WirePut(&out, m_.operations);
  WirePut(&out, m_.bytes);
  WirePut(&out, m_.unmapped);
  WirePut(&out, uint64_t{cells_.size()});
  for (size_t i = 0; i < cells_.size(); ++i) {
    WirePut(&out, slots_.keys()[i]);
    WirePut(&out, cells_[i]);
  }
  return out;
}

Status RmaMatrixBuilder::MergeSaved(std::string_view saved) {
  WireReader in(saved);
  const size_t n = m_.processes;
  uint64_t processes = 0, operations = 0, bytes = 0, unmapped = 0, cells = 0;
  if (!in.Get(&processes) || processes != n)
    return InvalidArgument("saved RMA matrix: process count " + std::to_string(processes) +
                           ", the trace has " + std::to_string(n));
  if (!in.Get(&operations) || !in.Get(&bytes) || !in.Get(&unmapped) || !in.Get(&cells) ||
      cells > uint64_t{n} * n)
    return InvalidArgument("saved RMA matrix: bad totals or cell count");
  std::vector<std::pair<uint64_t, RmaCell>> read;
  for (uint64_t i = 0; i < cells; ++i) {
    std::pair<uint64_t, RmaCell> c;
    if (!in.Get(&c.first) || !in.Get(&c.second) || c.first >= uint64_t{n} * n)
      return InvalidArgument("saved RMA matrix: a cell is cut or out of range");
    read.push_back(c);
  }
  if (!in.done()) return InvalidArgument("saved RMA matrix: bytes after the last cell");
  for (const auto& [key, cell] : read)
    AddCell(key, cell);
  m_.operations += operations;
  m_.bytes += bytes;
  m_.unmapped += unmapped;
  return Status::Ok();
}

}  // namespace plx::analysis
