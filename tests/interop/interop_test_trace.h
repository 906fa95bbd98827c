// The trace every exporter and importer round-trips: three MPI ranks (rank 0
// with a second, named thread), nested, adjacent and zero-length states,
// point-to-point messages on two communicators and between threads, receives
// completing out of posting order, collectives, RMA, int and double counters,
// instant events of every kind. Times are large (monotonic-clock-like) so
// that exporters must keep nanoseconds exactly.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "support/trace_script.h"

namespace plx::testing {

inline std::string InteropTestScript() {
  auto at = [&](long long n) { return "t=" + std::to_string(1700000000000LL + n); };
  std::string s;
  for (int r = 0; r < 3; ++r) {
    const std::string p = std::to_string(r);
    s += "process " + p + " rank=" + p + " pid=" + std::to_string(4000 + r) + " host=node" +
         std::to_string(r / 2) + " name=\"rank " + p + "\"\n";
    s += "thread " + p + " 0 tid=" + std::to_string(4000 + r) + " name=main\n";
    s += "state " + p + " 1 MPI_Send category=comm color=#ff0000\n";
    s += "state " + p + " 2 MPI_Recv category=comm\n";
    s += "state " + p + " 3 MPI_Barrier category=comm\n";
    s += "state " + p + " 4 MPI_Bcast category=comm\n";
    s += "state " + p + " 5 MPI_Put category=comm\n";
    s += "state " + p + " 9 compute\n";
    s += "state " + p + " 10 \"solve step\"\n";
    s += "comm " + p + " 1 MPI_COMM_WORLD global=1 members=0,1,2\n";
    s += "counter_def " + p + " 1 PAPI_TOT_INS kind=int\n";
    s += "counter_def " + p + " 2 \"memory used\" unit=bytes kind=double\n";
  }
  s += "comm 0 2 \"even ranks\" global=2 members=0,2\n";
  s += "comm 2 2 \"even ranks\" global=2 members=0,2\n";
  s += "thread 0 1 tid=4010 name=\"worker 1\"\n";
  s += "state 0 11 \"worker task\"\n";
  s += "comm 0 3 threads kind=streams\n";
  s += "event_type 0 1 iteration kind=int\n";
  s += "event_type 0 2 residual kind=double\n";
  s += "event_type 0 3 note kind=string\n";
  // Rank 0, main thread.
  s += "enter 0 0 " + at(0) + " compute\n";
  s += "enter 0 0 " + at(0) + " \"solve step\"\n";  // same begin as its parent
  s += "event 0 0 " + at(100) + " iteration value=1\n";
  s += "counter 0 0 " + at(150) + " PAPI_TOT_INS value=123456789\n";
  s += "counter 0 0 " + at(150) + " \"memory used\" value=1048576.5\n";
  s += "leave 0 0 " + at(1000) + " \"solve step\"\n";
  s += "enter 0 0 " + at(1000) + " \"solve step\"\n";  // adjacent to the first
  s += "event 0 0 " + at(1200) + " residual value=0.125\n";
  s += "leave 0 0 " + at(1500) + " \"solve step\"\n";
  s += "enter 0 0 " + at(1600) + " MPI_Send\n";
  s += "send 0 0 " + at(1650) + " comm=MPI_COMM_WORLD peer=1 tag=7 bytes=64 match=1\n";
  s += "leave 0 0 " + at(1700) + " MPI_Send\n";
  s += "enter 0 0 " + at(1700) + " MPI_Send\n";
  s += "send 0 0 " + at(1750) + " comm=MPI_COMM_WORLD peer=1 tag=7 bytes=128 match=2\n";
  s += "leave 0 0 " + at(1800) + " MPI_Send\n";
  s += "enter 0 0 " + at(1900) + " MPI_Send\n";
  s += "send 0 0 " + at(1950) + " comm=\"even ranks\" peer=2 tag=0 bytes=8 match=3\n";
  s += "leave 0 0 " + at(2000) + " MPI_Send\n";
  s += "send 0 0 " + at(2100) + " comm=threads peer=1 tag=3 bytes=16\n";
  s += "enter 0 0 " + at(2200) + " MPI_Put\n";
  s += "rma 0 0 " + at(2250) + " op=0 comm=MPI_COMM_WORLD origin=0 target=2 bytes=4096\n";
  s += "leave 0 0 " + at(2300) + " MPI_Put\n";
  s += "enter 0 0 " + at(2400) + " \"solve step\"\n";  // zero length
  s += "leave 0 0 " + at(2400) + " \"solve step\"\n";
  s += "event 0 0 " + at(2500) + " note value=\"converged, 3 steps\"\n";
  s += "enter 0 0 " + at(3000) + " MPI_Barrier\n";
  s += "collective 0 0 " + at(3900) + " op=1 comm=MPI_COMM_WORLD\n";
  s += "leave 0 0 " + at(3900) + " MPI_Barrier\n";
  s += "enter 0 0 " + at(4000) + " MPI_Bcast\n";
  s += "collective 0 0 " + at(4400) + " op=2 comm=MPI_COMM_WORLD root=1 received=32\n";
  s += "leave 0 0 " + at(4400) + " MPI_Bcast\n";
  s += "counter 0 0 " + at(4500) + " PAPI_TOT_INS value=223456789\n";
  s += "counter 0 0 " + at(4500) + " \"memory used\" value=2097152.25\n";
  s += "leave 0 0 " + at(5000) + " compute\n";
  // Rank 0, worker thread.
  s += "enter 0 1 " + at(200) + " \"worker task\"\n";
  s += "recv 0 1 " + at(2600) + " comm=threads peer=0 tag=3 bytes=16\n";
  s += "leave 0 1 " + at(2700) + " \"worker task\"\n";
  // Rank 1: posts two receives, the second completes first (MPI order wins).
  s += "enter 1 0 " + at(500) + " MPI_Recv\n";
  s += "post 1 0 " + at(510) + " comm=MPI_COMM_WORLD peer=0 tag=7 match=1\n";
  s += "recv 1 0 " + at(1660) + " comm=MPI_COMM_WORLD peer=0 tag=7 bytes=64 match=1\n";
  s += "leave 1 0 " + at(1670) + " MPI_Recv\n";
  s += "enter 1 0 " + at(1680) + " MPI_Recv\n";
  s += "recv 1 0 " + at(1760) + " comm=MPI_COMM_WORLD peer=0 tag=7 bytes=128 match=2\n";
  s += "leave 1 0 " + at(1770) + " MPI_Recv\n";
  s += "enter 1 0 " + at(2000) + " compute\n";
  s += "counter 1 0 " + at(2100) + " PAPI_TOT_INS value=42\n";
  s += "leave 1 0 " + at(2900) + " compute\n";
  s += "enter 1 0 " + at(3100) + " MPI_Barrier\n";
  s += "collective 1 0 " + at(3900) + " op=1 comm=MPI_COMM_WORLD\n";
  s += "leave 1 0 " + at(3900) + " MPI_Barrier\n";
  s += "enter 1 0 " + at(4000) + " MPI_Bcast\n";
  s += "collective 1 0 " + at(4100) + " op=2 comm=MPI_COMM_WORLD root=1 sent=32\n";
  s += "leave 1 0 " + at(4100) + " MPI_Bcast\n";
  // Rank 2.
  s += "enter 2 0 " + at(300) + " compute\n";
  s += "leave 2 0 " + at(1800) + " compute\n";
  s += "enter 2 0 " + at(1900) + " MPI_Recv\n";
  s += "recv 2 0 " + at(1990) + " comm=\"even ranks\" peer=0 tag=0 bytes=8 match=1\n";
  s += "leave 2 0 " + at(2050) + " MPI_Recv\n";
  s += "enter 2 0 " + at(3500) + " MPI_Barrier\n";
  s += "collective 2 0 " + at(3900) + " op=1 comm=MPI_COMM_WORLD\n";
  s += "leave 2 0 " + at(3900) + " MPI_Barrier\n";
  s += "enter 2 0 " + at(4000) + " MPI_Bcast\n";
  s += "collective 2 0 " + at(4300) + " op=2 comm=MPI_COMM_WORLD root=1 received=32\n";
  s += "leave 2 0 " + at(4300) + " MPI_Bcast\n";
  return s;
}

/// Loads the .plx file at `path` into *trace (a test failure when it cannot).
inline void LoadPlx(const std::string& path, model::Trace* trace) {
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  auto loaded = model::LoadTrace(**file);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  *trace = std::move(loaded).value();
}

/// Writes the interop test trace to `path` and loads it into *trace.
inline void WriteInteropTestTrace(const std::string& path, model::Trace* trace) {
  const Status written = WriteTraceScript(InteropTestScript(), path);
  ASSERT_TRUE(written.ok()) << written.message();
  LoadPlx(path, trace);
}

}  // namespace plx::testing
