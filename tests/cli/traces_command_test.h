// A fixture for tests that run the built `parallax` over every test trace
// (support/test_traces.h): the program's whole output, or its stdout parsed
// as JSON (damaged test traces give warnings on stderr).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::cli {

class TracesCommandTest : public testing::TestTracesSuite {
 protected:
  /// `parallax ARGS...`, stdout and stderr.
  static testing::RunResult Parallax(std::vector<std::string> args) {
    args.insert(args.begin(), testing::BuildPath("src/cli/parallax"));
    return testing::RunProgram(args);
  }
  /// `parallax ARGS...`'s stdout parsed; a failure when it exits non-zero.
  static nlohmann::json Json(std::vector<std::string> args) {
    args.insert(args.begin(), testing::BuildPath("src/cli/parallax"));
    const testing::RunResult r = testing::RunProgramStdout(args);
    EXPECT_EQ(r.exit_code, 0) << args[1] << "\n" << r.output;
    return nlohmann::json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  }
};

}  // namespace plx::cli
