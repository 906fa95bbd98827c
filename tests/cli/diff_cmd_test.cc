// `parallax diff`: on traces the test writes, a worker whose untraced time
// between states tripled is the first change and the only significant one,
// with what only one trace has listed as unmatched; on the bundled MPI farm
// recorded with Open MPI, `--slow-worker 2` shows first as rank 2's time
// outside states per instance, and two runs alike show nothing significant;
// errors are one line, exit 1.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "command_test.h"
#include "support/test_support.h"
#include "support/trace_script.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLX_DIFF_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PLX_DIFF_TEST_SANITIZED 1
#endif

namespace plx::cli {
namespace {

using nlohmann::json;

/// A script trace of `ranks` (or processes when `ranks` is false): each
/// thread does 40 iterations of `work` (1 ms + jitter) and then computes
/// outside any state for `gap_ns` + jitter; `slow` computes 3x as long.
std::string FarmScript(const std::vector<int>& procs, bool ranks, int slow, int64_t gap_ns,
                       const std::string& extra_state = "") {
  std::string s;
  for (int p : procs) {
    const std::string P = std::to_string(p);
    s += "process " + P + " pid=" + std::to_string(100 + p) +
         (ranks ? " rank=" + P : std::string()) + "\nthread " + P +
         " 1 tid=" + std::to_string(100 + p) + "\nstate " + P + " 1 work\n";
    if (!extra_state.empty()) s += "state " + P + " 2 " + extra_state + "\n";
  }
  for (int p : procs) {
    const std::string P = std::to_string(p);
    int64_t t = 1000;
    for (int i = 0; i < 40; ++i) {
      const int64_t jitter = (i * 7919 % 11) * 20'000;
      const int64_t work = 1'000'000 + jitter;
      s += "enter " + P + " 1 t=" + std::to_string(t) + " work\n";
      // Once, nested: `work` gets a self time of its own.
      if (i == 0 && !extra_state.empty())
        s += "enter " + P + " 1 t=" + std::to_string(t + 10) + " " + extra_state + "\nleave " + P +
             " 1 t=" + std::to_string(t + 20) + " " + extra_state + "\n";
      s += "leave " + P + " 1 t=" + std::to_string(t + work) + " work\n";
      t += work + (gap_ns + jitter) * (p == slow ? 3 : 1);
    }
  }
  return s;
}

class DiffCmdTest : public CommandTest {
 protected:
  DiffCmdTest() : CommandTest("diff") {}

