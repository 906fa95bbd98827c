// Messages spread over a Group, as Scalasca's parallel replay matches them:
// each process decodes its share of the threads (distributed/share.h) and,
// slab by slab, sends each message record to the process that joins its
// channel (store/message_pass.h, PassSpread); that process pairs it with
// the records the others sent. Nothing is gathered but the counts. Process
// 0 then merges every process's sums: exact integers, so its answer is
// store::StreamMessages's to the bit.
#pragma once

#include <cstdint>
#include <functional>

#include "analysis/comm_matrix.h"
#include "base/status.h"
#include "distributed/group.h"
#include "store/stream_messages.h"
#include "store/trace_store.h"

namespace plx::distributed {

/// On process 0 the pairs, unmatched records and communication matrix of
/// the whole trace (or of what `selection` covers); elsewhere empty. An
/// error on any process is an error on all.
StatusOr<store::StreamedMessages> SpreadMessages(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const analysis::Selection* selection = nullptr);

/// On process 0 the RMA matrix, each process counting its threads' records.
StatusOr<analysis::RmaMatrix> SpreadRmaMatrix(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::distributed
