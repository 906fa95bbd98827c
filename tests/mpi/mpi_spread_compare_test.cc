// `mpirun -np N parallax-mpi COMMAND` prints what `parallax COMMAND` prints,
// for every analysing command: on every test trace (support/test_traces.h:
// damaged and truncated files, skewed clocks, a deadlock, unmatched
// messages among them) and on the parts directory of a real MPI run left
// unmerged, with 1, 2 and 4 processes each analysing its share of the
// threads (and 2 under MPICH, parallax-mpi-mpich). One test per launcher
// and process count, so that ctest runs them side by side.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "spread_support.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::testing {
namespace {

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

// One way of running parallax-mpi: the launcher's flavour and the processes.
struct SpreadRun {
  const char* flavor;
  int processes;
};

void PrintTo(const SpreadRun& run, std::ostream* os) {
  *os << run.flavor << " -np " << run.processes;
}

std::string RunName(const ::testing::TestParamInfo<SpreadRun>& info) {
  return std::string(info.param.flavor) + "_" + std::to_string(info.param.processes);
}

class MpiSpreadCompareTest : public TestTracesSuite,
                             public ::testing::WithParamInterface<SpreadRun> {
 protected:
  void SetUp() override {
    for (const SpreadProgram& p : SpreadPrograms())
      if (p.flavor.name == GetParam().flavor) program_ = p;
    if (program_.path.empty())
      GTEST_SKIP() << "parallax-mpi for " << GetParam().flavor << " or its mpirun is not here";
  }

  // Every command on `trace`: the spread output is the one-process output.
  // Each run has an index directory of its own, so what one keeps there
  // (the causal repair) is computed by that run first.
  void Compare(const TempDir& dir, const std::string& trace) {
    const std::string index = dir.File("index-" + std::to_string(next_index_++));
    const int processes = GetParam().processes;
    for (const std::vector<std::string>& command : Commands()) {
      std::vector<std::string> args = command;
      args.insert(args.begin() + 1, trace);
      args.insert(args.end(), {"--threads", "1"});
      const auto with_index = [&](std::string name) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"--index-dir", index + "-" + name});
        return a;
      };
      SCOPED_TRACE(command[0] + " " + command.back());
      const Output alone = RunKept(dir, Alone(with_index("alone")));
      const Output spread = RunKept(dir, Spread(program_, processes, with_index("spread")));
      ASSERT_EQ(spread.exit_code, alone.exit_code) << spread.all;
      EXPECT_EQ(spread.out, alone.out);
    }
  }

  SpreadProgram program_;
  int next_index_ = 0;
};

TEST_P(MpiSpreadCompareTest, EveryTestTraceAnswersAsInOneProcess) {
  TempDir dir;
  for (const TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    Compare(dir, t.path);
  }
}

TEST_P(MpiSpreadCompareTest, APartsDirectoryAnswersAsInOneProcess) {
  TempDir dir;
  const std::string parts = RecordParts(dir);
  if (parts.empty()) GTEST_SKIP() << "Open MPI cannot run farm here";
  Compare(dir, parts);
}

INSTANTIATE_TEST_SUITE_P(Runs, MpiSpreadCompareTest,
                         ::testing::Values(SpreadRun{"openmpi", 1}, SpreadRun{"openmpi", 2},
                                           SpreadRun{"openmpi", 4}, SpreadRun{"mpich", 2}),
                         RunName);

}  // namespace
}  // namespace plx::testing
