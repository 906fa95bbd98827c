// Helpers of the generated Fortran wrappers (Open MPI only: its Fortran
// library calls PMPI_* directly, so mpi_send_ and friends need wrappers of
// their own). Conversions go into per-thread scratch arrays, valid until the
// same helper is called again on the thread.
#pragma once

#include <mpi.h>

namespace plx::mpi {

/// MPI_Fints in one Fortran status (MPI_STATUS_SIZE).
inline constexpr int kFStatusInts = static_cast<int>(sizeof(MPI_Status) / sizeof(MPI_Fint));

MPI_Request* RequestsFromFortran(const MPI_Fint* requests, int count);
/// Fortran indexes from 1.
int* IndicesFromFortran(const MPI_Fint* indices, MPI_Fint outcount);
MPI_Fint* FortranStatusScratch(int count);
MPI_Status* StatusesFromFortran(MPI_Fint* statuses, int count);

}  // namespace plx::mpi
