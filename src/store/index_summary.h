// The timeline summary section of the trace index (docs/format.md, "The
// trace index"): the repair it was built on, then every thread's level-0
// buckets as varints (the levels above are rebuilt when it is read).
#pragma once

#include <string>

#include "base/status.h"
#include "model/trace.h"
#include "store/index_codec.h"
#include "store/index_file.h"

namespace plx::store {

void PutSummary(IndexWriter* w, const IndexedSummary& summary);
/// False on any damage (then `summary` is partly filled).
bool GetSummary(IndexReader* r, IndexedSummary* summary);

/// Checks that a decoded summary fits the trace: a summary per thread, and
/// every state, event type and counter it names defined (`trace`: the
/// model of definitions).
Status CheckSummaryFits(const TimelineSummary& summary, const model::Trace& trace,
                        const std::string& name);

}  // namespace plx::store
