// MPI_Init / MPI_Finalize / MPI_Abort / MPI_Pcontrol, shared by the C and the
// Fortran wrappers: where the rank's part file is, clock offsets to rank 0,
// and the merge of all parts into one trace at MPI_Finalize.
#pragma once

#include <cstdint>

namespace plx::mpi {

/// Before PMPI_Init: picks the clock; returns the tick the MPI_Init state starts at.
uint64_t BeforeInit();
/// After a successful PMPI_Init(_thread): starts tracing this rank.
void AfterInit(uint64_t begin_tick, const char* function);
/// Before PMPI_Finalize: records the call, measures clocks, closes the part
/// file and merges all parts into one trace on rank 0.
void BeforeFinalize();
/// Before PMPI_Abort: records the call and closes the part file.
void BeforeAbort();
/// MPI_Pcontrol: level 0 stops recording, any other level resumes it.
void Pcontrol(int level);

}  // namespace plx::mpi
