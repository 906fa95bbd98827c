// Communication and RMA matrices: one pass over the matched pairs or the RMA
// records into dense processes x processes cells. Latency means are summed as
// doubles (exact to 2^53 ns of total latency, far beyond any trace).
#include "analysis/comm_matrix.h"

#include <algorithm>

namespace plx::analysis {

namespace {

uint32_t ProcessOf(const model::Trace& trace, uint32_t thread) {
  return thread < trace.threads.size() ? trace.threads[thread].process : model::kNone;
}

}  // namespace

CommMatrix ComputeCommMatrix(const model::Trace& trace) {
  return ComputeCommMatrix(trace, time::MatchMessages(trace));
}

CommMatrix ComputeCommMatrix(const model::Trace& trace, const time::MessagePairs& pairs) {
  const model::MessageTable& m = trace.messages;
  const size_t n = trace.processes.size();
  CommMatrix out;
  out.processes = n;
  out.cells.resize(n * n);
  out.unmatched_sends.assign(n, 0);
  out.unmatched_recvs.assign(n, 0);
  std::vector<double> latency_sum(n * n, 0.0);
  for (const time::MessagePair& pair : pairs.pairs) {
    const uint32_t from = ProcessOf(trace, m.thread[pair.send]);
    const uint32_t to = ProcessOf(trace, m.thread[pair.recv]);
    if (from >= n || to >= n) continue;
    CommCell& cell = out.cells[from * n + to];
    const int64_t latency = m.time[pair.recv] - m.time[pair.send];
    cell.max_latency_ns = cell.count == 0 ? latency : std::max(cell.max_latency_ns, latency);
    ++cell.count;
    cell.bytes += m.bytes[pair.send];
    latency_sum[from * n + to] += static_cast<double>(latency);
    ++out.messages;
    out.bytes += m.bytes[pair.send];
  }
  for (size_t i = 0; i < out.cells.size(); ++i)
    if (out.cells[i].count > 0)
      out.cells[i].mean_latency_ns = latency_sum[i] / static_cast<double>(out.cells[i].count);
  for (uint32_t row : pairs.unmatched_sends)
    if (const uint32_t p = ProcessOf(trace, m.thread[row]); p < n) ++out.unmatched_sends[p];
  for (uint32_t row : pairs.unmatched_recvs)
    if (const uint32_t p = ProcessOf(trace, m.thread[row]); p < n) ++out.unmatched_recvs[p];
  return out;
}

RmaMatrix ComputeRmaMatrix(const model::Trace& trace) {
  const size_t n = trace.processes.size();
  RmaMatrix out;
  out.processes = n;
  out.cells.resize(n * n);

  // World rank -> process. Ranks are dense in MPI runs; a rank far beyond
  // the process count (damaged input) is simply unmapped.
  int64_t max_rank = -1;
  for (const model::Process& p : trace.processes)
    max_rank = std::max(max_rank, p.rank);
  const bool by_rank = max_rank >= 0;
  std::vector<uint32_t> process_of_rank;
  if (by_rank) {
    process_of_rank.assign(static_cast<size_t>(std::min<int64_t>(max_rank, 4 * n + 1024)) + 1,
                           model::kNone);
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t r = trace.processes[i].rank;
      if (r >= 0 && static_cast<uint64_t>(r) < process_of_rank.size()) process_of_rank[r] = i;
    }
  }
  auto process = [&](int64_t id) -> uint32_t {
    if (id < 0) return model::kNone;
    if (by_rank)
      return static_cast<uint64_t>(id) < process_of_rank.size() ? process_of_rank[id]
                                                                : model::kNone;
    return static_cast<uint64_t>(id) < n ? static_cast<uint32_t>(id) : model::kNone;
  };

  const model::RmaTable& r = trace.rma;
  for (size_t row = 0; row < r.size(); ++row) {
    const uint32_t origin = process(r.origin[row]);
    const uint32_t target = process(r.target[row]);
    if (origin == model::kNone || target == model::kNone) {
      ++out.unmapped;
      continue;
    }
    RmaCell& cell = out.cells[origin * n + target];
    const uint8_t op = std::min<uint8_t>(r.op[row], kRmaOther);
    ++cell.count;
    cell.bytes += r.bytes[row];
    ++cell.op_count[op];
    cell.op_bytes[op] += r.bytes[row];
    ++out.operations;
    out.bytes += r.bytes[row];
  }
  return out;
}

}  // namespace plx::analysis
