// Helpers of the generated Fortran wrappers. Open MPI's Fortran library calls
// PMPI_* directly, so mpi_send_ and friends need wrappers of their own, as do
// its `use mpi_f08` mpi_send_f08_ and friends; MPICH's calls the C MPI_*
// functions, but for its f08 entry points without a buffer (mpi_wait_f08_). Conversions go into
// per-thread scratch arrays, valid until the same helper is called again on the thread.
#pragma once

#include <mpi.h>

// The real f08 entry points of the hand-written wrappers, and the status
// sentinels of `use mpi_f08` (MPICH's differ from its mpif.h ones).
#if defined(MPICH)
#define PLX_F08_REAL(name) pmpir_##name##_f08_
#define PLX_F08_STATUS_IGNORE reinterpret_cast<MPI_Fint*>(MPI_F08_STATUS_IGNORE)
#define PLX_F08_STATUSES_IGNORE reinterpret_cast<MPI_Fint*>(MPI_F08_STATUSES_IGNORE)
#else
#define PLX_F08_REAL(name) pmpi_##name##_f08_
#define PLX_F08_STATUS_IGNORE MPI_F_STATUS_IGNORE
#define PLX_F08_STATUSES_IGNORE MPI_F_STATUSES_IGNORE
#endif

namespace plx::mpi {

/// MPI_Fints in one Fortran status (MPI_STATUS_SIZE).
inline constexpr int kFStatusInts = static_cast<int>(sizeof(MPI_Status) / sizeof(MPI_Fint));

MPI_Request* RequestsFromFortran(const MPI_Fint* requests, int count);
/// Fortran indexes from 1.
int* IndicesFromFortran(const MPI_Fint* indices, MPI_Fint outcount);
MPI_Fint* FortranStatusScratch(int count);
MPI_Status* StatusesFromFortran(MPI_Fint* statuses, int count);

}  // namespace plx::mpi
