// The offset of this rank's CLOCK_MONOTONIC to rank 0's, measured by
// ping-pong over a private communicator: the exchange with the least
// round-trip time wins (its error is at most half that round trip).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace plx::mpi {

struct ClockOffset {
  uint64_t local_ns = 0;  // when (this rank's clock)
  int64_t offset_ns = 0;  // add to this rank's time to get rank 0's
  uint64_t error_ns = 0;  // half the least round trip
};

/// Collective over `comm` (rank 0 is the reference); `rounds` exchanges per
/// rank. A rank that shares rank 0's clock (`shared`: same kernel, so the same
/// CLOCK_MONOTONIC) knows its offset exactly: 0, no exchange.
ClockOffset MeasureClockOffset(MPI_Comm comm, int rounds, bool shared);

/// Whether this process runs on the same kernel as `comm`'s rank 0 (same
/// boot id); collective. PLX_MPI_CLOCK=measure makes it false everywhere.
bool SharesClockWithRoot(MPI_Comm comm);

uint64_t MonotonicNs();

}  // namespace plx::mpi
