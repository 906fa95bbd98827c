// What an MPI call does, from its state name ("MPI_Recv", "MPI_Waitall"):
// the recording makes every MPI call a slice named after the function, so wait
// states, the critical path and deadlock detection classify slices by name.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace plx::analysis {

/// Bits of what a call does; 0 = not an MPI call this analysis knows.
enum MpiCallFlags : uint16_t {
  kMpiSend = 1 << 0,        // starts a send (MPI_Send, MPI_Isend, MPI_Sendrecv, ...)
  kMpiRecv = 1 << 1,        // posts a receive (MPI_Recv, MPI_Irecv, MPI_Sendrecv, MPI_Mrecv)
  kMpiComplete = 1 << 2,    // completes requests (MPI_Wait*, MPI_Test*)
  kMpiCollective = 1 << 3,  // a collective operation (MPI_Barrier, MPI_Ibcast, ...)
  kMpiProbe = 1 << 4,       // MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe
  // Returns only once the operation progressed far enough that it may wait
  // for another process: the calls of the blocking variants and MPI_Wait*.
  kMpiBlocking = 1 << 5,
  // A blocking send that may wait for its receiver to post (MPI_Send,
  // MPI_Ssend, MPI_Sendrecv[_replace]; not MPI_Bsend, which buffers, nor
  // MPI_Rsend, whose receive must already be posted).
  kMpiSendMayWait = 1 << 6,
  kMpiOther = 1 << 7,  // another function whose name starts with "MPI_"
};

/// The MpiCallFlags of an MPI function name; 0 for names not starting "MPI_".
uint16_t ClassifyMpiCall(std::string_view name);

/// ClassifyMpiCall of every state of the trace, indexed by state.
std::vector<uint16_t> ClassifyStates(const model::Trace& trace);

/// Whether a call with these flags can hold its thread waiting for another
/// process's progress: blocking sends, receives, probes, collectives and waits.
inline bool IsBlockingMpiCall(uint16_t flags) {
  return (flags & kMpiBlocking) != 0;
}

}  // namespace plx::analysis
