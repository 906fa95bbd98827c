// Unit tests of the CLI helpers: time arguments, tables, id names, and the
// --progress line.
#include <gtest/gtest.h>

#include "cli/ref_names.h"
#include "cli/table.h"
#include "cli/time_arg.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

TEST(ParseDurationTest, UnitsAndRejects) {
  int64_t ns = -1;
  EXPECT_TRUE(ParseDuration("250", &ns));
  EXPECT_EQ(ns, 250);
  EXPECT_TRUE(ParseDuration("250ns", &ns));
  EXPECT_EQ(ns, 250);
  EXPECT_TRUE(ParseDuration("1.5us", &ns));
  EXPECT_EQ(ns, 1500);
  EXPECT_TRUE(ParseDuration("10ms", &ns));
  EXPECT_EQ(ns, 10000000);
  EXPECT_TRUE(ParseDuration("2s", &ns));
  EXPECT_EQ(ns, 2000000000);
  EXPECT_TRUE(ParseDuration("0.0000000015s", &ns));
  EXPECT_EQ(ns, 2);  // rounded
  for (const char* bad : {"", "ms", "-5", "5 ms", "5m", "5sec", "1e", "abc", "1e30s"})
    EXPECT_FALSE(ParseDuration(bad, &ns)) << bad;
}

TEST(TableTest, AlignsColumnsAndTrimsTrailingSpaces) {
  Table t({{"name"}, {"n", Table::Align::kRight}, {"note"}});
  t.AddRow({"a", "1", ""});
  t.AddRow({"größer", "1000"});  // width counts code points, not bytes
  EXPECT_EQ(t.Render(1),
            " name       n  note\n"
            " a          1\n"
            " größer  1000\n");
}

TEST(RefNamesTest, NamesNoneAndUndefined) {
  format::ProcessDefs defs;
  defs.strings[1] = "compute";
  defs.strings[2] = "main.c";
  defs.states[4] = format::StateDef{4, 1, 0, 0};
  defs.callsites[2] = format::CallsiteDef{2, 2, 17, 0};
  RefNames names(defs);
  EXPECT_EQ(names.Name("state", 4), "compute");
  EXPECT_EQ(names.Name("state", 0), std::nullopt);
  EXPECT_EQ(names.Name("state", 5), "<undefined 5>");
  EXPECT_EQ(names.Name("callsite", 2), "main.c:17");
  EXPECT_EQ(names.Name("communicator", 1), "<undefined 1>");
}

TEST(ProgressTest, ProgressFlagDrawsTheFinalLine) {
  testing::TempDir dir;
  const std::string path = dir.File("t.plx");
  ASSERT_TRUE(
      testing::WriteTraceScript("process 0\nstate 0 1 s\nenter 0 1 t=1 s\nleave 0 1 t=2 s\n", path)
          .ok());
  testing::RunResult r = testing::RunProgram(
      {testing::BuildPath("src/cli/parallax"), "stats", path, "--progress", "--top", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\rparallax: loading 100% (2 of 2 records)\n"), std::string::npos)
      << r.output;
  // Without the flag and with stderr not a terminal: nothing.
  r = testing::RunProgram({testing::BuildPath("src/cli/parallax"), "stats", path});
  EXPECT_EQ(r.output.find("loading"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace plx::cli
