// The out-of-core engine gives the answers the in-memory model gives: every
// analysing command, on every test trace (support/test_traces.h), prints the
// same output (byte for byte, JSON and text) with the whole model in memory
// and with a memory budget so small that every trace goes through the trace
// store chunk by chunk — on three workers with no index, then on one and on
// three with the trace's index built (and its causal repair kept) on the
// first of those and read on the second.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::cli {
namespace {

struct Case {
  const char* name;
  std::vector<std::string> args;  // after the trace
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"info", {"--json"}},
      {"stats", {"--json"}},
      {"stats", {"--by", "thread", "--sort", "self"}},
      {"matrix", {"--json"}},
      {"matrix", {"--rma", "--json"}},
      {"waits", {"--json"}},
      {"critical-path", {"--json"}},
      {"anomalies", {"--json"}},
      {"anomalies", {"--percentile", "90", "--json"}},
      {"anomalies",
       {"--min-samples", "5", "--min-ratio", "1.2", "--min-excess", "0", "--threshold", "2",
        "--json"}},
      {"check", {"--json", "--repairs", "0"}},
      {"report", {"--json", "--top", "0"}},
      {"report", {}},
  };
  return cases;
}

class EngineCompareTest : public testing::TestTracesSuite {
 protected:
  static testing::RunResult Run(const Case& c, const std::string& trace,
                                const std::vector<std::string>& engine) {
    std::vector<std::string> argv = {testing::BuildPath("src/cli/parallax"), c.name, trace};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    argv.insert(argv.end(), engine.begin(), engine.end());
    return testing::RunProgram(argv);
  }
};

TEST_F(EngineCompareTest, EveryCommandGivesTheSameOutput) {
  testing::TempDir indexes;
  const std::vector<std::string> memory = {"--memory", "64G", "--no-index"};
  const std::vector<std::vector<std::string>> stores = {
      {"--memory", "1k", "--threads", "3", "--no-index"},
      {"--memory", "1k", "--threads", "1", "--index-dir", indexes.path()},
      {"--memory", "1k", "--threads", "3", "--index-dir", indexes.path()},
  };
  for (const testing::TestTrace& t : *traces_) {
    for (const Case& c : Cases()) {
      std::string what = std::string(c.name);
      for (const std::string& a : c.args)
        what += " " + a;
      SCOPED_TRACE(t.name + ": " + what);
      const testing::RunResult expected = Run(c, t.path, memory);
      ASSERT_EQ(expected.signal, 0);
      for (const std::vector<std::string>& store : stores) {
        const testing::RunResult actual = Run(c, t.path, store);
        EXPECT_EQ(actual.exit_code, expected.exit_code);
        EXPECT_EQ(actual.output, expected.output);
      }
    }
  }
}

}  // namespace
}  // namespace plx::cli
