// The hand-written Fortran entry points: MPI_Init, MPI_Init_thread,
// MPI_Finalize, MPI_Abort, MPI_Pcontrol (the generated ones are in
// fortran.gen.cc / fortran_mpich.gen.cc). Open MPI (PLX_MPI_FORTRAN77): its
// mpif.h / `use mpi` symbols and its `use mpi_f08` ones; MPICH: its
// `use mpi_f08` ones only (they call PMPI_*; its other Fortran symbols call
// the C MPI_* functions).
#include <cstdint>

#include "mpi/fortran.h"
#include "mpi/lifecycle.h"

// The real functions are weak: a C program has no Fortran library, and never
// calls these wrappers.
extern "C" {
#if PLX_MPI_FORTRAN77
void pmpi_init_(MPI_Fint* ierr) __attribute__((weak));
void pmpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr)
    __attribute__((weak));
void pmpi_finalize_(MPI_Fint* ierr) __attribute__((weak));
void pmpi_abort_(MPI_Fint* comm, MPI_Fint* errorcode, MPI_Fint* ierr) __attribute__((weak));
void pmpi_pcontrol_(MPI_Fint* level) __attribute__((weak));
#endif
// `use mpi_f08`: the same arguments, ierror optional (null when absent).
void PLX_F08_REAL(init)(MPI_Fint* ierror) __attribute__((weak));
void PLX_F08_REAL(init_thread)(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror)
    __attribute__((weak));
void PLX_F08_REAL(finalize)(MPI_Fint* ierror) __attribute__((weak));
void PLX_F08_REAL(abort)(MPI_Fint* comm, MPI_Fint* errorcode, MPI_Fint* ierror)
    __attribute__((weak));
void PLX_F08_REAL(pcontrol)(MPI_Fint* level) __attribute__((weak));
}

#pragma GCC visibility push(default)
extern "C" {

void mpi_init_f08_(MPI_Fint* ierror) {
  MPI_Fint ierr = MPI_SUCCESS;
  const uint64_t begin = plx::mpi::BeforeInit();
  PLX_F08_REAL(init)(&ierr);
  if (ierror != nullptr) *ierror = ierr;
  if (ierr == MPI_SUCCESS) plx::mpi::AfterInit(begin, "MPI_Init");
}
void mpi_init_thread_f08_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror) {
  MPI_Fint ierr = MPI_SUCCESS;
  const uint64_t begin = plx::mpi::BeforeInit();
  PLX_F08_REAL(init_thread)(required, provided, &ierr);
  if (ierror != nullptr) *ierror = ierr;
  if (ierr == MPI_SUCCESS) plx::mpi::AfterInit(begin, "MPI_Init_thread");
}
void mpi_finalize_f08_(MPI_Fint* ierror) {
  plx::mpi::BeforeFinalize();
  PLX_F08_REAL(finalize)(ierror);
}
void mpi_abort_f08_(MPI_Fint* comm, MPI_Fint* errorcode, MPI_Fint* ierror) {
  plx::mpi::BeforeAbort();
  PLX_F08_REAL(abort)(comm, errorcode, ierror);
}
void mpi_pcontrol_f08_(MPI_Fint* level) {
  plx::mpi::Pcontrol(static_cast<int>(*level));
  PLX_F08_REAL(pcontrol)(level);
}

#if PLX_MPI_FORTRAN77
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
#endif
}
#pragma GCC visibility pop
