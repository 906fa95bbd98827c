#include "mpi/hooks.h"

#include <cstring>
#include <string_view>
#include <vector>

#include "capture/fast_path.h"
#include "capture/registry.h"
#include "capture/runtime.h"
#include "capture/state_records.h"
#include "mpi/tables.h"

namespace plx::mpi {
namespace cap = plx::capture;

namespace {

thread_local int tls_depth PLX_TLS = 0;
std::atomic<uint64_t> g_send_match{0};
std::atomic<uint64_t> g_recv_match{0};

// No colour of its own: the viewer colours states by what they do (MPI
// families by hue), and a user's recorded colour would override that.
uint32_t DefineState(StateSlot& slot) {
  cap::Runtime& rt = cap::Runtime::Get();
  if (!rt.running()) return 0;
  const uint32_t h =
      rt.registry().State(slot.name, PLX_COLOR_AUTO, slot.category == kIo ? "io" : "comm");
  rt.RefreshMask();
  slot.handle.store(h, std::memory_order_release);
  return h;
}

thread_local std::vector<MPI_Request> tls_saved_requests;
thread_local std::vector<MPI_Status> tls_statuses;

uint64_t BytesOf(const MPI_Status* status) {
  int n = 0;
  if (PMPI_Get_count(status, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0) return 0;
  return static_cast<uint64_t>(n);
}

void EmitRecv(const MPI_Status* status, MPI_Comm comm, uint64_t match) {
  if (status->MPI_SOURCE == MPI_PROC_NULL || status->MPI_SOURCE == MPI_ANY_SOURCE) return;
  int cancelled = 0;
  PMPI_Test_cancelled(status, &cancelled);
  if (cancelled) return;
  uint32_t def = 0;
  int world = -1;
  if (!Translate(comm, status->MPI_SOURCE, &def, &world)) return;
  cap::EmitMessage(cap::kRawRecv, def, world, status->MPI_TAG, BytesOf(status), 0, match);
}

void EmitSend(int world, uint32_t def, int tag, uint64_t bytes) {
  const uint64_t match = g_send_match.fetch_add(1, std::memory_order_relaxed) + 1;
  cap::EmitMessage(cap::kRawSend, def, world, tag, bytes, 0, match);
}

// Hot path: a receive call records this before it blocks, so a trace that
// ends inside the call (a hang) still says whom it waited for.
void EmitPost(int source, int tag, MPI_Comm comm, uint64_t match) {
  if (source == MPI_PROC_NULL) return;
  uint32_t def = 0;
  int world = -1;
  if (source == MPI_ANY_SOURCE)
    def = CommDef(comm);
  else if (!Translate(comm, source, &def, &world))
    return;
  const int32_t any_tag = -1;
  cap::Emit2(cap::kCatComm, cap::MakeW0(cap::kRawRecvPost, def & cap::kMaxArg),
             static_cast<uint32_t>(world),
             static_cast<uint32_t>(tag == MPI_ANY_TAG ? any_tag : tag), match);
}

void EmitCollective(CollOp op, uint32_t def, int world_root, uint64_t sent, uint64_t received) {
  cap::Emit3(cap::kCatComm, cap::MakeW0(cap::kRawCollective, def & cap::kMaxArg), op,
             static_cast<uint32_t>(world_root), sent, received, 0);
}

void Complete(const PendingRequest& r, const MPI_Status* status) {
  switch (r.kind) {
    case PendingRequest::kRecv:
    case PendingRequest::kPersistentRecv:
      EmitRecv(status, r.comm, r.match);
      break;
    case PendingRequest::kCollective:
      EmitCollective(r.op, CommDef(r.comm), r.root, r.sent, r.received);
      break;
    case PendingRequest::kPersistentSend:
      break;  // recorded at MPI_Start
  }
}

}  // namespace

Call::Call(StateSlot& state) : Call(state, 0) {}

Call::Call(StateSlot& state, uint64_t enter_tick) {
  if (tls_depth++ != 0 || !cap::Selected(state.category)) return;
  uint32_t h = state.handle.load(std::memory_order_acquire);
  if (h == 0 && (h = DefineState(state)) == 0) return;
  handle_ = h;
  on = true;
  if (enter_tick != 0)
    cap::EnterStateAt(enter_tick, h);
  else
    cap::EnterState(h);
}

Call::~Call() {
  if (on) cap::LeaveState(handle_);
  --tls_depth;
}

uint64_t Bytes(int64_t count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0) return 0;
  return static_cast<uint64_t>(count) * static_cast<uint64_t>(size);
}

int CommSize(MPI_Comm comm) {
  int inter = 0, n = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &n);
  else
    PMPI_Comm_size(comm, &n);
  return n;
}

int CommRank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

uint64_t SumBytes(const int counts[], MPI_Datatype type, MPI_Comm comm) {
  if (counts == nullptr) return 0;
  int64_t total = 0;
  const int n = CommSize(comm);
  for (int i = 0; i < n; ++i)
    total += counts[i];
  return Bytes(total, type);
}

uint64_t SumBytesW(const int counts[], const MPI_Datatype types[], MPI_Comm comm) {
  if (counts == nullptr || types == nullptr) return 0;
  uint64_t total = 0;
  const int n = CommSize(comm);
  for (int i = 0; i < n; ++i)
    total += Bytes(counts[i], types[i]);
  return total;
}

bool IsRoot(MPI_Comm comm, int root) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return root == MPI_ROOT;
  return CommRank(comm) == root;
}

int WorldRoot(MPI_Comm comm, int root) {
  if (root == MPI_ROOT) return WorldRank();
  if (root == MPI_PROC_NULL) return -1;
  uint32_t def = 0;
  int world = -1;
  return Translate(comm, root, &def, &world) ? world : -1;
}

