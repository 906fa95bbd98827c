// Trace scripts: a tiny line format in which tests describe a .plx trace
// deterministically; WriteTraceScript() writes it with format::TraceWriter.
//
// One statement per line; `#` starts a comment; words are separated by spaces
// and "double quotes" keep spaces in one word. P = process, S = stream, T = tick
// (ns unless the process has a `clock` line), N = number. A REF names something
// the process defined by its name, or is a raw id number (which may be undefined).
//
//   option chunk=N zstd=N index=0|1       writer options; before any other line
//   process P [pid=N] [rank=N] [host=S] [exe=S] [args=S] [name=S]
//   clock P [tsc=TICKS_PER_S] [realtime=N] [monotonic=N]
//   sync P tick=N ns=N                    a clock_sync pair
//   attribute P KEY VALUE                 a key/value fact about the process
//   thread P S [tid=N] [name=S]
//   category P ID NAME
//   state P ID NAME [category=NAME] [color=#rrggbb]   (categories made on first use)
//   event_type P ID NAME [kind=none|int|double|string] [category=NAME]
//   callsite P ID FILE LINE [function=NAME]
//   counter_def P ID NAME [unit=S] [kind=int|double] [category=NAME]
//   comm P ID NAME [kind=ranks|streams] [global=N] [members=R,R,..]   (world ranks)
//   enter P S t=T STATE [callsite=ID]      leave P S t=T STATE
//   event P S t=T TYPE value=V             int/double/string as the type's kind says
//   send|recv P S t=T comm=REF peer=N tag=N bytes=N [clock=N] [match=N]
//   collective P S t=T op=N comm=REF [root=N] [sent=N] [received=N]   (root -1 = none)
//   post P S t=T comm=REF peer=N tag=N match=N   a recv_post (posted receive)
//   counter P S t=T COUNTER value=V        int or double as the counter's kind says
//   rma P S t=T op=N comm=REF origin=N target=N bytes=N
//   thread_begin P S t=T    thread_end P S t=T    control P S t=T on=0|1
//   lost P S t=T count=N    raw P S t=T kind=K [hex=0a0b..]   (any kind, raw body)
#pragma once

#include <string>

#include "base/status.h"

namespace plx::testing {

/// Writes the trace `script` describes to `path`. Errors name the script line.
Status WriteTraceScript(const std::string& script, const std::string& path);

/// The definitions of an MPI run for a script: `ranks` processes (process P
/// is rank P) with one thread (stream 0) each, the states MPI_Send (id 1),
/// MPI_Recv (2), MPI_Ssend (3), MPI_Barrier (4), MPI_Bcast (5), MPI_Reduce (6)
/// of category comm and compute (9), and communicator 1 "world" (global id
/// 1) of all ranks.
std::string MpiScriptPreamble(int ranks);

}  // namespace plx::testing
