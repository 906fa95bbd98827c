// Communication and RMA matrices: one pass over the matched pairs or the RMA
// records into the cells they touch, by builders that also take them in
// parts. Latencies are summed exactly (128-bit), so the mean does not depend
// on the order pairs come in.
#include "analysis/comm_matrix.h"

#include <algorithm>

namespace plx::analysis {

namespace {

uint32_t ProcessOf(const model::Trace& trace, uint32_t thread) {
  return thread < trace.threads.size() ? trace.threads[thread].process : model::kNone;
}

template <typename Cell>
const Cell& CellAt(const std::vector<uint64_t>& keys, const std::vector<Cell>& cells,
                   uint64_t key) {
  static const Cell kEmpty{};
  const auto it = std::lower_bound(keys.begin(), keys.end(), key);
  return it != keys.end() && *it == key ? cells[static_cast<size_t>(it - keys.begin())] : kEmpty;
}

// The builder's cells (one per slot) in key order, into `keys` and `cells`.
template <typename Cell>
void SortedCells(const CellSlots& slots, const std::vector<Cell>& by_slot,
                 std::vector<uint64_t>* keys, std::vector<Cell>* cells) {
  const std::vector<uint32_t> order = slots.Sorted();
  keys->clear();
  cells->clear();
  keys->reserve(order.size());
  cells->reserve(order.size());
  for (uint32_t s : order) {
    keys->push_back(slots.keys()[s]);
    cells->push_back(by_slot[s]);
  }
}

}  // namespace

const CommCell& CommMatrix::at(size_t sender, size_t receiver) const {
  return CellAt(keys, cells, uint64_t{sender} * processes + receiver);
}

const RmaCell& RmaMatrix::at(size_t origin, size_t target) const {
  return CellAt(keys, cells, uint64_t{origin} * processes + target);
}

CellSlots::CellSlots(size_t processes) {
  const uint64_t cells = uint64_t{processes} * processes;
  if (cells <= kFlatCells) flat_.assign(static_cast<size_t>(cells), 0);
}

uint32_t CellSlots::Find(uint64_t key) {
  const auto next = static_cast<uint32_t>(keys_.size());
  if (key < flat_.size()) {
    uint32_t& slot = flat_[static_cast<size_t>(key)];
    if (slot != 0) return slot - 1;
    slot = next + 1;
  } else if (!map_.try_emplace(key, next).second) {
    return map_.find(key)->second;
  }
  keys_.push_back(key);
  return next;
}

std::vector<uint32_t> CellSlots::Sorted() const {
  std::vector<uint32_t> order(keys_.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
  return order;
}

CommMatrix ComputeCommMatrix(const model::Trace& trace) {
  return ComputeCommMatrix(trace, time::MatchMessages(trace));
}

CommMatrixBuilder::CommMatrixBuilder(size_t processes) : slots_(processes) {
  m_.processes = processes;
  m_.unmatched_sends.assign(processes, 0);
  m_.unmatched_recvs.assign(processes, 0);
}

uint32_t CommMatrixBuilder::Slot(uint64_t key) {
  const uint32_t slot = slots_.Find(key);
  if (slot == cells_.size()) {
    cells_.emplace_back();
    latency_sum_.push_back(0);
  }
  return slot;
}

void CommMatrixBuilder::AddPair(uint32_t from, uint32_t to, uint64_t bytes, int64_t latency) {
  const size_t n = m_.processes;
  if (from >= n || to >= n) return;
  const uint32_t slot = Slot(uint64_t{from} * n + to);
  CommCell& cell = cells_[slot];
  cell.max_latency_ns = cell.count == 0 ? latency : std::max(cell.max_latency_ns, latency);
  ++cell.count;
  cell.bytes += bytes;
  latency_sum_[slot] += latency;
  ++m_.messages;
  m_.bytes += bytes;
}

void CommMatrixBuilder::AddUnmatched(uint32_t process, bool send) {
  if (process < m_.processes) ++(send ? m_.unmatched_sends : m_.unmatched_recvs)[process];
}

void CommMatrixBuilder::AddCell(uint64_t key, const CommCell& b, __int128 latency_sum) {
  const uint32_t slot = Slot(key);
  CommCell& a = cells_[slot];
  a.max_latency_ns = a.count == 0 ? b.max_latency_ns : std::max(a.max_latency_ns, b.max_latency_ns);
  a.count += b.count;
  a.bytes += b.bytes;
  latency_sum_[slot] += latency_sum;
}

void CommMatrixBuilder::Merge(const CommMatrixBuilder& o) {
  for (uint32_t i = 0; i < o.cells_.size(); ++i)
    AddCell(o.slots_.keys()[i], o.cells_[i], o.latency_sum_[i]);
  for (size_t p = 0; p < m_.processes; ++p) {
    m_.unmatched_sends[p] += o.m_.unmatched_sends[p];
    m_.unmatched_recvs[p] += o.m_.unmatched_recvs[p];
  }
  m_.messages += o.m_.messages;
  m_.bytes += o.m_.bytes;
}

CommMatrix CommMatrixBuilder::Finish() const {
  std::vector<CommCell> cells = cells_;
  for (size_t i = 0; i < cells.size(); ++i)
    cells[i].mean_latency_ns =
        static_cast<double>(latency_sum_[i]) / static_cast<double>(cells[i].count);
  CommMatrix out = m_;
  SortedCells(slots_, cells, &out.keys, &out.cells);
  return out;
}

CommMatrix ComputeCommMatrix(const model::Trace& trace, const time::MessagePairs& pairs,
                             const Selection* selection) {
  const model::MessageTable& m = trace.messages;
  const auto in = [&](uint32_t row) {
    return selection == nullptr || selection->Contains(m.thread[row], m.time[row]);
  };
  CommMatrixBuilder builder(trace.processes.size());
  for (const time::MessagePair& pair : pairs.pairs)
    if (in(pair.send) && in(pair.recv))
      builder.AddPair(ProcessOf(trace, m.thread[pair.send]), ProcessOf(trace, m.thread[pair.recv]),
                      m.bytes[pair.send], m.time[pair.recv] - m.time[pair.send]);
  for (uint32_t row : pairs.unmatched_sends)
    if (in(row)) builder.AddUnmatched(ProcessOf(trace, m.thread[row]), true);
  for (uint32_t row : pairs.unmatched_recvs)
    if (in(row)) builder.AddUnmatched(ProcessOf(trace, m.thread[row]), false);
  return builder.Finish();
}

RmaMatrixBuilder::RmaMatrixBuilder(const model::Trace& trace) : slots_(trace.processes.size()) {
  const size_t n = trace.processes.size();
  m_.processes = n;
  // World rank -> process. Ranks are dense in MPI runs; a rank far beyond
  // the process count (damaged input) is simply unmapped.
  int64_t max_rank = -1;
  for (const model::Process& p : trace.processes)
    max_rank = std::max(max_rank, p.rank);
  by_rank_ = max_rank >= 0;
  if (by_rank_) {
    process_of_rank_.assign(static_cast<size_t>(std::min<int64_t>(max_rank, 4 * n + 1024)) + 1,
                            model::kNone);
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t r = trace.processes[i].rank;
      if (r >= 0 && static_cast<uint64_t>(r) < process_of_rank_.size()) process_of_rank_[r] = i;
    }
  }
}

uint32_t RmaMatrixBuilder::Process(int64_t id) const {
  if (id < 0) return model::kNone;
  if (by_rank_)
    return static_cast<uint64_t>(id) < process_of_rank_.size() ? process_of_rank_[id]
                                                               : model::kNone;
  return static_cast<uint64_t>(id) < m_.processes ? static_cast<uint32_t>(id) : model::kNone;
}

void RmaMatrixBuilder::AddRows(const model::RmaTable& r, size_t begin, size_t end) {
  const size_t n = m_.processes;
  for (size_t row = begin; row < end; ++row) {
    const uint32_t origin = Process(r.origin[row]);
    const uint32_t target = Process(r.target[row]);
    if (origin == model::kNone || target == model::kNone) {
      ++m_.unmapped;
      continue;
    }
    RmaCell& cell = cells_[Slot(uint64_t{origin} * n + target)];
    const uint8_t op = std::min<uint8_t>(r.op[row], kRmaOther);
    ++cell.count;
    cell.bytes += r.bytes[row];
    ++cell.op_count[op];
    cell.op_bytes[op] += r.bytes[row];
    ++m_.operations;
    m_.bytes += r.bytes[row];
  }
}

uint32_t RmaMatrixBuilder::Slot(uint64_t key) {
  const uint32_t slot = slots_.Find(key);
  if (slot == cells_.size()) cells_.emplace_back();
  return slot;
}

void RmaMatrixBuilder::AddCell(uint64_t key, const RmaCell& b) {
  RmaCell& a = cells_[Slot(key)];
  a.count += b.count;
  a.bytes += b.bytes;
  for (size_t k = 0; k < 4; ++k) {
    a.op_count[k] += b.op_count[k];
    a.op_bytes[k] += b.op_bytes[k];
  }
}

void RmaMatrixBuilder::Merge(const RmaMatrixBuilder& o) {
  for (uint32_t i = 0; i < o.cells_.size(); ++i)
    AddCell(o.slots_.keys()[i], o.cells_[i]);
  m_.operations += o.m_.operations;
  m_.bytes += o.m_.bytes;
  m_.unmapped += o.m_.unmapped;
}

RmaMatrix RmaMatrixBuilder::matrix() const {
  RmaMatrix out = m_;
  SortedCells(slots_, cells_, &out.keys, &out.cells);
  return out;
}

RmaMatrix ComputeRmaMatrix(const model::Trace& trace) {
  RmaMatrixBuilder builder(trace);
  builder.AddRows(trace.rma, 0, trace.rma.size());
  return builder.matrix();
}

}  // namespace plx::analysis
