// `parallax check` run on a trace the test writes: rank 1 receives 20 ns
// before rank 0 sent; the JSON fields, the text summary, --min-latency,
// --repairs and errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "command_test.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using nlohmann::json;

class CheckCmdTest : public CommandTest {
 protected:
  CheckCmdTest() : CommandTest("check") {}
  void SetUp() override {
    const std::string script =
        "process 0 pid=10 rank=0 host=a\n"
        "process 1 pid=11 rank=1 host=b\n"
        "thread 0 1 tid=10\nthread 1 1 tid=11\n"
        "state 0 1 MPI_Send\nstate 1 2 MPI_Recv\n"
        "comm 0 1 world\ncomm 1 1 world\n"
        "enter 0 1 t=1000 MPI_Send\n"
        "send 0 1 t=1010 comm=world peer=1 tag=5 bytes=64\n"
        "leave 0 1 t=1100 MPI_Send\n"
        "enter 1 1 t=500 MPI_Recv\n"
        "recv 1 1 t=990 comm=world peer=0 tag=5 bytes=64\n"
        "leave 1 1 t=1000 MPI_Recv\n";
    path_ = dir_.File("late.plx");
    ASSERT_TRUE(testing::WriteTraceScript(script, path_).ok());
  }
};

TEST_F(CheckCmdTest, Json) {
  const json j = RunJson({});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["violations_before"], 1);
  EXPECT_TRUE(j["violations_before"].is_number_integer());
  EXPECT_EQ(j["violations_after"], 0);
  EXPECT_TRUE(j["violations_after"].is_number_integer());
  EXPECT_EQ(j["before"]["messages"], 1);
  EXPECT_EQ(j["before"]["collectives"], 0);
  EXPECT_EQ(j["min_latency_ns"], 100);
  EXPECT_EQ(j["max_slope"], 0.005);
  EXPECT_EQ(j["constraints"], 1);
  EXPECT_EQ(j["converged"], true);
  EXPECT_EQ(j["events_moved"], 3);  // the receive, MPI_Recv's begin and end
  EXPECT_EQ(j["max_shift_ns"], 120);
  EXPECT_EQ(j["max_duration_change_ns"], 0);
  EXPECT_EQ(j["repairs_total"], 1);
  ASSERT_EQ(j["repairs"].size(), 1u);
  const json& r = j["repairs"][0];
  EXPECT_EQ(r["process"], 1);
  EXPECT_EQ(r["stream"], 1);
  EXPECT_EQ(r["rank"], 1);
  EXPECT_EQ(r["kind"], "message");
  EXPECT_EQ(r["time_ns"], 490);  // from the trace begin at 500
  EXPECT_EQ(r["violation_ns"], 20);
  EXPECT_EQ(r["shift_ns"], 120);
  EXPECT_EQ(r["from_process"], 0);
  EXPECT_EQ(r["from_rank"], 0);
  EXPECT_EQ(r["comm"], "world");
  EXPECT_EQ(r["tag"], 5);
  EXPECT_EQ(r["bytes"], 64);
  ASSERT_EQ(j["processes"].size(), 2u);
  EXPECT_EQ(j["processes"][0]["repair_max_shift_ns"], 0);
  EXPECT_EQ(j["processes"][1]["repair_max_shift_ns"], 120);
  EXPECT_EQ(j["processes"][1]["rank"], 1);
  EXPECT_EQ(j["processes"][1]["clock_offset_ns"], 0);
  EXPECT_TRUE(j["processes"][1]["clock_offsets"].is_array());
}

TEST_F(CheckCmdTest, MinLatencyAndRepairsLimit) {
  json j = RunJson({"--min-latency", "0"});
  EXPECT_EQ(j["repairs"][0]["shift_ns"], 20);
  EXPECT_EQ(j["min_latency_ns"], 0);
  j = RunJson({"--min-latency", "1us"});
  EXPECT_EQ(j["repairs"][0]["shift_ns"], 1020);
  j = RunJson({"--repairs", "0"});
  EXPECT_EQ(j["repairs"].size(), 1u);
}

TEST_F(CheckCmdTest, Text) {
  const testing::RunResult r = Run();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("violations before repair  1 (messages 1, collective calls 0)\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("violations after repair   0\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("message from process 0 (rank 0), tag 5, 64 bytes, world"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("clock correction per process"), std::string::npos) << r.output;
}

TEST_F(CheckCmdTest, Errors) {
  testing::RunResult r = RunOn(dir_.File("missing.plx"), {});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("parallax: error: ", 0), 0u) << r.output;
  r = Run({path_, "--min-latency", "soon"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = Run({path_, "--max-slope", "2"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace plx::cli
