#include "mpi/fortran.h"

#include <cstddef>
#include <vector>

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
