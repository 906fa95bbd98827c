// `parallax anomalies` run on a trace the test writes: one iteration of a
// steady loop made 8x slower is the only anomaly, with its JSON fields; the
// percentile method, --state, --top and errors.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "command_test.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using nlohmann::json;

class AnomaliesCmdTest : public CommandTest {
 protected:
  AnomaliesCmdTest() : CommandTest("anomalies") {}
  void SetUp() override {
    // 31 iterations of `compute` (5 ms + i us) at main.c:42; iteration 20 takes 40 ms.
    std::string script =
        "process 0 pid=7 rank=0\nthread 0 1 tid=7\nstate 0 1 compute\nstate 0 2 io\n"
        "callsite 0 5 main.c 42 function=loop\n";
    int64_t t = 1000;
    for (int i = 0; i < 31; ++i) {
      const int64_t d = i == 20 ? 40'000'000 : 5'000'000 + i * 1000;
      if (i == 20) slow_begin_ = t;
      script +=
          fmt::format("enter 0 1 t={} compute callsite=5\nleave 0 1 t={} compute\n", t, t + d);
      t += d;
    }
    script += fmt::format("enter 0 1 t={} io\nleave 0 1 t={} io\n", t, t + 10);
    path_ = dir_.File("loop.plx");
    ASSERT_TRUE(testing::WriteTraceScript(script, path_).ok());
  }

  int64_t slow_begin_ = 0;
};

TEST_F(AnomaliesCmdTest, RobustJson) {
  const json j = RunJson({});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["method"], "robust");
  EXPECT_EQ(j["threshold"], 6.0);
  EXPECT_EQ(j["min_excess_ns"], 1000000);
  EXPECT_EQ(j["total"], 1);
  ASSERT_EQ(j["anomalies"].size(), 1u);
  const json& a = j["anomalies"][0];
  EXPECT_EQ(a["state"], "compute");
  EXPECT_EQ(a["process"], 0);
  EXPECT_EQ(a["rank"], 0);
  EXPECT_EQ(a["thread"], 1);
  EXPECT_EQ(a["tid"], 7);
  EXPECT_EQ(a["begin_ns"], slow_begin_);
  EXPECT_EQ(a["duration_ns"], 40000000);
  // Median of 5 ms + {0..30 but 20} us and 40 ms: the 16th of 31 = 5.015 ms.
  EXPECT_EQ(a["median_ns"], 5015000.0);
  EXPECT_EQ(a["mad_ns"], 8000.0);
  EXPECT_EQ(a["group"], "callsite");
  EXPECT_EQ(a["group_size"], 31);
  EXPECT_EQ(a["method"], "robust");
  EXPECT_NEAR(a["score"].get<double>(), (40000000.0 - 5015000.0) / (0.01 * 5015000.0), 1e-6);
  EXPECT_EQ(a["callsite"], json({{"file", "main.c"}, {"line", 42}, {"function", "loop"}}));
}

TEST_F(AnomaliesCmdTest, Text) {
  const testing::RunResult r = Run({});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 anomaly (robust method"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("compute"), std::string::npos);
  EXPECT_NE(r.output.find("rank 0 stream 1"), std::string::npos);
  EXPECT_NE(r.output.find("40.000 ms"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("main.c:42 (loop)"), std::string::npos);
  const testing::RunResult none = Run({"--min-ratio", "10"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.output.rfind("no anomalies (robust method", 0), 0u) << none.output;
}

TEST_F(AnomaliesCmdTest, PercentileStateAndTop) {
  // p90 of 31 durations: the 28th smallest; the three above it are flagged.
  json j = RunJson({"--percentile", "90"});
  EXPECT_EQ(j["method"], "percentile");
  ASSERT_EQ(j["anomalies"].size(), 3u);
  EXPECT_EQ(j["anomalies"][0]["duration_ns"], 40000000);
  EXPECT_EQ(j["anomalies"][1]["duration_ns"], 5030000);
  EXPECT_EQ(j["anomalies"][2]["duration_ns"], 5029000);
  EXPECT_EQ(j["anomalies"][2]["method"], "percentile");
  j = RunJson({"--percentile", "90", "--top", "1"});
  EXPECT_EQ(j["total"], 3);
  EXPECT_EQ(j["anomalies"].size(), 1u);
  j = RunJson({"--state", "io"});
  EXPECT_EQ(j["total"], 0);
}

TEST_F(AnomaliesCmdTest, Errors) {
  testing::RunResult r = Run({"--state", "nope"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("parallax: error: no state named 'nope'"), std::string::npos);
  r = Run({"--percentile", "100"});
  EXPECT_EQ(r.exit_code, 1);
  r = Run({"--percentile", "101"});
  EXPECT_EQ(r.exit_code, 2);
  r = Run({"--min-excess", "soon"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("--min-excess"), std::string::npos);
}

}  // namespace
}  // namespace plx::cli
