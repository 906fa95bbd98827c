// `parallax report` on a two-rank trace the test writes with one of each
// problem: a slow step among 30 (an anomaly), imbalanced compute, a late
// sender whose receive is stamped before its send (a causality repair), and
// both ranks blocked in MPI_Recv for each other at the end (a deadlock).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_test.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using nlohmann::json;

constexpr int64_t kMs = 1000000;
constexpr int64_t kBase = 50 * kMs;  // where the MPI part begins

std::string Script() {
  std::string s = testing::MpiScriptPreamble(2) + "state 0 8 step\nstate 1 8 step\n";
  // Rank 0: 30 steps of 1 ms, step 20 takes 10 ms.
  int64_t t = 0;
  for (int i = 0; i < 30; ++i) {
    const int64_t length = i == 20 ? 10 * kMs : kMs;
    s += "enter 0 0 t=" + std::to_string(t) + " step\n";
    t += length;
    s += "leave 0 0 t=" + std::to_string(t) + " step\n";
  }
  // Compute: rank 0 5 ms, rank 1 1 ms. Rank 1 waits 4 ms in MPI_Recv for
  // rank 0's send, and its receive is stamped 50 ns before the send.
  auto at = [](int64_t ns) { return " t=" + std::to_string(kBase + ns) + " "; };
  s += "enter 0 0" + at(0) + "compute\nleave 0 0" + at(5000000) + "compute\n";
  s += "enter 0 0" + at(5000000) + "MPI_Send\n";
  s += "send 0 0" + at(5000100) + "comm=world peer=1 tag=5 bytes=8 match=1\n";
  s += "leave 0 0" + at(5001000) + "MPI_Send\n";
  s += "enter 0 0" + at(5020000) + "MPI_Recv\n";
  s += "post 0 0" + at(5020010) + "comm=world peer=1 tag=9 match=1\n";
  s += "enter 1 0" + at(0) + "compute\nleave 1 0" + at(1000000) + "compute\n";
  s += "enter 1 0" + at(1000000) + "MPI_Recv\n";
  s += "post 1 0" + at(1000010) + "comm=world peer=0 tag=5 match=1\n";
  s += "recv 1 0" + at(5000050) + "comm=world peer=0 tag=5 bytes=8 match=1\n";
  s += "leave 1 0" + at(5002000) + "MPI_Recv\n";
  s += "enter 1 0" + at(5030000) + "MPI_Recv\n";
  s += "post 1 0" + at(5030010) + "comm=world peer=0 tag=9 match=2\n";
  return s;
}

class ReportCmdTest : public CommandTest {
 protected:
  ReportCmdTest() : CommandTest("report") {}
  void SetUp() override {
    path_ = dir_.File("t.plx");
    const Status s = testing::WriteTraceScript(Script(), path_);
    ASSERT_TRUE(s.ok()) << s.message();
  }
};

TEST_F(ReportCmdTest, JsonHasEverySection) {
  const json j = RunJson();
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["trace"]["processes"], 2);
  EXPECT_EQ(j["trace"]["threads"], 2);

  EXPECT_EQ(j["repair"]["violations_before"], 1);
  EXPECT_EQ(j["repair"]["violations_after"], 0);

  ASSERT_FALSE(j["states"].empty());
  EXPECT_EQ(j["states"][0]["name"], "step");  // most self time

  bool compute = false;
  for (const json& e : j["imbalance"]) {
    if (e["state"] != "compute") continue;
    compute = true;
    EXPECT_EQ(e["by"], "process");
    EXPECT_EQ(e["units"], 2);
    EXPECT_EQ(e["max_rank"], 0);
    EXPECT_EQ(e["min_rank"], 1);
    EXPECT_EQ(e["max_ns"], 5 * kMs);
    EXPECT_EQ(e["min_ns"], 1 * kMs);
    EXPECT_NEAR(e["lost_ns"].get<double>(), 2 * kMs, 1);
  }
  EXPECT_TRUE(compute) << j["imbalance"].dump();

  // The repair moves the receive after the send (>= 100 ns later), so the
  // wait is the send's call begin minus the receive's call begin.
  const json& w = j["waits"];
  EXPECT_NEAR(w["late_sender_ns"].get<double>(), 4 * kMs, 500);
  EXPECT_EQ(w["late_receiver_ns"], 0);
  EXPECT_EQ(w["collective_ns"], 0);
  ASSERT_EQ(w["processes"].size(), 2u);
  EXPECT_EQ(w["processes"][0]["late_sender_ns"], 0);
  EXPECT_EQ(w["processes"][1]["rank"], 1);

  EXPECT_EQ(j["critical_path"]["length_ns"], j["trace"]["duration_ns"]);

  EXPECT_EQ(j["anomalies_total"], 1);
  ASSERT_EQ(j["anomalies"].size(), 1u);
  const json& a = j["anomalies"][0];
  EXPECT_EQ(a["state"], "step");
  EXPECT_EQ(a["process"], 0);
  EXPECT_EQ(a["begin_ns"], 20 * kMs);
  EXPECT_EQ(a["duration_ns"], 10 * kMs);

  ASSERT_EQ(j["deadlocks"].size(), 1u);
  EXPECT_EQ(j["deadlocks"][0]["processes"], json::parse("[0, 1]"));
  ASSERT_EQ(j["deadlocks"][0]["calls"].size(), 2u);
  EXPECT_EQ(j["deadlocks"][0]["calls"][0]["call"], "MPI_Recv");
  EXPECT_EQ(j["deadlocks"][0]["calls"][0]["tag"], 9);
  EXPECT_EQ(j["waits"]["deadlocks"], j["deadlocks"]);

  // One finding per problem (deadlock, waiting, imbalance, anomaly, repair),
  // the deadlock first; MPI_Recv's imbalance is the waiting, not a finding.
  ASSERT_EQ(j["findings"].size(), 5u) << j["findings"].dump();
  EXPECT_EQ(j["findings"][0].get<std::string>().rfind("DEADLOCK: ranks 0, 1", 0), 0u);
}

TEST_F(ReportCmdTest, TopCutsTheLists) {
  const json j = RunJson({"--top", "1"});
  EXPECT_EQ(j["states"].size(), 1u);
  EXPECT_EQ(j["imbalance"].size(), 1u);
  EXPECT_EQ(j["critical_path"]["segments"].size(), 1u);
}

TEST_F(ReportCmdTest, TextNamesEachProblem) {
  const testing::RunResult r = Run({});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* want :
       {"2 process(es) (2 MPI ranks)", "What stands out", "DEADLOCK: ranks 0, 1",
        "'compute' is imbalanced: rank 0 spends 5.000 ms in it", "Where the time goes",
        "Load imbalance", "MPI wait states", "late sender 4.000 ms", "Critical path", "Anomalies",
        "step", "ranks 0, 1 wait for each other:", "rank 0 in MPI_Recv since",
        "waiting for rank 1 (tag 9)",
        "1 violation(s) of causality after clock correction, 0 after repair"})
    EXPECT_NE(r.output.find(want), std::string::npos) << want << "\n" << r.output;
}

TEST_F(ReportCmdTest, ProgressNamesEachStep) {
  const testing::RunResult r = Run({"--progress"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("parallax: loading 100%"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("parallax: analysing: causal repair (1/7)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("parallax: analysing: anomalies (7/7)"), std::string::npos) << r.output;
}

TEST_F(ReportCmdTest, MissingFileIsAOneLineError) {
  const testing::RunResult r = RunOn(dir_.File("no.plx"), {});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("no.plx"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace plx::cli
