// `parallax waits` run on a three-rank trace the test writes: a 50 us late
// sender, a barrier, and ranks 0 and 1 deadlocked in MPI_Recv at the end;
// the JSON totals, per-process rows, call sites and deadlock, and the text.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_test.h"
#include "support/mpi_scripts.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using nlohmann::json;

using testing::kLateSenderScript;
using testing::MpiScriptPreamble;

// After kLateSenderScript (rank 1 waits 50 us in MPI_Recv for rank 0's
// send): in the barrier rank 0 waits 89 us and rank 1 40 us for rank 2; then
// ranks 0 and 1 each wait in MPI_Recv for the other.
constexpr char kScript[] = R"(
enter 0 0 t=101000 MPI_Barrier
collective 0 0 t=199999 op=1 comm=world
leave 0 0 t=200000 MPI_Barrier
enter 0 0 t=200000 MPI_Recv
post 0 0 t=200010 comm=world peer=1 tag=9 match=1
enter 1 0 t=150000 MPI_Barrier
collective 1 0 t=200099 op=1 comm=world
leave 1 0 t=200100 MPI_Barrier
enter 1 0 t=200200 MPI_Recv
post 1 0 t=200210 comm=world peer=0 tag=9 match=2
enter 2 0 t=190000 MPI_Barrier
collective 2 0 t=200199 op=1 comm=world
leave 2 0 t=200200 MPI_Barrier
thread_end 2 0 t=200300
)";

class WaitsCmdTest : public CommandTest {
 protected:
  WaitsCmdTest() : CommandTest("waits") {}
  void SetUp() override {
    path_ = dir_.File("t.plx");
    const Status s =
        testing::WriteTraceScript(MpiScriptPreamble(3) + kLateSenderScript + kScript, path_);
    ASSERT_TRUE(s.ok()) << s.message();
  }
};

TEST_F(WaitsCmdTest, JsonTotalsPerProcessAndDeadlock) {
  const json j = RunJson();
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["late_sender_ns"], 50000);
  EXPECT_EQ(j["late_receiver_ns"], 0);
  EXPECT_EQ(j["collective_ns"], 89000 + 40000);
  EXPECT_EQ(j["wait_ns"], 179000);
  EXPECT_EQ(j["count"], 3);
  ASSERT_EQ(j["processes"].size(), 3u);
  const int64_t collective[3] = {89000, 40000, 0};
  for (int i = 0; i < 3; ++i) {
    const json& p = j["processes"][i];
    EXPECT_EQ(p["process"], i);
    EXPECT_EQ(p["rank"], i);
    EXPECT_EQ(p["late_sender_ns"], i == 1 ? 50000 : 0);
    EXPECT_EQ(p["late_receiver_ns"], 0);
    EXPECT_EQ(p["collective_ns"], collective[i]);
  }
  ASSERT_EQ(j["callsites"].size(), 2u);
  EXPECT_EQ(j["callsites"][0]["call"], "MPI_Barrier");
  EXPECT_EQ(j["callsites"][0]["collective_ns"], 129000);
  EXPECT_EQ(j["callsites"][1]["call"], "MPI_Recv");
  EXPECT_EQ(j["callsites"][1]["late_sender_ns"], 50000);

  ASSERT_EQ(j["deadlocks"].size(), 1u);
  const json& d = j["deadlocks"][0];
  EXPECT_EQ(d["processes"], json::parse("[0, 1]"));
  ASSERT_EQ(d["calls"].size(), 2u);
  EXPECT_EQ(d["calls"][0]["rank"], 0);
  EXPECT_EQ(d["calls"][0]["call"], "MPI_Recv");
  EXPECT_EQ(d["calls"][0]["since_ns"], 200000);
  EXPECT_EQ(d["calls"][0]["waits_for"], json::parse("[1]"));
  EXPECT_EQ(d["calls"][0]["communicator"], "world");
  EXPECT_EQ(d["calls"][0]["tag"], 9);
  EXPECT_EQ(d["calls"][1]["waits_for"], json::parse("[0]"));
  EXPECT_TRUE(j["blocked"].empty());
}

TEST_F(WaitsCmdTest, TopLimitsTheCallSites) {
  const json j = RunJson({"--top", "1"});
  ASSERT_EQ(j["callsites"].size(), 1u);
  EXPECT_EQ(j["callsites"][0]["call"], "MPI_Barrier");
}

TEST_F(WaitsCmdTest, TextNamesTotalsAndTheDeadlock) {
  const testing::RunResult r = Run({});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("late sender    50.000 us"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("deadlock of ranks 0,1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 0 stream 0: MPI_Recv"), std::string::npos) << r.output;
}

TEST_F(WaitsCmdTest, MissingFileIsAOneLineError) {
  const testing::RunResult r = RunOn(dir_.File("none.plx"), {});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

}  // namespace
}  // namespace plx::cli
