// State enter and leave records by handle: every layer that records states
// (the C API, MPI, pthread, OpenMP and function hooks) writes them through
// here, so the counter samples taken at state changes follow each one.
#pragma once

#include <cstdint>

#include "capture/fast_path.h"
#include "capture/registry.h"

namespace plx::capture {

/// Enters state `handle` (from Registry::State) now, with a call site.
inline void EnterState(uint32_t handle, uint32_t callsite = 0) {
  EmitState(HandleCategory(handle), MakeW0(kRawEnter, HandleId(handle)), callsite);
}

/// Enters state `handle` at `tick` (not before the stream's previous record);
/// a record dated in the past takes no counter samples.
inline void EnterStateAt(uint64_t tick, uint32_t handle) {
  Emit1At(tick, HandleCategory(handle), MakeW0(kRawEnter, HandleId(handle)), 0);
}

/// Leaves state `handle` now.
inline void LeaveState(uint32_t handle) {
  EmitState(HandleCategory(handle), MakeW0(kRawLeave, HandleId(handle)), 0);
}

}  // namespace plx::capture
