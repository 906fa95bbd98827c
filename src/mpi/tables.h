// The MPI layer's view of the program's MPI objects: communicators (with the
// world rank of every member, so peers are recorded as world ranks), windows,
// pending requests and matched-probe messages. Thread-safe (MPI_THREAD_MULTIPLE).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "mpi/hooks.h"

namespace plx::mpi {

/// An MPI handle (pointer in Open MPI, int in MPICH) as a map key.
template <typename Handle>
uint64_t Key(Handle h) {
  static_assert(sizeof(Handle) <= sizeof(uint64_t));
  uint64_t k = 0;
  std::memcpy(&k, &h, sizeof h);
  return k;
}

/// This process's world rank, or -1 before MPI_Init.
int WorldRank();
void SetWorld(int rank, int size);

/// The communicator definition of `comm` and the world rank of its member
/// `rank` (of the remote group for intercommunicators). Registers unknown
/// communicators on first use. False when `rank` is not a member.
bool Translate(MPI_Comm comm, int rank, uint32_t* def, int* world);
/// The communicator definition id of `comm` (registering it when unknown).
uint32_t CommDef(MPI_Comm comm);
/// Defines MPI_COMM_WORLD as the trace's "world" communicator.
void RegisterWorld();

struct PendingRequest {
  enum Kind : uint8_t { kRecv, kPersistentSend, kPersistentRecv, kCollective };
  Kind kind = kRecv;
  bool active = false;
  MPI_Comm comm = MPI_COMM_NULL;
  uint64_t match = 0;
  // persistent sends (destination) and receives (source, tag as posted)
  int dest = 0;
  int tag = 0;
  uint64_t bytes = 0;
  // collectives
  CollOp op = kOtherCollective;
  int root = -1;
  uint64_t sent = 0;
  uint64_t received = 0;
};

void PutRequest(MPI_Request request, const PendingRequest& info);
/// Copies the request's entry; `complete`: a finished non-persistent request
/// is forgotten, a persistent one becomes inactive.
bool FindRequest(MPI_Request request, bool complete, PendingRequest* out);
/// Persistent requests at MPI_Start: marks them active and gives receives a match number.
bool StartRequest(MPI_Request request, PendingRequest* out);
void DropRequest(MPI_Request request);

void PutMessage(MPI_Message message, MPI_Comm comm, uint64_t match);
bool TakeMessage(MPI_Message message, MPI_Comm* comm, uint64_t* match);

void PutWindow(MPI_Win win, MPI_Comm comm);
bool WindowTarget(MPI_Win win, int rank, uint32_t* def, int* world);
void DropWindow(MPI_Win win);
void DropComm(MPI_Comm comm);

}  // namespace plx::mpi
