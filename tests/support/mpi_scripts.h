// MPI trace scripts (support/trace_script.h) that tests in several layers
// share: the analysis tests compute on them, the CLI tests run the commands
// on them, and both hold the same hand-worked numbers.
#pragma once

namespace plx::testing {

/// A chain of late messages across three ranks, after MpiScriptPreamble(3).
/// Rank 0 computes until 1000 and sends to rank 1, which waited in MPI_Recv
/// from 100; rank 1 computes until 3000 and sends to rank 2, which waited
/// from 200; rank 2 computes until 4000, the end of the trace. Late sender
/// 900 + 2800 ns; the critical path is rank 0's compute [0, 1000], rank 1
/// [1000, 3000], rank 2 [3000, 4000]: compute 3750 ns, MPI_Recv 250 ns.
inline constexpr char kLateChainScript[] = R"(
enter 0 0 t=0 compute
leave 0 0 t=1000 compute
enter 0 0 t=1000 MPI_Send
send 0 0 t=1010 comm=world peer=1 tag=0 bytes=8 match=1
leave 0 0 t=1100 MPI_Send
enter 1 0 t=100 MPI_Recv
post 1 0 t=110 comm=world peer=0 tag=0 match=1
recv 1 0 t=1040 comm=world peer=0 tag=0 bytes=8 match=1
leave 1 0 t=1050 MPI_Recv
enter 1 0 t=1050 compute
leave 1 0 t=3000 compute
enter 1 0 t=3000 MPI_Send
send 1 0 t=3010 comm=world peer=2 tag=0 bytes=8 match=1
leave 1 0 t=3100 MPI_Send
enter 2 0 t=200 MPI_Recv
post 2 0 t=210 comm=world peer=1 tag=0 match=1
recv 2 0 t=3190 comm=world peer=1 tag=0 bytes=8 match=1
leave 2 0 t=3200 MPI_Recv
enter 2 0 t=3200 compute
leave 2 0 t=4000 compute
)";

/// A 50 us late sender between ranks 0 and 1, after MpiScriptPreamble(N >= 2):
/// rank 0 computes until 100000, then sends (tag 5, match 1) at 100100 in
/// MPI_Send [100000, 101000]; rank 1 entered MPI_Recv at 50000, posted it at
/// 50010, and receives at 109000 (MPI_Recv ends at 110000). Tests append
/// later calls of either rank.
inline constexpr char kLateSenderScript[] = R"(
enter 0 0 t=0 compute
leave 0 0 t=100000 compute
enter 0 0 t=100000 MPI_Send
send 0 0 t=100100 comm=world peer=1 tag=5 bytes=8 match=1
leave 0 0 t=101000 MPI_Send
enter 1 0 t=50000 MPI_Recv
post 1 0 t=50010 comm=world peer=0 tag=5 match=1
recv 1 0 t=109000 comm=world peer=0 tag=5 bytes=8 match=1
leave 1 0 t=110000 MPI_Recv
)";

}  // namespace plx::testing