  std::string Write(const std::string& name, const std::string& script) {
    const std::string path = dir_.File(name);
    EXPECT_TRUE(testing::WriteTraceScript(script, path).ok()) << name;
    return path;
  }
  testing::RunResult Diff(const std::string& a, const std::string& b,
                          std::vector<std::string> args = {}) {
    args.insert(args.begin(), b);
    return RunOn(a, std::move(args));
  }
  json DiffJson(const std::string& a, const std::string& b) {
    const testing::RunResult r = Diff(a, b, {"--json"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  }
};

size_t CountSignificant(const json& j) {
  size_t n = 0;
  for (const json& c : j["changes"])
    n += c["significant"].get<bool>() ? 1 : 0;
  return n;
}

TEST_F(DiffCmdTest, SlowWorkerFirstAndOnlyOneTraceListedAsUnmatched) {
  const std::string a = Write("a.plx", FarmScript({0, 1}, true, -1, 500'000));
  const std::string b = Write("b.plx", FarmScript({0, 1, 2}, true, 1, 500'000, "extra"));
  const json j = DiffJson(a, b);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["a"]["processes"], 2);
  EXPECT_EQ(j["b"]["processes"], 3);
  EXPECT_EQ(j["a"]["mpi"], true);
  ASSERT_FALSE(j["changes"].empty());
  const json& first = j["changes"][0];
  EXPECT_EQ(first["kind"], "outside-states") << first.dump();
  EXPECT_EQ(first["rank"], 1);
  EXPECT_EQ(first["part"], "per-instance");
  EXPECT_EQ(first["significant"], true);
  EXPECT_EQ(first["count_a"], 39);
  EXPECT_EQ(first["count_b"], 39);
  EXPECT_NEAR(first["relative"].get<double>(), 2.0, 1e-9);
  EXPECT_GT(first["t"].get<double>(), 4.0);
  EXPECT_EQ(CountSignificant(j), 1u) << j.dump(1);
  std::vector<std::string> unmatched;
  for (const json& u : j["unmatched"])
    unmatched.push_back(u["what"].get<std::string>() + " " + u["label"].get<std::string>() + " " +
                        u["in"].get<std::string>());
  EXPECT_EQ(unmatched, (std::vector<std::string>{"process rank 2 b", "state extra b"}));

  const testing::RunResult text = Diff(a, b);
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("1 significant change of"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("rank 1 (outside states)"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("state extra (only in B)"), std::string::npos) << text.output;
}

TEST_F(DiffCmdTest, ATraceAgainstItselfChangesNothing) {
  const std::string a = Write("a.plx", FarmScript({0, 1}, false, 1, 500'000));
  const json j = DiffJson(a, a);
  EXPECT_TRUE(j["changes"].empty()) << j.dump(1);
  EXPECT_TRUE(j["unmatched"].empty()) << j.dump(1);
}

TEST_F(DiffCmdTest, Errors) {
  const std::string a = Write("a.plx", FarmScript({0, 1}, true, -1, 500'000));
  testing::RunResult r = Diff(a, dir_.File("missing.plx"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("parallax: error: ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("missing.plx"), std::string::npos) << r.output;

  const std::string text = dir_.File("notes.plx");
  ASSERT_EQ(testing::RunProgram({"/bin/sh", "-c", "echo 'not a trace' > '" + text + "'"}).exit_code,
            0);
  r = Diff(a, text);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("parallax: error: ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("notes.plx"), std::string::npos) << r.output;

  // Ranks 0-1 against ranks 5-6: nothing to match.
  r = Diff(a, Write("far.plx", FarmScript({5, 6}, true, -1, 500'000)));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("parallax: error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no process in common"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;

  // An MPI trace against one without ranks: processes are not comparable.
  r = Diff(a, Write("threads.plx", FarmScript({0, 1}, false, -1, 500'000)));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("is an MPI trace"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;

  EXPECT_EQ(Diff(a, a, {"--min-change", "-5"}).exit_code, 2);
}

// The bundled farm (examples/mpi/mpi_farm.c) under Open MPI: 4 ranks on two
// cores, 300 jobs of 2 ms mean, so that scheduling noise stays small beside
// the work. ctest runs each test in a process of its own: each records the
// two runs it compares (about 1 s each).
class DiffFarmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string skip = Unavailable();
    if (!skip.empty()) GTEST_SKIP() << skip;
  }

  /// Records the farm into `name`.plx, with rank 2 three times slower when `slow`.
  void Record(const std::string& name, bool slow) {
    const testing::RunResult r = RecordFarm(dir_.File(name + ".plx"), slow);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.output;
  }

  static std::string Unavailable() {
#ifdef PLX_DIFF_TEST_SANITIZED
    return "sanitizer build: the tracing library cannot be preloaded into mpirun";
#else
    for (const std::string& p : {kMpirun, testing::BuildPath("examples/mpi/mpi_farm"),
                                 testing::BuildPath("src/mpi/libparallax-mpi.so")})
      if (::access(p.c_str(), X_OK | R_OK) != 0) return p + " is not here";
    if (::sysconf(_SC_NPROCESSORS_ONLN) < 2) return "the rankfile needs two cores";
    return "";
#endif
  }

  /// The ranks' cores: the master alone on core 0 (it waits polling), the
  /// workers on core 1. Left to the scheduler, which worker shares the
  /// master's core changes from run to run and with it how long the others
  /// wait for their next job: runs alike then differ by a third of the run.
  std::string WriteRankfile() {
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    std::string text;
    for (int rank = 0; rank < kRanks; ++rank)
      text +=
          "rank " + std::to_string(rank) + "=" + host + " slot=" + (rank == 0 ? "0" : "1") + "\n";
    const std::string path = dir_.File("rankfile");
    std::ofstream(path) << text;
    return path;
  }

  testing::RunResult RecordFarm(const std::string& trace, bool slow) {
    std::vector<std::string> argv = {
        testing::BuildPath("src/cli/parallax"), "record", "-o", trace, "--mpi", "openmpi", "--",
        kMpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader",
        // Waiting ranks give way to working ones on a busy machine.
        "--mca", "mpi_yield_when_idle", "1", "--rankfile", WriteRankfile(), "-np",
        std::to_string(kRanks), testing::BuildPath("examples/mpi/mpi_farm"), "--jobs", "300",
        "--work-us", "2000"};
    if (slow) argv.insert(argv.end(), {"--slow-worker", "2"});
    return testing::RunProgram(argv, {"PLX_MPI_LIBDIR=" + testing::BuildPath("src/mpi")});
  }

  json DiffJson(const std::string& a, const std::string& b) {
    const testing::RunResult r =
        testing::RunProgram({testing::BuildPath("src/cli/parallax"), "diff", dir_.File(a + ".plx"),
                             dir_.File(b + ".plx"), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return json::parse(r.output, nullptr, /*allow_exceptions=*/false);
  }

  static inline const std::string kMpirun = "/usr/bin/mpirun.openmpi";
  // Three workers: the slow one's extra time is then three times the run's
  // (and so the master's waits') growth, well apart from it.
  static constexpr int kRanks = 4;
  testing::TempDir dir_;
};

TEST_F(DiffFarmTest, SlowWorkerIsRank2sTimeOutsideStatesPerInstance) {
  Record("normal", false);
  Record("slow", true);
  const json j = DiffJson("normal", "slow");
  ASSERT_TRUE(j.is_object());
  ASSERT_FALSE(j["changes"].empty());
  const json& first = j["changes"][0];
  EXPECT_EQ(first["kind"], "outside-states") << j.dump(1);
  EXPECT_EQ(first["rank"], 2) << j.dump(1);
  EXPECT_EQ(first["part"], "per-instance") << j.dump(1);
  EXPECT_EQ(first["significant"], true) << j.dump(1);
  EXPECT_GT(first["impact_ns"].get<double>(), 0) << j.dump(1);
}

TEST_F(DiffFarmTest, RunsAlikeShowNothingSignificant) {
  Record("normal1", false);
  Record("normal2", false);
  const json j = DiffJson("normal1", "normal2");
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(CountSignificant(j), 0u) << j.dump(1);
  EXPECT_TRUE(j["unmatched"].empty()) << j.dump(1);
}

}  // namespace
}  // namespace plx::cli
