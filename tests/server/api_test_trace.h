// A small two-rank MPI trace for the API and HTTP server tests, written as a
// .plx file and loaded the way the server loads it.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server/api/api.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::testing {

// Rank 0: compute [1000, 10000) (solver.cc:42) holding MPI_Send [3000, 4000)
// whose message (64 bytes, tag 5) rank 1 receives in MPI_Recv [1000, 6000);
// an int event `marker` at 2000 and a counter `heap` (100, then 300) on rank 0.
// Rank 1 then computes [6000, 12000). Trace time 0 is model time 1000.
inline std::string ApiTestScript() {
  return MpiScriptPreamble(2) +
         "callsite 0 1 solver.cc 42 function=solve\n"
         "event_type 0 1 marker kind=int\n"
         "counter_def 0 1 heap unit=bytes kind=int\n"
         "enter 0 0 t=1000 compute callsite=1\n"
         "event 0 0 t=2000 marker value=7\n"
         "counter 0 0 t=2500 heap value=100\n"
         "enter 0 0 t=3000 MPI_Send\n"
         "send 0 0 t=3500 comm=world peer=1 tag=5 bytes=64 match=1\n"
         "leave 0 0 t=4000 MPI_Send\n"
         "counter 0 0 t=4500 heap value=300\n"
         "leave 0 0 t=10000 compute\n"
         "enter 1 0 t=1000 MPI_Recv\n"
         "post 1 0 t=1100 comm=world peer=0 tag=5 match=1\n"
         "recv 1 0 t=5000 comm=world peer=0 tag=5 bytes=64 match=1\n"
         "leave 1 0 t=6000 MPI_Recv\n"
         "enter 1 0 t=6000 compute\n"
         "leave 1 0 t=12000 compute\n";
}

/// A store holding the test trace as "t" (loaded) in `dir`.
inline std::unique_ptr<server::TraceStore> LoadedApiTestStore(const TempDir& dir) {
  const std::string path = dir.File("t.plx");
  const Status written = WriteTraceScript(ApiTestScript(), path);
  EXPECT_TRUE(written.ok()) << written.message();
  auto store = std::make_unique<server::TraceStore>();
  store->Add(path).Load({});
  EXPECT_TRUE(store->traces()[0]->ready()) << store->traces()[0]->progress().error;
  return store;
}

}  // namespace plx::testing
