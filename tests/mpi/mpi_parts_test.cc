// A real MPI run whose ranks leave their parts unmerged (PLX_MERGE=0, or
// `parallax record --no-merge`): nothing goes through rank 0 at
// MPI_Finalize, and every command opens the parts directory as the trace,
// with the answers of the same parts merged.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "mpi_launch.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

// `parallax COMMAND --json TRACE`'s standard output, with TRACE's name
// replaced by "TRACE".
std::string Json(const TempDir& dir, const std::string& command, const std::string& trace) {
  const std::string out = dir.File("out.json");
  RunResult r = RunProgram({"/bin/sh", "-c", "\"$0\" \"$1\" --json \"$2\" > \"$3\"",
                            BuildPath("src/cli/parallax"), command, trace, out},
                           {"XDG_CACHE_HOME=" + dir.File("cache")});
  EXPECT_EQ(r.exit_code, 0) << command << ": " << r.output;
  std::string text = ReadFile(out);
  for (size_t at = text.find(trace); at != std::string::npos; at = text.find(trace, at))
    text.replace(at, trace.size(), "TRACE");
  return text;
}

TEST(MpiParts, PartsLeftUnmergedAnswerAsTheMergedTrace) {
  const std::vector<Flavor> flavors = FlavorsFor("farm");
  if (flavors.empty()) GTEST_SKIP() << "no MPI flavour can run farm here";
  for (const Flavor& flavor : flavors) {
    SCOPED_TRACE(flavor.name);
    TempDir dir;
    const std::string trace = dir.File("farm.plx"), parts = trace + ".parts";
    std::vector<std::string> env = {"PLX_MERGE=0"};
    std::vector<std::string> launch = TracedLaunch(flavor, "farm", 4, {dir.path()}, trace, &env);
    if (!kLinked) launch.insert(launch.begin() + 2, "--no-merge");  // after "record"
    RunResult run = RunProgram(launch, env);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("parallax: trace of 4 ranks left in " + parts), std::string::npos)
        << run.output;
    EXPECT_FALSE(Exists(trace));
    EXPECT_TRUE(Exists(parts + "/rank-3.plx"));

    const std::string merged = dir.File("merged.plx");
    RunResult m = RunProgram({BuildPath("src/cli/parallax"), "merge", "-o", merged, parts});
    ASSERT_EQ(m.exit_code, 0) << m.output;
    for (const char* command : {"report", "waits", "matrix", "stats", "info"})
      EXPECT_EQ(Json(dir, command, parts), Json(dir, command, merged)) << command;
  }
}

// A part lost from the directory: every way of opening it says which rank
// is missing (the parts know MPI_COMM_WORLD's size) and still shows the rest.
TEST(MpiParts, AMissingPartIsNamed) {
  const std::vector<Flavor> flavors = FlavorsFor("p2p");
  if (flavors.empty()) GTEST_SKIP() << "no MPI flavour can run p2p here";
  const Flavor& flavor = flavors.front();
  TempDir dir;
  const std::string trace = dir.File("p2p.plx"), parts = trace + ".parts";
  std::vector<std::string> env = {"PLX_MERGE=0"};
  std::vector<std::string> launch = TracedLaunch(flavor, "p2p", 4, {dir.path()}, trace, &env);
  if (!kLinked) launch.insert(launch.begin() + 2, "--no-merge");
  RunResult run = RunProgram(launch, env);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string parallax = BuildPath("src/cli/parallax");
  // Every part there: no warning.
  RunResult all = RunProgram({parallax, "merge", "-o", dir.File("all.plx"), parts});
  ASSERT_EQ(all.exit_code, 0) << all.output;
  EXPECT_EQ(all.output.find("missing"), std::string::npos) << all.output;

  ASSERT_TRUE(std::filesystem::remove(parts + "/rank-2.plx"));
  const std::string warning =
      parts +
      ": rank 2 of 4 (MPI_COMM_WORLD) has no rank-<R>.plx part; its process is missing "
      "from the trace";
  RunResult merge = RunProgram({parallax, "merge", "-o", dir.File("three.plx"), parts});
  ASSERT_EQ(merge.exit_code, 0) << merge.output;
  EXPECT_NE(merge.output.find(warning), std::string::npos) << merge.output;
  RunResult stats = RunProgram({parallax, "stats", parts}, {"XDG_CACHE_HOME=" + dir.File("cache")});
  ASSERT_EQ(stats.exit_code, 0) << stats.output;
  EXPECT_NE(stats.output.find(warning), std::string::npos) << stats.output;
  EXPECT_EQ(stats.output.find(parts + ": " + parts), std::string::npos) << stats.output;
  EXPECT_NE(stats.output.find("3 processes"), std::string::npos) << stats.output;

  ASSERT_TRUE(std::filesystem::remove(parts + "/rank-3.plx"));
  ASSERT_TRUE(std::filesystem::remove(parts + "/rank-0.plx"));
  RunResult two = RunProgram({parallax, "merge", "-o", dir.File("one.plx"), parts});
  ASSERT_EQ(two.exit_code, 0) << two.output;
  EXPECT_NE(two.output.find(": ranks 0, 2-3 of 4 (MPI_COMM_WORLD) have no rank-<R>.plx part; "
                            "their processes are missing"),
            std::string::npos)
      << two.output;
}

// A runtime started before MPI_Init keeps its first output path, which for
// a singleton run is the final trace itself: the merge at MPI_Finalize must
// not remove it as a merged part.
TEST(MpiParts, ASingletonThatStartedRecordingBeforeInitKeepsItsTrace) {
  const std::string program = BuildPath("tests/mpi/early_start");
  if (!Exists(program)) GTEST_SKIP() << "early_start is not built";
  TempDir dir;
  const std::string trace = dir.File("early.plx");
  // Open MPI leaves allocations at exit that LeakSanitizer would report.
  RunResult run = RunProgram({program}, {"PLX_OUTPUT=" + trace, "ASAN_OPTIONS=detect_leaks=0"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_TRUE(Exists(trace)) << run.output;
  const std::string info = Json(dir, "info", trace);
  EXPECT_NE(info.find("\"setup\""), std::string::npos) << info;
  EXPECT_NE(info.find("\"MPI_Barrier\""), std::string::npos) << info;
}

}  // namespace
}  // namespace plx::testing
