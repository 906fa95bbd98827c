// `parallax matrix` run on a two-rank trace the test writes: the JSON
// matrices of matched messages (count, bytes, latencies, unmatched records),
// the RMA matrix by operation, and the text matrix with rank labels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "command_test.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using nlohmann::json;

constexpr char kScript[] = R"(process 0 pid=10 rank=0
process 1 pid=11 rank=1
thread 0 1 tid=10
thread 1 1 tid=11
comm 0 2 world global=1
comm 1 2 world global=1
send 0 1 t=100 comm=world peer=1 tag=0 bytes=100
send 0 1 t=200 comm=world peer=1 tag=0 bytes=100
send 0 1 t=300 comm=world peer=1 tag=0 bytes=100
send 0 1 t=400 comm=world peer=1 tag=5 bytes=1
recv 0 1 t=530 comm=world peer=1 tag=0 bytes=8
rma 0 1 t=600 op=0 comm=world origin=0 target=1 bytes=64
rma 0 1 t=610 op=0 comm=world origin=0 target=1 bytes=64
rma 0 1 t=620 op=1 comm=world origin=0 target=1 bytes=16
recv 1 1 t=150 comm=world peer=0 tag=0 bytes=100
recv 1 1 t=250 comm=world peer=0 tag=0 bytes=100
recv 1 1 t=390 comm=world peer=0 tag=0 bytes=100
send 1 1 t=500 comm=world peer=0 tag=0 bytes=8
rma 1 1 t=700 op=2 comm=world origin=1 target=0 bytes=24
)";

class MatrixCmdTest : public CommandTest {
 protected:
  MatrixCmdTest() : CommandTest("matrix") {}
  void SetUp() override {
    path_ = dir_.File("two.plx");
    ASSERT_TRUE(testing::WriteTraceScript(kScript, path_).ok());
  }
};

TEST_F(MatrixCmdTest, MessagesJson) {
  const json j = RunJson({});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["kind"], "messages");
  ASSERT_EQ(j["processes"].size(), 2u);
  EXPECT_EQ(j["processes"][1]["rank"], 1);
  EXPECT_EQ(j["messages"], 4);
  EXPECT_EQ(j["bytes"], 308);
  EXPECT_EQ(j["count"], json::parse("[[0, 3], [1, 0]]"));
  EXPECT_EQ(j["bytes_matrix"], json::parse("[[0, 300], [8, 0]]"));
  // Latencies 50, 50, 90 (mean 63.33) and 30.
  EXPECT_TRUE(j["mean_latency_ns"][0][0].is_null());
  EXPECT_NEAR(j["mean_latency_ns"][0][1].get<double>(), 190.0 / 3.0, 1e-9);
  EXPECT_EQ(j["mean_latency_ns"][1][0], 30.0);
  EXPECT_EQ(j["max_latency_ns"], json::parse("[[null, 90], [30, null]]"));
  EXPECT_EQ(j["unmatched_sends"], json::parse("[1, 0]"));
  EXPECT_EQ(j["unmatched_recvs"], json::parse("[0, 0]"));
}

TEST_F(MatrixCmdTest, RmaJson) {
  const json j = RunJson({"--rma"});
  EXPECT_EQ(j["kind"], "rma");
  EXPECT_EQ(j["operations"], 4);
  EXPECT_EQ(j["bytes"], 168);
  EXPECT_EQ(j["unmapped"], 0);
  EXPECT_EQ(j["count"], json::parse("[[0, 3], [1, 0]]"));
  EXPECT_EQ(j["bytes_matrix"], json::parse("[[0, 144], [24, 0]]"));
  EXPECT_EQ(j["ops"]["put"]["count"], json::parse("[[0, 2], [0, 0]]"));
  EXPECT_EQ(j["ops"]["put"]["bytes"], json::parse("[[0, 128], [0, 0]]"));
  EXPECT_EQ(j["ops"]["get"]["bytes"], json::parse("[[0, 16], [0, 0]]"));
  EXPECT_EQ(j["ops"]["accumulate"]["count"], json::parse("[[0, 0], [1, 0]]"));
  EXPECT_EQ(j["ops"]["other"]["count"], json::parse("[[0, 0], [0, 0]]"));
}

TEST_F(MatrixCmdTest, Text) {
  testing::RunResult r = Run({});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "messages: sender (rows) x receiver (columns), messages; 4 matched, 308 B; "
            "unmatched: 1 sends, 0 receives\n"
            "  sender \\ receiver  r0  r1\n"
            "  r0                  .   3\n"
            "  r1                  1   .\n");
  r = Run({"--metric", "latency"});
  EXPECT_NE(r.output.find("63 ns"), std::string::npos) << r.output;
  r = Run({"--rma", "--metric", "bytes"});
  EXPECT_NE(r.output.find("144 B"), std::string::npos) << r.output;
  r = Run({"--rma", "--metric", "latency"});
  EXPECT_EQ(r.exit_code, 1);
  r = Run({"--metric", "speed"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace plx::cli
