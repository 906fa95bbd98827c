// Causal repair spread over a Group. Each process decodes its share of the
// threads and pairs the messages it joins (distributed/group_spread.h);
// after every slab the pairs (32 bytes each, never the records) and the
// collective records go to process 0, whose window solver alone computes
// the shifts: it is one sequential fixpoint in `parallax` too, on a thread
// of its own beside the pairing. Process 0 then hands each process its
// threads' time maps, which the passes on the repaired times need.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/status.h"
#include "distributed/group.h"
#include "store/stream_repair.h"
#include "store/trace_store.h"
#include "time/causal_repair.h"

namespace plx::distributed {

/// store::StreamRepair's answer: the report on process 0 (less what
/// applying the maps measures, as there), and on every process the maps of
/// the threads it decodes (process 0: of every thread; other threads'
/// maps are the identity). The repair kept in the trace's index is used
/// when every process finds it; else process 0 keeps the one computed. An
/// error on any process is an error on all.
StatusOr<store::StreamedRepair> SpreadRepair(
    const store::TraceStore& store, Group& group, const time::RepairOptions& options,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

/// store::MeasureTimeMaps over every process's threads (`maps` as
/// SpreadRepair leaves them), on process 0; a count and maxima, so exact.
StatusOr<time::TimeMapStats> SpreadTimeMapStats(
    const store::TraceStore& store, Group& group, const std::vector<time::ThreadTimeMap>& maps,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::distributed
