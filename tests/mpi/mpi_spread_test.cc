// `mpirun -np N parallax-mpi COMMAND` where the spread is not a plain
// comparison (mpi_spread_compare_test.cc has those): a late receiver
// counted where its send is decoded, a parts directory with a damaged and
// a missing part, and the failures: a trace no process can open is one
// error and an exit, never a hang; so is a process that dies, and one
// stuck opening the trace (after --step-timeout).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "spread_support.h"
#include "support/test_support.h"
#include "support/test_traces.h"
#include "support/trace_script.h"

namespace plx::testing {
namespace {

class MpiSpreadTest : public TestTracesSuite {
 protected:
  void SetUp() override {
    if (!Exists(BuildPath("src/cli/parallax-mpi")) || !Exists(OpenMpi().mpirun))
      GTEST_SKIP() << "parallax-mpi or Open MPI's mpirun is not here";
  }
};

// Late receivers are waits of the sending thread, found where the pair is
// joined (the receiver's process): the wait travels to the process that
// decodes the sender, and its end to process 0, which walks the critical
// path. Ranks 0 and 2 each hold an MPI_Ssend until rank 1 posts its
// receive (160 and 110 ns), then all three meet in a barrier, rank 2 last;
// rank 2 ends the run, so the path goes back on it to its late receiver's
// end and jumps there to rank 1.
TEST_F(MpiSpreadTest, ALateReceiverIsCountedWhereItsSendIsDecoded) {
  TempDir dir;
  const std::string trace = dir.File("late-receivers.plx");
  const std::string script = MpiScriptPreamble(3) + R"(
enter 0 0 t=100 MPI_Ssend
send 0 0 t=110 comm=world peer=1 tag=0 bytes=8 match=1
leave 0 0 t=400 MPI_Ssend
enter 1 0 t=250 MPI_Recv
post 1 0 t=260 comm=world peer=0 tag=0 match=1
recv 1 0 t=300 comm=world peer=0 tag=0 bytes=8 match=1
leave 1 0 t=310 MPI_Recv
enter 2 0 t=500 MPI_Ssend
send 2 0 t=510 comm=world peer=1 tag=1 bytes=8 match=1
leave 2 0 t=900 MPI_Ssend
enter 1 0 t=600 MPI_Recv
post 1 0 t=610 comm=world peer=2 tag=1 match=2
recv 1 0 t=700 comm=world peer=2 tag=1 bytes=8 match=2
leave 1 0 t=710 MPI_Recv
enter 0 0 t=1000 MPI_Barrier
collective 0 0 t=1001 op=1 comm=world
leave 0 0 t=1300 MPI_Barrier
enter 1 0 t=1200 MPI_Barrier
collective 1 0 t=1201 op=1 comm=world
leave 1 0 t=1300 MPI_Barrier
enter 2 0 t=1250 MPI_Barrier
collective 2 0 t=1251 op=1 comm=world
leave 2 0 t=1300 MPI_Barrier
enter 2 0 t=1300 compute
leave 2 0 t=2000 compute
)";
  ASSERT_TRUE(WriteTraceScript(script, trace).ok());
  for (const char* command : {"waits", "critical-path"}) {
    const std::vector<std::string> args = {command, trace, "--json", "--top", "0", "--no-index"};
    const Output alone = RunKept(dir, Alone(args));
    ASSERT_EQ(alone.exit_code, 0) << alone.all;
    if (args[0] == "waits") {
      ASSERT_NE(alone.out.find("\"late_receiver_ns\": 270"), std::string::npos) << alone.out;
      ASSERT_NE(alone.out.find("\"collective_ns\": 300"), std::string::npos) << alone.out;
    }
    for (int processes : {2, 3}) {
      SCOPED_TRACE(std::string(command) + ", " + std::to_string(processes) + " processes");
      const Output spread = RunKept(dir, Spread(processes, args));
      ASSERT_EQ(spread.exit_code, 0) << spread.all;
      EXPECT_EQ(spread.out, alone.out);
    }
  }
}

// One part cut short and one missing: process 0 merges what is there and
// names both, the others read its merged copy, and every answer is the
// one-process answer (messages to the missing rank left unmatched).
TEST_F(MpiSpreadTest, APartsDirectoryWithADamagedAndAMissingPartAnswersAsInOneProcess) {
  TempDir dir;
  const std::string parts = RecordParts(dir);
  if (parts.empty()) GTEST_SKIP() << "Open MPI cannot run farm here";
  const std::string damaged = parts + "/rank-2.plx";
  std::filesystem::resize_file(damaged, std::filesystem::file_size(damaged) * 2 / 3);
  std::filesystem::remove(parts + "/rank-3.plx");
  const std::vector<std::string> args = {"matrix", parts,         "--json",         "--threads",
                                         "1",      "--index-dir", dir.File("index")};
  const Output alone = RunKept(dir, Alone(args));
  ASSERT_EQ(alone.exit_code, 0) << alone.all;
  for (int processes : {2, 4}) {
    SCOPED_TRACE(std::to_string(processes) + " processes");
    const Output spread = RunKept(dir, Spread(processes, args));
    ASSERT_EQ(spread.exit_code, 0) << spread.all;
    EXPECT_EQ(spread.out, alone.out);
    EXPECT_NE(spread.all.find("parallax-mpi: warning: "), std::string::npos) << spread.all;
    EXPECT_NE(spread.all.find("rank 3 of 4 (MPI_COMM_WORLD) has no rank-<R>.plx part"),
              std::string::npos)
        << spread.all;
    EXPECT_NE(spread.all.find("rank-2.plx"), std::string::npos) << spread.all;
  }
}

TEST_F(MpiSpreadTest, ATraceNoProcessCanOpenIsOneErrorNotAHang) {
  TempDir dir;
  const Output spread = RunKept(dir, Spread(2, {"stats", dir.File("missing.plx")}));
  EXPECT_EQ(spread.exit_code, 1) << spread.all;
  EXPECT_NE(spread.all.find("parallax-mpi: error: "), std::string::npos) << spread.all;
  EXPECT_NE(spread.all.find("missing.plx"), std::string::npos) << spread.all;
  EXPECT_EQ(spread.out, "");
}

// A process killed before it takes part: the others would wait for it in
// their first collective step; the launcher ends the job instead, with its
// message (Open MPI names the rank, "process rank 1 ... exited on signal
// 9", in most runs, and in the others says that "1 process returned a
// non-zero exit code").
TEST_F(MpiSpreadTest, AProcessThatDiesEndsTheJob) {
  TempDir dir;
  const std::vector<TestTrace>& traces = *traces_;
  ASSERT_FALSE(traces.empty());
  std::vector<std::string> argv = Spread(2, {"stats", traces.front().path});
  // Rank 1 runs `sh -c 'kill itself' sh parallax-mpi ...` instead.
  const auto program = std::find(argv.begin(), argv.end(), BuildPath("src/cli/parallax-mpi"));
  ASSERT_NE(program, argv.end());
  argv.insert(program, {"/bin/sh", "-c",
                        "[ \"$OMPI_COMM_WORLD_RANK\" = 1 ] && kill -9 $$; exec \"$@\"", "sh"});
  const Output spread = RunKept(dir, argv);
  EXPECT_NE(spread.exit_code, 0) << spread.all;
  EXPECT_TRUE(spread.all.find("rank 1") != std::string::npos ||
              spread.all.find("1 process returned") != std::string::npos)
      << spread.all;
  EXPECT_EQ(spread.out, "");
}

// A process stuck without dying (here reading a FIFO no one writes, as in a
// hung file system) is alive to the launcher: the others would wait for it
// forever in their next step. Past --step-timeout they end the job
// instead, saying why.
TEST_F(MpiSpreadTest, AProcessStuckOpeningTheTraceEndsTheJobAfterTheStepTimeout) {
  TempDir dir;
  const std::vector<TestTrace>& traces = *traces_;
  ASSERT_FALSE(traces.empty());
  const std::string fifo = dir.File("stuck.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::vector<std::string> argv = Spread(2, {"stats", traces.front().path, "--step-timeout", "2"});
  const auto program = std::find(argv.begin(), argv.end(), BuildPath("src/cli/parallax-mpi"));
  ASSERT_NE(program, argv.end());
  // Rank 1 runs `parallax-mpi stats FIFO --step-timeout 2` instead.
  argv.insert(program, {"/bin/sh", "-c",
                        "if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then p=$1; c=$2; shift 3; "
                        "set -- \"$p\" \"$c\" '" +
                            fifo + "' \"$@\"; fi; exec \"$@\"",
                        "sh"});
  const Output spread = RunKept(dir, argv);
  EXPECT_NE(spread.exit_code, 0) << spread.all;
  EXPECT_NE(spread.all.find("parallax-mpi: process 0: error: waited 2 s for the other processes"),
            std::string::npos)
      << spread.all;
  EXPECT_NE(spread.all.find("--step-timeout"), std::string::npos) << spread.all;
  EXPECT_EQ(spread.out, "");
}

}  // namespace
}  // namespace plx::testing
