// `parallax critical-path` run on a chain of late messages across three ranks
// the test writes: length, segments, time per state and per process in JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_test.h"
#include "support/mpi_scripts.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using nlohmann::json;

using testing::kLateChainScript;
using testing::MpiScriptPreamble;

// The chain of late messages of support/mpi_scripts.h.
class CriticalPathCmdTest : public CommandTest {
 protected:
  CriticalPathCmdTest() : CommandTest("critical-path") {}
  void SetUp() override {
    path_ = dir_.File("t.plx");
    const Status s = testing::WriteTraceScript(MpiScriptPreamble(3) + kLateChainScript, path_);
    ASSERT_TRUE(s.ok()) << s.message();
  }
};

TEST_F(CriticalPathCmdTest, JsonPathThroughTheChain) {
  const json j = RunJson({"--top", "0"});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["length_ns"], 4000);
  EXPECT_EQ(j["segment_count"], 3);
  ASSERT_EQ(j["segments"].size(), 3u);
  const int64_t expected[3][3] = {{0, 0, 1000}, {1, 1000, 3000}, {2, 3000, 4000}};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(j["segments"][i]["process"], expected[i][0]);
    EXPECT_EQ(j["segments"][i]["begin_ns"], expected[i][1]);
    EXPECT_EQ(j["segments"][i]["end_ns"], expected[i][2]);
  }
  ASSERT_EQ(j["states"].size(), 2u);
  EXPECT_EQ(j["states"][0]["name"], "compute");
  EXPECT_EQ(j["states"][0]["ns"], 3750);
  EXPECT_DOUBLE_EQ(j["states"][0]["share"].get<double>(), 3750.0 / 4000.0);
  EXPECT_EQ(j["states"][1]["name"], "MPI_Recv");
  EXPECT_EQ(j["states"][1]["category"], "comm");
  EXPECT_EQ(j["states"][1]["ns"], 250);
  ASSERT_EQ(j["processes"].size(), 3u);
  EXPECT_EQ(j["processes"][0]["ns"], 1000);
  EXPECT_EQ(j["processes"][1]["ns"], 2000);
  EXPECT_EQ(j["processes"][1]["rank"], 1);
  EXPECT_EQ(j["processes"][2]["ns"], 1000);
}

TEST_F(CriticalPathCmdTest, TopShowsTheLongestSegmentsFirst) {
  const json j = RunJson({"--top", "1"});
  ASSERT_EQ(j["segments"].size(), 1u);
  EXPECT_EQ(j["segments"][0]["process"], 1);
  EXPECT_EQ(j["segments"][0]["length_ns"], 2000);
}

TEST_F(CriticalPathCmdTest, TextShowsLengthAndStates) {
  const testing::RunResult r = Run({});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("critical path: 4.000 us in 3 segment(s)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("compute"), std::string::npos);
}

}  // namespace
}  // namespace plx::cli
