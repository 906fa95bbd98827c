// LoadModel from a TraceStore: the whole in-memory model, decoded chunk by
// chunk on every core straight into its place in the tables (the skeleton
// says where each chunk's rows go), so even a one-thread trace loads in
// parallel and nothing is copied twice. The result equals model::LoadTrace.
#pragma once

#include <cstdint>
#include <functional>

#include "base/status.h"
#include "model/trace.h"
#include "store/trace_store.h"

namespace plx::store {

/// The model of the store's trace. `progress(records done, records)` may be
/// empty; it is called from the workers, one call at a time.
StatusOr<model::Trace> LoadModel(const TraceStore& store,
                                 const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
