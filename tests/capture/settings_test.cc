// PLX_* settings observed from outside: tracing off, level selection,
// plx_control, output patterns, bad values, Lamport clocks, source locations.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "capture/trace_reader.h"
#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

std::string Child() {
  return BuildPath("tests/capture/capture_child");
}

// Record kinds (and names for states) found in a trace.
struct Seen {
  std::multiset<int> kinds;
  std::multiset<std::string> names;
};

Seen Collect(const std::string& path) {
  Seen seen;
  auto file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return seen;
  Status s = VisitRecords(**file, [&](const RecordContext&, const Canon& r) {
    seen.kinds.insert(r.kind);
    if (!r.name.empty()) seen.names.insert(std::string(r.name));
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return seen;
}

TEST(Settings, TraceOffWritesNothing) {
  TempDir dir;
  RunResult r = RunProgram({Child(), "stress", "2", "100"},
                           {"PLX_TRACE=0", "PLX_OUTPUT=" + dir.File("off.plx")});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.File("off.plx")));
}

TEST(Settings, LevelCommRecordsOnlyCommunication) {
  TempDir dir;
  RunResult r = RunProgram({Child(), "stress", "2", "100"},
                           {"PLX_LEVEL=comm", "PLX_OUTPUT=" + dir.File("comm.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Seen seen = Collect(dir.File("comm.plx"));
  EXPECT_EQ(seen.kinds.count(6), 200u);  // sends
  EXPECT_EQ(seen.kinds.count(7), 200u);  // receives
  for (int kind : seen.kinds)
    EXPECT_TRUE(kind == 6 || kind == 7 || kind == 11 || kind == 12) << kind;
}

TEST(Settings, LevelCanExcludeACategory) {
  TempDir dir;
  RunResult r = RunProgram({Child(), "stress", "1", "100"},
                           {"PLX_LEVEL=all,-comm,-counter", "PLX_OUTPUT=" + dir.File("x.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Seen seen = Collect(dir.File("x.plx"));
  EXPECT_EQ(seen.kinds.count(6) + seen.kinds.count(7) + seen.kinds.count(8), 0u);
  EXPECT_EQ(seen.kinds.count(1), 200u);  // outer and inner enters
}

TEST(Settings, ControlOffHidesRecordsAndIsMarked) {
  TempDir dir;
  RunResult r = RunProgram({Child(), "control"}, {"PLX_OUTPUT=" + dir.File("c.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("enabled after off: 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("enabled after on: 1"), std::string::npos) << r.output;
  Seen seen = Collect(dir.File("c.plx"));
  EXPECT_EQ(seen.names.count("before"), 2u);
  EXPECT_EQ(seen.names.count("after"), 2u);
  EXPECT_EQ(seen.names.count("hidden"), 0u);
  EXPECT_EQ(seen.names.count("annotation"), 0u);
  EXPECT_EQ(seen.kinds.count(13), 2u);  // control off, control on
}

TEST(Settings, LamportClockTicksAndTakesTheMaximum) {
  TempDir dir;
  RunResult r = RunProgram({Child(), "lamport"}, {"PLX_OUTPUT=" + dir.File("l.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "1 2 11 12\n");
  int sends = 0;
  auto file = format::TraceFile::Open(dir.File("l.plx"));
  ASSERT_TRUE(file.ok());
  std::vector<int64_t> clocks;
  ASSERT_TRUE(VisitRecords(**file, [&](const RecordContext&, const Canon& c) {
                if (c.kind == 6 || c.kind == 7) clocks.push_back(c.d);
                sends += c.kind == 6;
              }).ok());
  EXPECT_EQ(sends, 2);
  EXPECT_EQ(clocks, (std::vector<int64_t>{1, 2, 10, 3}));  // receives keep the carried clock
}

TEST(Settings, OutputPatternExpandsPid) {
  TempDir dir;
  RunResult r =
      RunProgram({Child(), "stress", "1", "10"}, {"PLX_OUTPUT=" + dir.File("t-%p-%e.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  int found = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = e.path().filename().string();
    EXPECT_EQ(name.rfind("t-", 0), 0u);
    EXPECT_NE(name.find("-capture_child.plx"), std::string::npos) << name;
    EXPECT_GT(std::atoi(name.c_str() + 2), 0) << name;
    ++found;
  }
  EXPECT_EQ(found, 1);
}

TEST(Settings, BadValuesWarnAndKeepDefaults) {
  TempDir dir;
  RunResult r = RunProgram({Child(), "stress", "1", "10"}, {"PLX_BUFFER=lots", "PLX_CLOCK=sundial",
                                                            "PLX_OUTPUT=" + dir.File("b.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("parallax: PLX_BUFFER=lots: expected"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("parallax: PLX_CLOCK=sundial: expected tsc or monotonic"),
            std::string::npos);
  EXPECT_EQ(Collect(dir.File("b.plx")).kinds.count(1), 20u);
}

TEST(Settings, UnwritableOutputTurnsTracingOffWithAMessage) {
  RunResult r =
      RunProgram({Child(), "stress", "1", "10"}, {"PLX_OUTPUT=/nonexistent-plx-dir/x.plx"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("parallax: cannot write the trace: /nonexistent-plx-dir/x.plx"),
            std::string::npos)
      << r.output;
}

TEST(Settings, SourceLocationsAndThreadNamesAreDefined) {
  TempDir dir;
  RunResult r = RunProgram({Child(), "stress", "2", "10"}, {"PLX_OUTPUT=" + dir.File("s.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto file = format::TraceFile::Open(dir.File("s.plx"));
  ASSERT_TRUE(file.ok());
  const format::ProcessDefs& defs = (*file)->processes().begin()->second;
  bool found = false;
  for (const auto& [id, cs] : defs.callsites) {
    if (defs.Str(cs.file).ends_with("capture_child.cc") && defs.Str(cs.function) == "Record") {
      EXPECT_GT(cs.line, 0u);
      found = true;
    }
  }
  EXPECT_TRUE(found) << "no callsite for the PLX_SRCLOC in capture_child.cc:Record";
  std::set<std::string> names;
  for (const auto& [id, st] : defs.streams)
    names.insert(std::string(defs.Str(st.name)));
  EXPECT_TRUE(names.count("stress 0") && names.count("stress 1"));
  ASSERT_TRUE(defs.process.has_value());
  EXPECT_NE(defs.Str(defs.process->executable).find("capture_child"), std::string::npos);
  EXPECT_NE(defs.Str(defs.process->arguments).find("stress 2 10"), std::string::npos);
}

TEST(Settings, AHugeCommandLineIsCutNotFatal) {
  TempDir dir;
  const std::string arg(120000, 'x');  // Linux allows 128 KiB per argument
  RunResult r = RunProgram({Child(), "stress", "1", "10", arg, arg, arg},
                           {"PLX_OUTPUT=" + dir.File("h.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 500);
  auto file = format::TraceFile::Open(dir.File("h.plx"));
  ASSERT_TRUE(file.ok()) << file.status().message();
  const format::ProcessDefs& defs = (*file)->processes().begin()->second;
  ASSERT_TRUE(defs.process.has_value());
  EXPECT_EQ(defs.Str(defs.process->arguments).size(), 64u << 10);
  EXPECT_EQ(Collect(dir.File("h.plx")).kinds.count(1), 20u);
}

}  // namespace
}  // namespace plx::testing
