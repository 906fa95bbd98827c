// The MPI functions written by hand rather than generated: initialisation,
// finalisation, abort and MPI_Pcontrol (C bindings).
#include <mpi.h>

#include "mpi/lifecycle.h"

#pragma GCC visibility push(default)
extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const uint64_t begin = plx::mpi::BeforeInit();
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) plx::mpi::AfterInit(begin, "MPI_Init");
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const uint64_t begin = plx::mpi::BeforeInit();
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) plx::mpi::AfterInit(begin, "MPI_Init_thread");
  return rc;
}

int MPI_Finalize(void) {
  plx::mpi::BeforeFinalize();
  return PMPI_Finalize();
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  plx::mpi::BeforeAbort();
  return PMPI_Abort(comm, errorcode);
}

int MPI_Pcontrol(const int level, ...) {
  plx::mpi::Pcontrol(level);
  return PMPI_Pcontrol(level);
}

}  // extern "C"
#pragma GCC visibility pop
