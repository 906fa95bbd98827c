// What kind of process the interposition runs in, decided once at load:
// whether it may start the runtime itself, must wait for MPI_Init to start it,
// or stays out of the way (PLX_THREADS=0, PLX_TRACE=0, MPI launchers).
#pragma once

#include <cstdint>

namespace plx::threads {

enum class Mode : int {
  kUnset = 0,  // before the library's constructor: everything passes through
  kUndecided,  // loaded; decided at the first call that could record
  kOff,        // never record
  kMpi,        // an MPI program: record only while MPI_Init has the runtime running
  kAuto,       // record from the first blocking call or thread creation on
};

/// The mode for this process, from the runtime's settings, the executable's
/// name (launchers and their daemons are never traced) and whether it is an
/// MPI program (launched as a rank, or its executable links an MPI library).
Mode DecideMode();

/// [begin, end) of this library's executable code, so calls the runtime itself
/// makes (std::mutex inside the capture runtime, the MPI tables) are told apart.
void FindOwnCode(uintptr_t* begin, uintptr_t* end);

}  // namespace plx::threads
