// What the generated MPI wrappers call (tools/gen_mpi.py, spec/mpi.txt): the
// recording of one MPI call as a state, and the actions that add message,
// collective and remote-memory-access records. Compiled once per MPI flavour
// (Open MPI, MPICH): the handle types differ.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>

namespace plx::mpi {

enum Category : uint32_t { kComm = 1, kIo = 3 };  // capture's built-in categories

/// Values of the collective record's `op` field (spec/records.toml).
enum CollOp : uint32_t {
  kBarrier = 1,
  kBcast,
  kGather,
  kScatter,
  kAllgather,
  kAlltoall,
  kReduce,
  kAllreduce,
  kReduceScatter,
  kScan,
  kExscan,
  kNeighbor,
  kOtherCollective,
};

/// The state of one wrapped function, defined on first use.
struct StateSlot {
  const char* name;
  Category category;
  std::atomic<uint32_t> handle{0};
};

/// Records the call as a state when recording is on and the calling thread
/// is not already inside a wrapper (MPI calling MPI, the hooks calling PMPI).
class Call {
 public:
  explicit Call(StateSlot& state);
  /// A call that began at `enter_tick` (before the runtime could record it).
  Call(StateSlot& state, uint64_t enter_tick);
  ~Call();
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  bool on = false;  // run the actions

 private:
  uint32_t handle_ = 0;
};

// --- helpers for the table's byte and root expressions
uint64_t Bytes(int64_t count, MPI_Datatype type);
uint64_t SumBytes(const int counts[], MPI_Datatype type, MPI_Comm comm);
uint64_t SumBytesW(const int counts[], const MPI_Datatype types[], MPI_Comm comm);
int CommSize(MPI_Comm comm);
int CommRank(MPI_Comm comm);
bool IsRoot(MPI_Comm comm, int root);
/// The world rank of `root` in `comm`; -1 for MPI_PROC_NULL, MPI_ROOT and unknown.
int WorldRoot(MPI_Comm comm, int root);

// --- point-to-point
uint64_t NextRecvMatch();
/// A receive from `source` (a rank of `comm`) is posted: takes its match number
/// and records the post (none for MPI_PROC_NULL). Returns the match.
uint64_t PostRecv(int source, int tag, MPI_Comm comm);
/// A probe waits for a message: a post with match 0 (it matches no receive).
void PostProbe(int source, int tag, MPI_Comm comm);
void Send(int dest, int tag, int count, MPI_Datatype type, MPI_Comm comm);
void Recv(const MPI_Status* status, MPI_Comm comm, uint64_t match);
void TrackRecv(MPI_Request request, MPI_Comm comm, uint64_t match);
void TrackPersistentSend(MPI_Request request, int dest, int tag, int count, MPI_Datatype type,
                         MPI_Comm comm);
void TrackPersistentRecv(MPI_Request request, int source, int tag, MPI_Comm comm);
void Start(const MPI_Request* requests, int count);
void Untrack(MPI_Request request);
/// A matched probe found `message`; its receive carries `match` (from PostRecv).
void TrackMessage(MPI_Message message, MPI_Comm comm, uint64_t match);
void MessageReceived(MPI_Message message, const MPI_Status* status);
void TrackMessageRequest(MPI_Request request, MPI_Message message);

// --- completion: `request` is the handle as it was before the wait/test
void Completed(MPI_Request request, const MPI_Status* status);
void CompletedAll(int count, const MPI_Request* requests, const MPI_Status* statuses);
void CompletedSome(int outcount, const int* indices, const MPI_Request* requests,
                   const MPI_Status* statuses);
/// Copies of request handles / room for statuses, per thread (valid until the next call).
const MPI_Request* SaveRequests(const MPI_Request* requests, int count);
MPI_Status* StatusScratch(int count);

// --- collectives
void Collective(CollOp op, MPI_Comm comm, int world_root, uint64_t sent, uint64_t received);
void TrackCollective(MPI_Request request, CollOp op, MPI_Comm comm, int world_root, uint64_t sent,
                     uint64_t received);

// --- communicators and windows
void RegisterComm(MPI_Comm comm);
void UnregisterComm(MPI_Comm comm);
void RegisterWin(MPI_Win win, MPI_Comm comm);
void UnregisterWin(MPI_Win win);
void Rma(int op, int count, MPI_Datatype type, int target, MPI_Win win);

}  // namespace plx::mpi
