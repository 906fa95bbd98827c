// `mpirun -np N parallax-mpi COMMAND` prints what `parallax COMMAND` prints:
// on every test trace (support/test_traces.h: damaged and truncated files,
// skewed clocks, a deadlock, unmatched messages among them) and on the
// parts directory of a real MPI run left unmerged, with 1, 2 and 4
// processes each analysing its share of the threads (and 2 under MPICH,
// parallax-mpi-mpich). A trace no process can
// open is one error and an exit, never a hang; so is a process that dies,
// and one stuck opening the trace (after --step-timeout).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "mpi_launch.h"
#include "support/test_support.h"
#include "support/test_traces.h"
#include "support/trace_script.h"

namespace plx::testing {
namespace {

struct Output {
  int exit_code = -1;
  std::string out;  // standard output
  std::string all;  // standard output and error
};

// `argv...` with its standard output kept apart.
Output RunKept(const TempDir& dir, std::vector<std::string> argv) {
  const std::string out = dir.File("stdout.txt");
  std::string script = "\"$0\"";
  for (size_t i = 1; i < argv.size(); ++i)
    script += " \"${" + std::to_string(i) + "}\"";
  script += " > \"${" + std::to_string(argv.size()) + "}\"";
  argv.push_back(out);
  argv.insert(argv.begin(), {"/bin/sh", "-c", script});
  const RunResult r = RunProgram(argv, {"ASAN_OPTIONS=detect_leaks=0", "OMPI_MCA_btl=self,vader",
                                        "XDG_CACHE_HOME=" + dir.File("cache")});
  return {r.exit_code, ReadFile(out), r.output};
}

// parallax-mpi for each MPI it is built for, with the process counts run:
// Open MPI's 1, 2 and 4; MPICH's 2 (the same program, another launcher).
struct SpreadProgram {
  Flavor flavor;
  std::string path;
  std::vector<int> processes;
};

std::vector<SpreadProgram> SpreadPrograms() {
  std::vector<SpreadProgram> out;
  for (SpreadProgram p : {SpreadProgram{OpenMpi(), BuildPath("src/cli/parallax-mpi"), {1, 2, 4}},
                          SpreadProgram{Mpich(), BuildPath("src/cli/parallax-mpi-mpich"), {2}}}) {
    if (Exists(p.path) && Exists(p.flavor.mpirun))
      out.push_back(std::move(p));
    else
      std::printf("note: %s is not built or %s is not here\n", p.path.c_str(),
                  p.flavor.mpirun.c_str());
  }
  return out;
}

std::vector<std::string> Spread(const SpreadProgram& program, int processes,
                                const std::vector<std::string>& args) {
  const Flavor& f = program.flavor;
  std::vector<std::string> argv = {f.mpirun};
  argv.insert(argv.end(), f.options.begin(), f.options.end());
  argv.insert(argv.end(), {"-np", std::to_string(processes), program.path});
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::vector<std::string> Spread(int processes, const std::vector<std::string>& args) {
  return Spread({OpenMpi(), BuildPath("src/cli/parallax-mpi"), {}}, processes, args);
}

std::vector<std::string> Alone(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {BuildPath("src/cli/parallax")};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

const std::vector<std::vector<std::string>>& Commands() {
  static const std::vector<std::vector<std::string>> commands = {
      {"stats", "--json"},
      {"stats", "--by", "thread", "--sort", "self"},
      {"stats", "--by", "callsite", "--top", "5"},
      {"stats", "--json", "--from", "50us", "--to", "20ms"},
      {"matrix", "--json"},
      {"matrix", "--metric", "latency", "--from", "50us", "--to", "20ms"},
      {"matrix", "--rma", "--json"},
      // The first computes the repair (each run below has an index of its
      // own), the second finds it in the index.
      {"check", "--json", "--repairs", "0"},
      {"check", "--min-latency", "1us"},
      {"anomalies", "--json", "--threshold", "1", "--min-ratio", "1", "--min-excess", "0"},
      {"anomalies", "--percentile", "90", "--top", "5"},
      {"waits", "--json", "--top", "0"},
      {"waits"},
      {"critical-path", "--json", "--top", "0"},
      {"critical-path"},
      {"report", "--json", "--top", "0"},
      {"report"},
  };
  return commands;
}

int NextIndex() {
  static int next = 0;
  return next++;
}

// Every command on `trace`: the spread output is the one-process output.
// Each run has an index directory of its own, so what one keeps there (the
// causal repair) is computed by that run first.
void Compare(const TempDir& dir, const std::string& trace) {
  const std::string index = dir.File("index-" + std::to_string(NextIndex()));
  for (const std::vector<std::string>& command : Commands()) {
    std::vector<std::string> args = command;
    args.insert(args.begin() + 1, trace);
    args.insert(args.end(), {"--threads", "1"});
    const auto with_index = [&](std::string name) {
      std::vector<std::string> a = args;
      a.insert(a.end(), {"--index-dir", index + "-" + name});
      return a;
    };
    const Output alone = RunKept(dir, Alone(with_index("alone")));
    for (const SpreadProgram& program : SpreadPrograms()) {
      for (int processes : program.processes) {
        SCOPED_TRACE(command[0] + " " + command.back() + ", " + program.flavor.name + ", " +
                     std::to_string(processes) + " processes");
        const Output spread =
            RunKept(dir, Spread(program, processes,
                                with_index(program.flavor.name + "-" + std::to_string(processes))));
        ASSERT_EQ(spread.exit_code, alone.exit_code) << spread.all;
        EXPECT_EQ(spread.out, alone.out);
      }
    }
  }
}

class MpiSpreadTest : public TestTracesSuite {
 protected:
  void SetUp() override {
    if (!Exists(BuildPath("src/cli/parallax-mpi")) || !Exists(OpenMpi().mpirun))
      GTEST_SKIP() << "parallax-mpi or Open MPI's mpirun is not here";
  }
};

TEST_F(MpiSpreadTest, EveryTestTraceAnswersAsInOneProcess) {
  TempDir dir;
  for (const TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    Compare(dir, t.path);
  }
}

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

// The parts directory of a real 4-rank run of farm left unmerged, in `dir`
// (empty when Open MPI cannot run farm here).
std::string RecordParts(const TempDir& dir) {
  if (FlavorsFor("farm").empty() || FlavorsFor("farm")[0].name != "openmpi") return "";
  const std::string trace = dir.File("farm.plx"), parts = trace + ".parts";
  std::vector<std::string> env = {"PLX_MERGE=0"};
  std::vector<std::string> launch = TracedLaunch(OpenMpi(), "farm", 4, {dir.path()}, trace, &env);
  if (!kLinked) launch.insert(launch.begin() + 2, "--no-merge");  // after "record"
  const RunResult run = RunProgram(launch, env);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Exists(parts + "/rank-3.plx"));
  return parts;
}

TEST_F(MpiSpreadTest, APartsDirectoryAnswersAsInOneProcess) {
  TempDir dir;
  const std::string parts = RecordParts(dir);
  if (parts.empty()) GTEST_SKIP() << "Open MPI cannot run farm here";
  Compare(dir, parts);
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
