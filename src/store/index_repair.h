// The repair section of the trace index (docs/format.md, "The trace
// index"): a causal repair's options, report and time maps as varints.
#pragma once

#include <string>

#include "base/status.h"
#include "store/index_codec.h"
#include "store/index_file.h"

namespace plx::store {

void PutRepairOptions(IndexWriter* w, const time::RepairOptions& options);
bool GetRepairOptions(IndexReader* r, time::RepairOptions* options);

void PutRepairReport(IndexWriter* w, const time::RepairReport& report);
bool GetRepairReport(IndexReader* r, time::RepairReport* report);
/// Checks that a report names threads and rows that exist (CheckRepairFits).
Status CheckRepairReportFits(const time::RepairReport& report, uint32_t threads,
                             const RowCounts& totals, const std::string& name);

void PutRepair(IndexWriter* w, const IndexedRepair& repair);
/// False on any damage (then `repair` is partly filled).
bool GetRepair(IndexReader* r, IndexedRepair* repair);

}  // namespace plx::store
