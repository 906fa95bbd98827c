// ClassifyMpiCall: a table of the point-to-point, completion, probe and
// collective functions; names are matched exactly, the nonblocking collectives
// by their "MPI_I" prefix.
#include "analysis/mpi_calls.h"

#include <array>
#include <cctype>
#include <string>

namespace plx::analysis {

namespace {

struct Entry {
  std::string_view name;
  uint16_t flags;
};

constexpr uint16_t kB = kMpiBlocking;

constexpr std::array kCalls = {
    Entry{"MPI_Send", kMpiSend | kB | kMpiSendMayWait},
    Entry{"MPI_Ssend", kMpiSend | kB | kMpiSendMayWait},
    Entry{"MPI_Bsend", kMpiSend | kB},
    Entry{"MPI_Rsend", kMpiSend | kB},
    Entry{"MPI_Sendrecv", kMpiSend | kMpiRecv | kB | kMpiSendMayWait},
    Entry{"MPI_Sendrecv_replace", kMpiSend | kMpiRecv | kB | kMpiSendMayWait},
    Entry{"MPI_Recv", kMpiRecv | kB},
    Entry{"MPI_Mrecv", kMpiRecv | kB},
    Entry{"MPI_Isend", kMpiSend},
    Entry{"MPI_Issend", kMpiSend},
    Entry{"MPI_Ibsend", kMpiSend},
    Entry{"MPI_Irsend", kMpiSend},
    Entry{"MPI_Irecv", kMpiRecv},
    Entry{"MPI_Imrecv", kMpiRecv},
    Entry{"MPI_Wait", kMpiComplete | kB},
    Entry{"MPI_Waitall", kMpiComplete | kB},
    Entry{"MPI_Waitany", kMpiComplete | kB},
    Entry{"MPI_Waitsome", kMpiComplete | kB},
    Entry{"MPI_Test", kMpiComplete},
    Entry{"MPI_Testall", kMpiComplete},
    Entry{"MPI_Testany", kMpiComplete},
    Entry{"MPI_Testsome", kMpiComplete},
    Entry{"MPI_Probe", kMpiProbe | kB},
    Entry{"MPI_Mprobe", kMpiProbe | kB},
    Entry{"MPI_Iprobe", kMpiProbe},
    Entry{"MPI_Improbe", kMpiProbe},
    Entry{"MPI_Barrier", kMpiCollective | kB},
    Entry{"MPI_Bcast", kMpiCollective | kB},
    Entry{"MPI_Gather", kMpiCollective | kB},
    Entry{"MPI_Gatherv", kMpiCollective | kB},
    Entry{"MPI_Scatter", kMpiCollective | kB},
    Entry{"MPI_Scatterv", kMpiCollective | kB},
    Entry{"MPI_Allgather", kMpiCollective | kB},
    Entry{"MPI_Allgatherv", kMpiCollective | kB},
    Entry{"MPI_Alltoall", kMpiCollective | kB},
    Entry{"MPI_Alltoallv", kMpiCollective | kB},
    Entry{"MPI_Alltoallw", kMpiCollective | kB},
    Entry{"MPI_Reduce", kMpiCollective | kB},
    Entry{"MPI_Allreduce", kMpiCollective | kB},
    Entry{"MPI_Reduce_scatter", kMpiCollective | kB},
    Entry{"MPI_Reduce_scatter_block", kMpiCollective | kB},
    Entry{"MPI_Scan", kMpiCollective | kB},
    Entry{"MPI_Exscan", kMpiCollective | kB},
    Entry{"MPI_Neighbor_allgather", kMpiCollective | kB},
    Entry{"MPI_Neighbor_allgatherv", kMpiCollective | kB},
    Entry{"MPI_Neighbor_alltoall", kMpiCollective | kB},
    Entry{"MPI_Neighbor_alltoallv", kMpiCollective | kB},
    Entry{"MPI_Neighbor_alltoallw", kMpiCollective | kB},
    // Collective over the communicator's members too: a member that never
    // calls them holds the others.
    Entry{"MPI_Comm_dup", kMpiCollective | kB},
    Entry{"MPI_Comm_split", kMpiCollective | kB},
    Entry{"MPI_Comm_create", kMpiCollective | kB},
    Entry{"MPI_Win_fence", kMpiCollective | kB},
    Entry{"MPI_Finalize", kMpiCollective | kB},
};

}  // namespace

uint16_t ClassifyMpiCall(std::string_view name) {
  if (name.substr(0, 4) != "MPI_") return 0;
  for (const Entry& e : kCalls)
    if (e.name == name) return e.flags;
  // The nonblocking collectives: "MPI_I" + a blocking collective's name.
  if (name.substr(0, 5) == "MPI_I" && name.size() > 5) {
    std::string blocking = "MPI_";
    blocking += static_cast<char>(std::toupper(static_cast<unsigned char>(name[5])));
    blocking.append(name.substr(6));
    for (const Entry& e : kCalls)
      if (e.name == blocking && (e.flags & kMpiCollective) != 0) return kMpiCollective;
  }
  return kMpiOther;
}

std::vector<uint16_t> ClassifyStates(const model::Trace& trace) {
  std::vector<uint16_t> out(trace.states.size());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = ClassifyMpiCall(trace.states[i].name);
  return out;
}

}  // namespace plx::analysis
