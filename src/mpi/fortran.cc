#include "mpi/fortran.h"

#include <vector>

#include "mpi/lifecycle.h"

namespace plx::mpi {
namespace {
thread_local std::vector<MPI_Request> tls_requests;
thread_local std::vector<int> tls_indices;
thread_local std::vector<MPI_Fint> tls_fstatuses;
thread_local std::vector<MPI_Status> tls_statuses;

size_t Count(int n) {
  return n > 0 ? static_cast<size_t>(n) : 0;
}
}  // namespace

MPI_Request* RequestsFromFortran(const MPI_Fint* requests, int count) {
  tls_requests.resize(Count(count) + 1);
  for (size_t i = 0; i < Count(count); ++i)
    tls_requests[i] = PMPI_Request_f2c(requests[i]);
  return tls_requests.data();
}

int* IndicesFromFortran(const MPI_Fint* indices, MPI_Fint outcount) {
  tls_indices.resize(Count(outcount) + 1);
  if (outcount == MPI_UNDEFINED) return tls_indices.data();
  for (size_t i = 0; i < Count(outcount); ++i)
    tls_indices[i] = static_cast<int>(indices[i]) - 1;
  return tls_indices.data();
}

MPI_Fint* FortranStatusScratch(int count) {
  tls_fstatuses.resize((Count(count) + 1) * kFStatusInts);
  return tls_fstatuses.data();
}

MPI_Status* StatusesFromFortran(MPI_Fint* statuses, int count) {
  tls_statuses.resize(Count(count) + 1);
  for (size_t i = 0; i < Count(count); ++i)
    PMPI_Status_f2c(statuses + i * kFStatusInts, &tls_statuses[i]);
  return tls_statuses.data();
}

}  // namespace plx::mpi

// Open MPI's Fortran entry points for the hand-written functions (weak: a C
// program has no Fortran library, and never calls these wrappers).
extern "C" {
void pmpi_init_(MPI_Fint* ierr) __attribute__((weak));
void pmpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr)
    __attribute__((weak));
void pmpi_finalize_(MPI_Fint* ierr) __attribute__((weak));
void pmpi_abort_(MPI_Fint* comm, MPI_Fint* errorcode, MPI_Fint* ierr) __attribute__((weak));
void pmpi_pcontrol_(MPI_Fint* level) __attribute__((weak));
}

#pragma GCC visibility push(default)
extern "C" {

void mpi_init_(MPI_Fint* ierr) {
  const uint64_t begin = plx::mpi::BeforeInit();
  pmpi_init_(ierr);
  if (*ierr == MPI_SUCCESS) plx::mpi::AfterInit(begin, "MPI_Init");
}
void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  const uint64_t begin = plx::mpi::BeforeInit();
  pmpi_init_thread_(required, provided, ierr);
  if (*ierr == MPI_SUCCESS) plx::mpi::AfterInit(begin, "MPI_Init_thread");
}
void mpi_finalize_(MPI_Fint* ierr) {
  plx::mpi::BeforeFinalize();
  pmpi_finalize_(ierr);
}
void mpi_abort_(MPI_Fint* comm, MPI_Fint* errorcode, MPI_Fint* ierr) {
  plx::mpi::BeforeAbort();
  pmpi_abort_(comm, errorcode, ierr);
}
void mpi_pcontrol_(MPI_Fint* level) {
  plx::mpi::Pcontrol(static_cast<int>(*level));
  pmpi_pcontrol_(level);
}

#define PLX_FORTRAN_ALIASES(name, params)             \
  void name params __attribute__((alias(#name "_"))); \
  void name##__ params __attribute__((alias(#name "_")));
PLX_FORTRAN_ALIASES(mpi_init, (MPI_Fint*))
PLX_FORTRAN_ALIASES(mpi_init_thread, (MPI_Fint*, MPI_Fint*, MPI_Fint*))
PLX_FORTRAN_ALIASES(mpi_finalize, (MPI_Fint*))
PLX_FORTRAN_ALIASES(mpi_abort, (MPI_Fint*, MPI_Fint*, MPI_Fint*))
PLX_FORTRAN_ALIASES(mpi_pcontrol, (MPI_Fint*))
void MPI_INIT(MPI_Fint*) __attribute__((alias("mpi_init_")));
void MPI_INIT_THREAD(MPI_Fint*, MPI_Fint*, MPI_Fint*) __attribute__((alias("mpi_init_thread_")));
void MPI_FINALIZE(MPI_Fint*) __attribute__((alias("mpi_finalize_")));
void MPI_ABORT(MPI_Fint*, MPI_Fint*, MPI_Fint*) __attribute__((alias("mpi_abort_")));
void MPI_PCONTROL(MPI_Fint*) __attribute__((alias("mpi_pcontrol_")));
}
#pragma GCC visibility pop
