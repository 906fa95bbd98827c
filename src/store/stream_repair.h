// Causal repair over a trace store (time::RepairCausality): one message
// pass whose pairs and collective instances become constraint groups for a
// WindowSolver. The result is the report (less what applying the maps
// measures: events moved, largest shift and duration changes, which a pass
// with the maps gives, store/time_mapper.h) and each thread's time map.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/status.h"
#include "store/trace_store.h"
#include "time/causal_repair.h"
#include "time/time_map.h"

namespace plx::store {

struct StreamedRepair {
  time::RepairReport report;
  std::vector<time::ThreadTimeMap> maps;  // per thread
};

/// What applying the maps moves (time::ApplyTimeMaps' counts), from a
/// thread pass over the trace with them.
/// With `only`, of the threads it accepts.
time::TimeMapStats MeasureTimeMaps(const TraceStore& store,
                                   const std::vector<time::ThreadTimeMap>& maps,
                                   const std::function<void(uint64_t, uint64_t)>& progress = {},
                                   const std::function<bool(uint32_t thread)>& only = {});

/// The definitions-only model with the threads' spans (and so the trace's)
/// moved by the maps, as ApplyTimeMaps moves them.
model::Trace RepairedDefinitions(const model::Trace& trace,
                                 const std::vector<time::ThreadTimeMap>& maps);

/// How the repair's message pass is cut: records per slab and the first
/// horizon tried (store/message_pass.h). Tests make both tiny, for many
/// slabs and attempts that stop early; the answer does not depend on them.
struct RepairPassSize {
  uint64_t slab_records = 4'000'000;
  int64_t horizon_ns = 100'000'000;
};

/// Whether `options` can be repaired over a store (as StreamRepair checks).
Status CheckRepairOptions(const time::RepairOptions& options);

class PassSpread;

/// The repair's passes without the index (StreamRepair looks there first
/// and keeps what this computes). With `spread`, over the processes of an
/// MPI job (distributed/spread_repair.h): each pairs the messages it joins,
/// and after every slab sends its pairs (32 bytes each) and its threads'
/// collective records to process 0, whose solver alone takes them (its
/// fixpoint does not depend on the order constraints come in, and equal
/// repairs are ordered by row); the result is then process 0's, empty
/// elsewhere.
StatusOr<StreamedRepair> SolveRepair(const TraceStore& store, const time::RepairOptions& options,
                                     const std::function<void(uint64_t, uint64_t)>& progress = {},
                                     const RepairPassSize& size = {}, PassSpread* spread = nullptr);

StatusOr<StreamedRepair> StreamRepair(const TraceStore& store,
                                      const time::RepairOptions& options = {},
                                      const std::function<void(uint64_t, uint64_t)>& progress = {},
                                      const RepairPassSize& size = {});

}  // namespace plx::store
