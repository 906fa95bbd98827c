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
  /// The latest end of any thread (trace time; 0 for none).
  static int64_t Span(const std::string& trace) {
    const nlohmann::json r =
        Json({"query", trace, "SELECT max(end) AS span FROM threads", "--json"});
    return r.is_array() && !r.empty() && r[0]["span"].is_number() ? r[0]["span"].get<int64_t>() : 0;
  }
  /// `parallax cut TRACE OUT ARGS...` into a new file of dir_: OUT.
  static std::string Cut(const std::string& trace, std::vector<std::string> args) {
    static int cuts = 0;
    const std::string out = dir_->File("cut-" + std::to_string(++cuts) + ".plx");
    args.insert(args.begin(), {"cut", trace, out});
    const testing::RunResult r = Parallax(args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return out;
  }
  /// Per state, the slices of `trace` overlapping [from, to] clipped to it
  /// (`where` adds to the query's condition): rows of state, n (count),
  /// total, mn and mx (of the clipped durations), from `parallax query`.
  static nlohmann::json ClippedSlices(const std::string& trace, int64_t from, int64_t to,
                                      const std::string& where = "") {
    const std::string a = std::to_string(from), b = std::to_string(to);
    const std::string clip = "min(end, " + b + ") - max(begin, " + a + ")";
    return Json({"query", trace,
                 "SELECT state, count(*) AS n, sum(" + clip + ") AS total, min(" + clip +
                     ") AS mn, max(" + clip + ") AS mx FROM slices WHERE end >= " + a +
                     " AND begin <= " + b + where + " GROUP BY state",
                 "--json"});
  }
};

}  // namespace plx::cli
