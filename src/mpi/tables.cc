#include "mpi/tables.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "base/checksum.h"
#include "capture/runtime.h"
#include "parallax/parallax.h"

namespace plx::mpi {
namespace {

struct CommInfo {
  uint32_t def = 0;
  std::vector<int> world;   // world rank of each rank of the (local) group
  std::vector<int> remote;  // intercommunicators: the remote group
};

struct WinInfo {
  uint32_t def = 0;
  std::vector<int> world;
};

int g_world_rank = -1;
int g_world_size = 0;

std::shared_mutex g_comm_mutex;
std::unordered_map<uint64_t, CommInfo> g_comms;          // guarded by g_comm_mutex
std::unordered_map<uint64_t, uint32_t> g_member_counts;  // guarded by g_comm_mutex

std::mutex g_request_mutex;
std::unordered_map<uint64_t, PendingRequest> g_requests;
std::unordered_map<uint64_t, std::pair<MPI_Comm, uint64_t>> g_messages;

std::shared_mutex g_win_mutex;
std::unordered_map<uint64_t, WinInfo> g_wins;

std::vector<int> GroupWorldRanks(MPI_Group group) {
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(static_cast<size_t>(n)), world(static_cast<size_t>(n), -1);
  for (int i = 0; i < n; ++i)
    ranks[static_cast<size_t>(i)] = i;
  MPI_Group world_group;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  if (n > 0) PMPI_Group_translate_ranks(group, n, ranks.data(), world_group, world.data());
  PMPI_Group_free(&world_group);
  return world;
}

// Communicators are told apart across processes by their member list and the
// number of communicators with that list created before: every member creates
// them in the same order (creation is collective), so every member computes
// the same id without communicating.
uint64_t GlobalIdLocked(const std::vector<int>& local, const std::vector<int>& remote) {
  std::vector<int> all(local);
  all.insert(all.end(), remote.begin(), remote.end());
  std::sort(all.begin(), all.end());
  const uint64_t members = Checksum64(all.data(), all.size() * sizeof(int));
  const uint64_t nth = g_member_counts[members]++;
  const uint64_t pair[2] = {members, nth};
  return Checksum64(pair, sizeof pair) | 1;  // never 0 ("process-local")
}

std::string CommName(MPI_Comm comm, size_t index) {
  if (comm == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (comm == MPI_COMM_SELF) return "MPI_COMM_SELF";
  char name[MPI_MAX_OBJECT_NAME] = {0};
  int length = 0;
  PMPI_Comm_get_name(comm, name, &length);
  if (length > 0) return std::string(name, static_cast<size_t>(length));
  return "comm " + std::to_string(index);
}

// Caller holds g_comm_mutex exclusively.
const CommInfo* RegisterLocked(MPI_Comm comm, uint32_t fixed_id) {
  if (comm == MPI_COMM_NULL) return nullptr;
  CommInfo info;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  MPI_Group group;
  PMPI_Comm_group(comm, &group);
  info.world = GroupWorldRanks(group);
  PMPI_Group_free(&group);
  if (inter) {
    PMPI_Comm_remote_group(comm, &group);
    info.remote = GroupWorldRanks(group);
    PMPI_Group_free(&group);
  }
  const uint64_t global = GlobalIdLocked(info.world, info.remote);
  std::vector<int64_t> members(info.world.begin(), info.world.end());
  capture::Runtime& rt = capture::Runtime::Get();
  if (rt.running())
    info.def =
        rt.registry().GroupCommunicator(CommName(comm, g_comms.size()), global, members, fixed_id);
  return &(g_comms[Key(comm)] = std::move(info));
}

}  // namespace

int WorldRank() {
  return g_world_rank;
}

void SetWorld(int rank, int size) {
  g_world_rank = rank;
  g_world_size = size;
}

void RegisterWorld() {
  std::unique_lock<std::shared_mutex> lock(g_comm_mutex);
  RegisterLocked(MPI_COMM_WORLD, PLX_COMM_WORLD);
}

bool Translate(MPI_Comm comm, int rank, uint32_t* def, int* world) {
  if (comm == MPI_COMM_WORLD) {
    *def = PLX_COMM_WORLD;
    *world = rank;
    return rank >= 0 && rank < g_world_size;
  }
  {
    std::shared_lock<std::shared_mutex> lock(g_comm_mutex);
    auto it = g_comms.find(Key(comm));
    if (it != g_comms.end()) {
      const CommInfo& c = it->second;
      const std::vector<int>& group = c.remote.empty() ? c.world : c.remote;
      *def = c.def;
      if (rank < 0 || static_cast<size_t>(rank) >= group.size()) return false;
      *world = group[static_cast<size_t>(rank)];
      return true;
    }
  }
  std::unique_lock<std::shared_mutex> lock(g_comm_mutex);
  const CommInfo* c = RegisterLocked(comm, 0);
  if (c == nullptr) return false;
  const std::vector<int>& group = c->remote.empty() ? c->world : c->remote;
  *def = c->def;
  if (rank < 0 || static_cast<size_t>(rank) >= group.size()) return false;
  *world = group[static_cast<size_t>(rank)];
  return true;
}

uint32_t CommDef(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return PLX_COMM_WORLD;
  {
    std::shared_lock<std::shared_mutex> lock(g_comm_mutex);
    auto it = g_comms.find(Key(comm));
    if (it != g_comms.end()) return it->second.def;
  }
  std::unique_lock<std::shared_mutex> lock(g_comm_mutex);
  const CommInfo* c = RegisterLocked(comm, 0);
  return c ? c->def : 0;
}

void RegisterComm(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return;
  std::unique_lock<std::shared_mutex> lock(g_comm_mutex);
  RegisterLocked(comm, 0);
}

void DropComm(MPI_Comm comm) {
  std::unique_lock<std::shared_mutex> lock(g_comm_mutex);
  g_comms.erase(Key(comm));
}

void PutRequest(MPI_Request request, const PendingRequest& info) {
  if (request == MPI_REQUEST_NULL) return;
  std::lock_guard<std::mutex> lock(g_request_mutex);
  g_requests[Key(request)] = info;
}

bool FindRequest(MPI_Request request, bool complete, PendingRequest* out) {
  if (request == MPI_REQUEST_NULL) return false;
  std::lock_guard<std::mutex> lock(g_request_mutex);
  auto it = g_requests.find(Key(request));
  if (it == g_requests.end()) return false;
  *out = it->second;
  if (complete) {
    const bool persistent = it->second.kind == PendingRequest::kPersistentSend ||
                            it->second.kind == PendingRequest::kPersistentRecv;
    if (persistent)
      it->second.active = false;
    else
      g_requests.erase(it);
  }
  return true;
}

bool StartRequest(MPI_Request request, PendingRequest* out) {
  if (request == MPI_REQUEST_NULL) return false;
  std::lock_guard<std::mutex> lock(g_request_mutex);
  auto it = g_requests.find(Key(request));
  if (it == g_requests.end()) return false;
  it->second.active = true;
  if (it->second.kind == PendingRequest::kPersistentRecv) it->second.match = NextRecvMatch();
  *out = it->second;
  return true;
}

void DropRequest(MPI_Request request) {
  std::lock_guard<std::mutex> lock(g_request_mutex);
  g_requests.erase(Key(request));
}

void PutMessage(MPI_Message message, MPI_Comm comm, uint64_t match) {
  if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC) return;
  std::lock_guard<std::mutex> lock(g_request_mutex);
  g_messages[Key(message)] = {comm, match};
}

bool TakeMessage(MPI_Message message, MPI_Comm* comm, uint64_t* match) {
  std::lock_guard<std::mutex> lock(g_request_mutex);
  auto it = g_messages.find(Key(message));
  if (it == g_messages.end()) return false;
  *comm = it->second.first;
  *match = it->second.second;
  g_messages.erase(it);
  return true;
}

void PutWindow(MPI_Win win, MPI_Comm comm) {
  WinInfo info;
  info.def = CommDef(comm);
  MPI_Group group;
  PMPI_Comm_group(comm, &group);
  info.world = GroupWorldRanks(group);
  PMPI_Group_free(&group);
  std::unique_lock<std::shared_mutex> lock(g_win_mutex);
  g_wins[Key(win)] = std::move(info);
}

bool WindowTarget(MPI_Win win, int rank, uint32_t* def, int* world) {
  std::shared_lock<std::shared_mutex> lock(g_win_mutex);
  auto it = g_wins.find(Key(win));
  if (it == g_wins.end() || rank < 0 || static_cast<size_t>(rank) >= it->second.world.size())
    return false;
  *def = it->second.def;
  *world = it->second.world[static_cast<size_t>(rank)];
  return true;
}

void DropWindow(MPI_Win win) {
  std::unique_lock<std::shared_mutex> lock(g_win_mutex);
  g_wins.erase(Key(win));
}

}  // namespace plx::mpi
