// CostSeverity: a finding is a warning only when it cost a real share of the
// run, and never for nanoseconds however short the run.
#include "analysis/finding_severity.h"

#include <gtest/gtest.h>

#include <string>

namespace plx::analysis {
namespace {

TEST(FindingSeverityTest, NanosecondsAreInfoWhateverTheRun) {
  EXPECT_EQ(std::string(CostSeverity(40, 11'000)), "info");
  EXPECT_EQ(std::string(CostSeverity(kWarningFloorNs - 1, 1'000)), "info");
  EXPECT_EQ(std::string(CostSeverity(kWarningFloorNs, 1'000)), "warning");
}

TEST(FindingSeverityTest, ATenthOfAPerMilleOfALongRunIsInfo) {
  const int64_t run = 10'000'000'000;  // 10 s: the bar is 10 ms
  EXPECT_EQ(std::string(CostSeverity(9'999'999, run)), "info");
  EXPECT_EQ(std::string(CostSeverity(10'000'000, run)), "warning");
  EXPECT_EQ(std::string(CostSeverity(2e9, run)), "warning");
}

}  // namespace
}  // namespace plx::analysis
