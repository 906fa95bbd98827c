// The slow path of function tracing: starting it on the first hook call
// (settings, filters) and, on each function's first call, its name, filter
// verdict, state and callsite, added to the table the hooks read.
#pragma once

#include <atomic>
#include <cstdint>

#include "threads/functions/function_table.h"

namespace plx::functions {

enum Mode : int {
  kUnset = 0,  // no hook has run yet
  kWaiting,    // an MPI process: recording starts when MPI_Init starts the runtime
  kOn,
  kOff,  // PLX_FUNCTIONS=none, PLX_TRACE=0, or the runtime could not start
};

/// Whether function tracing records; read by every hook.
extern std::atomic<int> g_mode;
/// Every function seen so far.
extern FunctionTable g_table;

/// Decides the mode on the first hook call (and, while kWaiting, once the
/// runtime runs); returns true when it is kOn.
bool Setup();

/// The entry of `address` on its first call: resolves the name, applies the
/// filters, defines the state and callsite. Null when the table is full or
/// the runtime has stopped. Callers hold the thread's re-entrancy guard.
const FunctionEntry* ResolveFirstCall(uintptr_t address);

}  // namespace plx::functions
