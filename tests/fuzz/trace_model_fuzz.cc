// libFuzzer target for what interprets records: the model loader (definition
// merging, slice nesting, tick conversion, clock correction), the state
// statistics and message matching, on inputs opened as traces (as they are,
// and with their chunk checksums repaired).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "time/message_pairs.h"
#include "analysis/state_stats.h"
#include "format/trace_file.h"
#include "fuzz/repair_checksums.h"
#include "model/load_trace.h"

namespace {

void LoadAndSummarise(std::vector<uint8_t> bytes) {
  auto file = plx::format::TraceFile::FromBytes("fuzz.plx", std::move(bytes));
  if (!file.ok()) return;
  auto trace = plx::model::LoadTrace(**file);
  if (!trace.ok()) return;
  plx::analysis::StateStatsReport report = plx::analysis::ComputeStateStats(*trace);
  for (plx::analysis::StateOrder order :
       {plx::analysis::StateOrder::kTotal, plx::analysis::StateOrder::kName})
    plx::analysis::SortStateStats(*trace, order, &report.all.states);
  volatile double sink = 0;
  for (const plx::analysis::StateStats& s : report.all.states)
    sink = sink + s.share + s.stddev_ns;
  const plx::time::MessagePairs pairs = plx::time::MatchMessages(*trace);
  for (const plx::time::MessagePair& p : pairs.pairs)
    sink = sink + static_cast<double>(trace->messages.time[p.recv] - trace->messages.time[p.send]);
  (void)sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  LoadAndSummarise(bytes);
  plx::fuzz::RepairChecksums(&bytes);
  LoadAndSummarise(std::move(bytes));
  return 0;
}
