// `parallax stats --counter` on a trace the test writes: a counter sampled
// before every state record gives each state's amount and self amount in the
// table and the JSON (overall, per process, per thread); a name the trace
// does not have is one error line naming the counters it has.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "command_test.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using nlohmann::json;

// solve [100, 900] with one nested kernel [200, 300]; instructions sampled
// just before each record, as PLX_COUNTERS does.
constexpr char kScript[] = R"(process 0 pid=10
thread 0 1 tid=10
state 0 1 solve
state 0 2 kernel
counter_def 0 1 instructions
counter 0 1 t=99 instructions value=1000
enter 0 1 t=100 solve
counter 0 1 t=199 instructions value=1200
enter 0 1 t=200 kernel
counter 0 1 t=299 instructions value=1700
leave 0 1 t=300 kernel
counter 0 1 t=899 instructions value=2300
leave 0 1 t=900 solve
)";

class StatsCmdTest : public CommandTest {
 protected:
  StatsCmdTest() : CommandTest("stats") {}
  void SetUp() override {
    path_ = dir_.File("counters.plx");
    ASSERT_TRUE(testing::WriteTraceScript(kScript, path_).ok());
  }
};

json StateRow(const json& rows, const std::string& name) {
  for (const json& r : rows)
    if (r["name"] == name) return r;
  ADD_FAILURE() << "no row " << name;
  return json();
}

TEST_F(StatsCmdTest, CounterAmountsPerStateInJson) {
  const json j = RunJson({"--counter", "instructions"});
  const json solve = StateRow(j["states"], "solve")["counters"]["instructions"];
  EXPECT_EQ(solve, json::parse(R"({"measured": 1, "total": 1300.0, "self": 800.0})"));
  const json kernel = StateRow(j["states"], "kernel")["counters"]["instructions"];
  EXPECT_EQ(kernel, json::parse(R"({"measured": 1, "total": 500.0, "self": 500.0})"));
  EXPECT_EQ(StateRow(j["processes"][0]["states"], "solve")["counters"]["instructions"], solve);
  EXPECT_EQ(StateRow(j["threads"][0]["states"], "kernel")["counters"]["instructions"], kernel);
  // Without --counter, no counters field.
  EXPECT_FALSE(StateRow(RunJson()["states"], "solve").contains("counters"));
}

TEST_F(StatsCmdTest, CounterColumnsInTheTable) {
  const testing::RunResult r = Run({"--counter", "instructions"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("instructions self"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1,300"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("800"), std::string::npos) << r.output;
}

TEST_F(StatsCmdTest, UnknownCounterIsOneLineNamingTheKnownOnes) {
  const testing::RunResult r = Run({"--counter", "cycles"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(
      r.output.find("--counter cycles: " + path_ + " has no such counter (it has: instructions)"),
      std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace plx::cli
