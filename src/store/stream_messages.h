// Messages over a trace store: how many pair and how many are left, and the
// communication matrix between processes — what time::MatchMessages and
// analysis::ComputeCommMatrix give on the whole model, from one message pass.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/comm_matrix.h"
#include "store/message_pass.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

struct StreamedMessages {
  uint64_t pairs = 0;
  uint64_t unmatched_sends = 0;
  uint64_t unmatched_recvs = 0;
  analysis::CommMatrix matrix;
};

/// With `maps` (per thread), the latencies are on the repaired times. With
/// `selection` (on those times), only what it contains: the pairs both of
/// whose records, and the records left without a partner (as
/// analysis::ComputeCommMatrix with a selection).
StreamedMessages StreamMessages(const TraceStore& store,
                                const std::function<void(uint64_t, uint64_t)>& progress = {},
                                const std::vector<time::ThreadTimeMap>* maps = nullptr,
                                const analysis::Selection* selection = nullptr);

/// The same before the matrix is finished: what the processes of a spread
/// pass (`spread`, store/message_pass.h) each count of the channels they
/// join, and merge.
struct MessageSums {
  uint64_t pairs = 0;
  uint64_t unmatched_sends = 0;
  uint64_t unmatched_recvs = 0;
  analysis::CommMatrixBuilder matrix{0};
};
MessageSums StreamMessageSums(const TraceStore& store,
                              const std::function<void(uint64_t, uint64_t)>& progress,
                              const std::vector<time::ThreadTimeMap>* maps,
                              const analysis::Selection* selection, PassSpread* spread);

/// The RMA matrix (analysis::ComputeRmaMatrix) from a thread pass.
analysis::RmaMatrix StreamRmaMatrix(const TraceStore& store,
                                    const std::function<void(uint64_t, uint64_t)>& progress = {});
/// Its builder over the threads `only` takes (all when empty).
analysis::RmaMatrixBuilder StreamRmaBuilder(const TraceStore& store,
                                            const std::function<void(uint64_t, uint64_t)>& progress,
                                            const std::function<bool(uint32_t thread)>& only);

}  // namespace plx::store