uint64_t NextRecvMatch() {
  return g_recv_match.fetch_add(1, std::memory_order_relaxed) + 1;
}

uint64_t PostRecv(int source, int tag, MPI_Comm comm) {
  const uint64_t match = NextRecvMatch();
  EmitPost(source, tag, comm, match);
  return match;
}

void PostProbe(int source, int tag, MPI_Comm comm) {
  EmitPost(source, tag, comm, 0);
}

void Send(int dest, int tag, int count, MPI_Datatype type, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL) return;
  uint32_t def = 0;
  int world = -1;
  if (!Translate(comm, dest, &def, &world)) return;
  EmitSend(world, def, tag, Bytes(count, type));
}

void Recv(const MPI_Status* status, MPI_Comm comm, uint64_t match) {
  EmitRecv(status, comm, match);
}

void TrackRecv(MPI_Request request, MPI_Comm comm, uint64_t match) {
  PendingRequest r;
  r.kind = PendingRequest::kRecv;
  r.active = true;
  r.comm = comm;
  r.match = match;
  PutRequest(request, r);
}

void TrackPersistentSend(MPI_Request request, int dest, int tag, int count, MPI_Datatype type,
                         MPI_Comm comm) {
  PendingRequest r;
  r.kind = PendingRequest::kPersistentSend;
  r.comm = comm;
  r.dest = dest;
  r.tag = tag;
  r.bytes = Bytes(count, type);
  PutRequest(request, r);
}

void TrackPersistentRecv(MPI_Request request, int source, int tag, MPI_Comm comm) {
  PendingRequest r;
  r.kind = PendingRequest::kPersistentRecv;
  r.comm = comm;
  r.dest = source;
  r.tag = tag;
  PutRequest(request, r);
}

void Start(const MPI_Request* requests, int count) {
  for (int i = 0; i < count; ++i) {
    PendingRequest r;
    if (!StartRequest(requests[i], &r)) continue;
    if (r.kind == PendingRequest::kPersistentRecv) EmitPost(r.dest, r.tag, r.comm, r.match);
    if (r.kind != PendingRequest::kPersistentSend || r.dest == MPI_PROC_NULL) continue;
    uint32_t def = 0;
    int world = -1;
    if (Translate(r.comm, r.dest, &def, &world)) EmitSend(world, def, r.tag, r.bytes);
  }
}

void Untrack(MPI_Request request) {
  DropRequest(request);
}

void TrackMessage(MPI_Message message, MPI_Comm comm, uint64_t match) {
  PutMessage(message, comm, match);
}

void MessageReceived(MPI_Message message, const MPI_Status* status) {
  MPI_Comm comm;
  uint64_t match = 0;
  if (TakeMessage(message, &comm, &match)) EmitRecv(status, comm, match);
}

void TrackMessageRequest(MPI_Request request, MPI_Message message) {
  MPI_Comm comm;
  uint64_t match = 0;
  if (TakeMessage(message, &comm, &match)) TrackRecv(request, comm, match);
}

void Completed(MPI_Request request, const MPI_Status* status) {
  PendingRequest r;
  if (FindRequest(request, true, &r)) Complete(r, status);
}

void CompletedAll(int count, const MPI_Request* requests, const MPI_Status* statuses) {
  for (int i = 0; i < count; ++i)
    Completed(requests[i], &statuses[i]);
}

void CompletedSome(int outcount, const int* indices, const MPI_Request* requests,
                   const MPI_Status* statuses) {
  if (outcount == MPI_UNDEFINED) return;
  for (int i = 0; i < outcount; ++i)
    Completed(requests[indices[i]], &statuses[i]);
}

const MPI_Request* SaveRequests(const MPI_Request* requests, int count) {
  tls_saved_requests.assign(requests, requests + (count > 0 ? count : 0));
  return tls_saved_requests.data();
}

MPI_Status* StatusScratch(int count) {
  if (tls_statuses.size() < static_cast<size_t>(count > 0 ? count : 1))
    tls_statuses.resize(static_cast<size_t>(count > 0 ? count : 1));
  return tls_statuses.data();
}

void Collective(CollOp op, MPI_Comm comm, int world_root, uint64_t sent, uint64_t received) {
  EmitCollective(op, CommDef(comm), world_root, sent, received);
}

void TrackCollective(MPI_Request request, CollOp op, MPI_Comm comm, int world_root, uint64_t sent,
                     uint64_t received) {
  PendingRequest r;
  r.kind = PendingRequest::kCollective;
  r.active = true;
  r.comm = comm;
  r.op = op;
  r.root = world_root;
  r.sent = sent;
  r.received = received;
  PutRequest(request, r);
}

void UnregisterComm(MPI_Comm comm) {
  DropComm(comm);
}

void RegisterWin(MPI_Win win, MPI_Comm comm) {
  PutWindow(win, comm);
}

void UnregisterWin(MPI_Win win) {
  DropWindow(win);
}

void Rma(int op, int count, MPI_Datatype type, int target, MPI_Win win) {
  if (target == MPI_PROC_NULL) return;
  uint32_t def = 0;
  int world = -1;
  if (!WindowTarget(win, target, &def, &world)) return;
  const uint64_t ranks = static_cast<uint32_t>(WorldRank()) |
                         (static_cast<uint64_t>(static_cast<uint32_t>(world)) << 32);
  cap::Emit2(cap::kCatComm, cap::MakeW0(cap::kRawRma, def & cap::kMaxArg),
             static_cast<uint32_t>(op), ranks, Bytes(count, type));
}

}  // namespace plx::mpi
