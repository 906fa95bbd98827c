#include "mpi/clock_offset.h"

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace plx::mpi {

namespace {
constexpr int kTag = 7001;
}

uint64_t MonotonicNs() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

bool SharesClockWithRoot(MPI_Comm comm) {
  char boot_id[64] = {0};
  if (FILE* f = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
    if (std::fgets(boot_id, sizeof boot_id, f) == nullptr) boot_id[0] = 0;
    std::fclose(f);
  }
  char root_id[64];
  std::memcpy(root_id, boot_id, sizeof root_id);
  PMPI_Bcast(root_id, sizeof root_id, MPI_CHAR, 0, comm);
  const char* mode = std::getenv("PLX_MPI_CLOCK");
  if (mode != nullptr && std::strcmp(mode, "measure") == 0) return false;
  return boot_id[0] != 0 && std::memcmp(boot_id, root_id, sizeof root_id) == 0;
}

ClockOffset MeasureClockOffset(MPI_Comm comm, int rounds, bool shared) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  // Rank 0 learns who needs the exchange.
  int mine = shared ? 1 : 0;
  std::vector<int> shared_by(static_cast<size_t>(size), 1);
  PMPI_Gather(&mine, 1, MPI_INT, shared_by.data(), 1, MPI_INT, 0, comm);
  ClockOffset best;
  if (shared || rank == 0) {
    best.local_ns = MonotonicNs();
    if (rank != 0) return best;
  }
  if (rank == 0) {
    // Answer every other rank in turn: each ping gets rank 0's clock back.
    for (int peer = 1; peer < size; ++peer) {
      if (shared_by[static_cast<size_t>(peer)]) continue;
      for (int i = 0; i < rounds; ++i) {
        uint64_t ping = 0;
        PMPI_Recv(&ping, 1, MPI_UINT64_T, peer, kTag, comm, MPI_STATUS_IGNORE);
        const uint64_t now = MonotonicNs();
        PMPI_Send(&now, 1, MPI_UINT64_T, peer, kTag, comm);
      }
    }
    return best;
  }
  uint64_t least_rtt = std::numeric_limits<uint64_t>::max();
  for (int i = 0; i < rounds; ++i) {
    const uint64_t sent = MonotonicNs();
    PMPI_Send(&sent, 1, MPI_UINT64_T, 0, kTag, comm);
    uint64_t remote = 0;
    PMPI_Recv(&remote, 1, MPI_UINT64_T, 0, kTag, comm, MPI_STATUS_IGNORE);
    const uint64_t received = MonotonicNs();
    const uint64_t rtt = received - sent;
    if (rtt < least_rtt) {
      least_rtt = rtt;
      best.local_ns = sent + rtt / 2;
      best.offset_ns = static_cast<int64_t>(remote - best.local_ns);
      best.error_ns = rtt / 2;
    }
  }
  return best;
}

}  // namespace plx::mpi
