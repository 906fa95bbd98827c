// A fixture for testing one `parallax` command: the test writes its trace
// (path_, in dir_) in SetUp, then runs the built program on it, as text or
// with --json parsed.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/test_support.h"

namespace plx::cli {

class CommandTest : public ::testing::Test {
 protected:
  explicit CommandTest(std::string command) : command_(std::move(command)) {}

  /// `parallax COMMAND FILE ARGS...`.
  testing::RunResult RunOn(const std::string& file, std::vector<std::string> args) {
    args.insert(args.begin(), {testing::BuildPath("src/cli/parallax"), command_, file});
    return testing::RunProgram(args);
  }
  /// `parallax COMMAND path_ ARGS...`.
  testing::RunResult Run(std::vector<std::string> args = {}) {
    return RunOn(path_, std::move(args));
  }
  /// Run with --json, parsed; a discarded value (and a failure) when the
  /// command fails.
  nlohmann::json RunJson(std::vector<std::string> args = {}) {
    args.push_back("--json");
    const testing::RunResult r = Run(std::move(args));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return nlohmann::json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  }

  testing::TempDir dir_;
  std::string path_;

 private:
  std::string command_;
};

}  // namespace plx::cli
