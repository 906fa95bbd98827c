// Paje export and import: the round trip of the interop test trace, PajeNG's
// pj_dump reading our export, a general header reader (reordered and extra
// fields, old field names), exact times, and one-line errors on bad input.
#include "interop/paje/paje.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "interop/event_walk.h"
#include "interop_test_trace.h"
#include "support/test_support.h"
#include "time/message_pairs.h"
#include "trace_compare.h"

namespace plx::interop {
namespace {

using testing::TempDir;

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Imports `paje` into `plx`; the import's status.
Status Import(const std::string& paje, const std::string& plx, ImportStats* stats = nullptr) {
  auto builder = TraceBuilder::Create(plx);
  if (!builder.ok()) return builder.status();
  Status s = ImportPaje(paje, **builder);
  // Every counter an import fills is declared (spec/import_counters.toml).
  for (const auto& [name, count] : (*builder)->stats())
    EXPECT_NE(FindImportCounter(name), nullptr) << name << " is not in the table";
  if (stats != nullptr) *stats = (*builder)->stats();
  Status finished = (*builder)->Finish();
  return s.ok() ? finished : s;
}

TEST(PajeTest, RoundTripKeepsStatesMessagesCountersAndNames) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  uint64_t last = 0;
  ASSERT_TRUE(
      ExportPaje(original, dir.File("t.paje"), [&](uint64_t done, uint64_t) { last = done; }).ok());
  EXPECT_EQ(last, EventCount(original));
  ASSERT_TRUE(Import(dir.File("t.paje"), dir.File("out.plx")).ok());
  model::Trace copy;
  testing::LoadPlx(dir.File("out.plx"), &copy);
  // Paje carries states (names, colours, nesting), links (with the
  // communicator's name as the link value and tag and size as extra fields),
  // variables and events, process/thread names and (as the container alias
  // "R<rank>") ranks. It has no collectives, RMA, posted receives, callsites,
  // state categories or counter units: those are off (the defaults).
  testing::CompareOptions options;
  options.instants = true;
  EXPECT_EQ(testing::CompareTraces(original, copy, options), std::vector<std::string>{});
  EXPECT_EQ(copy.stats.leave_mismatch, 0u);
  EXPECT_EQ(copy.stats.unclosed_slices, 0u);
  // Colours survive: MPI_Send is red.
  for (const model::State& s : copy.states) {
    if (s.name == "MPI_Send") {
      EXPECT_EQ(s.color, 0x1ff0000u);
    }
    if (s.name == "compute") {
      EXPECT_EQ(s.color, 0u);
    }
  }
}

// Counts the lines of pj_dump's output that start with `kind` ",".
size_t CountLines(const std::string& output, const std::string& kind) {
  std::istringstream in(output);
  size_t n = 0;
  for (std::string line; std::getline(in, line);)
    n += line.rfind(kind + ",", 0) == 0;
  return n;
}

// DONE-WHEN: PajeNG reads our export without error, and sees every slice as
// a State and every paired message as a Link.
TEST(PajeTest, PjDumpReadsTheExport) {
  if (!std::filesystem::exists("/usr/bin/pj_dump")) {
    GTEST_SKIP() << "PajeNG's /usr/bin/pj_dump is not installed (apt install pajeng)";
  }
  TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &t);
  ASSERT_TRUE(ExportPaje(t, dir.File("t.paje")).ok());
  const testing::RunResult r = testing::RunProgram({"/usr/bin/pj_dump", dir.File("t.paje")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(CountLines(r.output, "State"), t.slices.size()) << r.output;
  EXPECT_EQ(CountLines(r.output, "Link"), time::MatchMessages(t).pairs.size()) << r.output;
  EXPECT_EQ(CountLines(r.output, "Variable"), t.counter_samples.size()) << r.output;
  EXPECT_EQ(CountLines(r.output, "Event"), t.instants.size()) << r.output;
  EXPECT_EQ(r.output.find("rror"), std::string::npos) << r.output;
}

// A header with fields in another order, old field names (ContainerType,
// EntityType, SourceContainer/DestContainer) and extra fields.
constexpr char kReordered[] = R"(# a comment
%EventDef PajeDefineContainerType 10
%  Name string
%  ContainerType string
%  Alias string
%EndEventDef
%EventDef PajeDefineStateType 11
%  Name string
%  Alias string
%  ContainerType string
%EndEventDef
%EventDef PajeDefineLinkType 12
%  Name string
%  Alias string
%  ContainerType string
%  SourceContainerType string
%  DestContainerType string
%EndEventDef
%EventDef PajeDefineVariableType 13
%  Alias string
%  Name string
%  Color color
%  ContainerType string
%EndEventDef
%EventDef PajeDefineEntityValue 14
%  Color color
%  Name string
%  EntityType string
%  Alias string
%EndEventDef
%EventDef PajeCreateContainer 15
%  Name string
%  Container string
%  Type string
%  Alias string
%  Time date
%  Host string
%EndEventDef
%EventDef PajePushState 16
%  Value string
%  Type string
%  Container string
%  Time date
%  File string
%  Line int
%EndEventDef
%EventDef PajePopState 17
%  Type string
%  Time date
%  Container string
%EndEventDef
%EventDef PajeStartLink 18
%  Key string
%  Value string
%  SourceContainer string
%  Container string
%  Type string
%  Time date
%EndEventDef
%EventDef PajeEndLink 19
%  Time date
%  DestContainer string
%  Key string
%  Type string
%  Container string
%  Value string
%EndEventDef
%EventDef PajeAddVariable 20
%  Value double
%  Time date
%  Container string
%  Type string
%EndEventDef
%EventDef PajeSetState 21
%  Time date
%  Container string
%  Type string
%  Value string
%EndEventDef
10 "Node" 0 N
10 "Core" N C
11 "Core state" CS C
12 "Transfer" TR 0 C C
13 load "Load" "1 0 0" C
14 "0 0.5 1" "Running task" CS run
15 "node A" 0 N nA 0 hostA
15 "core 0" nA C c0 0.5 hostA
15 "core 1" nA C c1 0.5 hostA
16 run CS c0 1.000000001 main.c 12
16 "idle" CS c0 1.25 main.c 13
18 k1 x c0 0 TR 1.5
19 2.5 "core 1" k1 TR 0 x
17 CS 2 c0
17 CS 3 c0
20 5 3.000000000 c1 load
20 2 3.5 c1 load
21 4 c1 CS idle
)";

TEST(PajeTest, HeaderFieldsInAnyOrderWithExtraFields) {
  TempDir dir;
  WriteFile(dir.File("h.paje"), kReordered);
  ImportStats stats;
  const Status s = Import(dir.File("h.paje"), dir.File("h.plx"), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  model::Trace t;
  testing::LoadPlx(dir.File("h.plx"), &t);
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes[0].name, "node A");
  ASSERT_EQ(t.threads.size(), 2u);
  EXPECT_EQ(t.threads[0].name, "core 0");
  EXPECT_EQ(t.threads[1].name, "core 1");
  // Slices: "Running task" [1.000000001, 3) with "idle" [1.25, 2) inside on
  // core 0; "idle" on core 1 from 4 to the end of the trace (4).
  ASSERT_EQ(t.slices.size(), 3u);
  EXPECT_EQ(t.states[t.slices.state[0]].name, "Running task");
  EXPECT_EQ(t.states[t.slices.state[0]].color, 0x10080ffu);
  EXPECT_EQ(t.slices.begin[0], 1000000001);
  EXPECT_EQ(t.slices.end[0], 3000000000);
  EXPECT_EQ(t.slices.depth[1], 1);
  EXPECT_EQ(t.slices.begin[1], 1250000000);
  EXPECT_EQ(t.slices.end[1], 2000000000);
  EXPECT_EQ(t.slices.thread[2], 1u);
  EXPECT_EQ(t.slices.begin[2], 4000000000);
  EXPECT_EQ(stats.at("paje.states_open_at_end"), 1u);
  // The link: a message from core 0 to core 1 (one process: by stream).
  const time::MessagePairs pairs = time::MatchMessages(t);
  ASSERT_EQ(pairs.pairs.size(), 1u);
  EXPECT_EQ(t.messages.time[pairs.pairs[0].send], 1500000000);
  EXPECT_EQ(t.messages.time[pairs.pairs[0].recv], 2500000000);
  EXPECT_EQ(t.messages.thread[pairs.pairs[0].recv], 1u);
  // AddVariable keeps a running value; the values are integers, so the
  // counter is an int counter.
  ASSERT_EQ(t.counter_samples.size(), 2u);
  EXPECT_EQ(t.counters[t.counter_samples.counter[0]].name, "Load");
  EXPECT_EQ(t.counters[t.counter_samples.counter[0]].value_kind, model::ValueKind::kInt);
  EXPECT_EQ(t.counter_samples.value[0], 5);
  EXPECT_EQ(t.counter_samples.value[1], 7);
}

// An end of a link may come before its start in the file; large times keep
// every nanosecond (no double on the way).
TEST(PajeTest, LinkEndBeforeStartAndExactTimes) {
  TempDir dir;
  std::string text = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineLinkType 1
% Alias string
% Type string
% StartContainerType string
% EndContainerType string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 2
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeStartLink 3
% Time date
% Container string
% Type string
% StartContainer string
% Value string
% Key string
%EndEventDef
%EventDef PajeEndLink 4
% Time date
% Container string
% Type string
% EndContainer string
% Value string
% Key string
%EndEventDef
0 P 0 Process
1 L 0 P P Link
2 0 a P 0 a
2 0 b P 0 b
4 1234567.891234567 0 L b v k
3 1234567.891234567 0 L a v k
3 1234567.891234568 0 L a v k
4 1234567.8912345685 0 L b v k
)";
  WriteFile(dir.File("l.paje"), text);
  const Status s = Import(dir.File("l.paje"), dir.File("l.plx"));
  ASSERT_TRUE(s.ok()) << s.message();
  model::Trace t;
  testing::LoadPlx(dir.File("l.plx"), &t);
  const time::MessagePairs pairs = time::MatchMessages(t);
  ASSERT_EQ(pairs.pairs.size(), 2u);
  EXPECT_TRUE(pairs.unmatched_sends.empty());
  EXPECT_TRUE(pairs.unmatched_recvs.empty());
  EXPECT_EQ(t.messages.time[pairs.pairs[0].send], 1234567891234567);
  EXPECT_EQ(t.messages.time[pairs.pairs[0].recv], 1234567891234567);
  EXPECT_EQ(t.messages.time[pairs.pairs[1].send], 1234567891234568);
  EXPECT_EQ(t.messages.time[pairs.pairs[1].recv], 1234567891234569);  // rounded half up
}

constexpr char kSmallHeader[] = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 2
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajePushState 3
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajeSetVariable 4
% Time date
% Container string
% Type string
% Value double
%EndEventDef
0 T 0 Thread
1 S T State
2 0 t T 0 t
)";

TEST(PajeTest, BadInputGivesOneLineErrorsWithLineAndField) {
  struct Case {
    std::string text;
    std::string expected;  // after "FILE:"
  };
  const std::string h = kSmallHeader;  // 32 lines
  const std::vector<Case> cases = {
      {h + "9 1 t S a\n", "33: event id: unknown 9"},
      {h + "3 1 t S\n", "33: Value: missing (line has too few fields)"},
      {h + "3 1.5x t S a\n", "33: Time: bad time"},
      {h + "3 1 t S \"a\n", "33: unterminated quoted string"},
      {h + "3 1 nobody S a\n", "33: Container: unknown container nobody"},
      {h + "3 1 t T a\n", "33: Type: wrong kind of type T"},
      {h + "3 -1 t S a\n", "33: Time: negative time"},
      {h + "3 1 t S a extra\n", "33: more fields than the event definition has"},
      {"%EventDef PajePushState 3\n% Time date\n% Container string\n%EndEventDef\n",
       "4: Type: missing from the event definition"},
      {"%EventDef PajeBogus 3\n", "1: %EventDef: unknown event PajeBogus"},
      {"%EventDef PajePushState 3\n% Time weird\n", "2: Time: unknown field type weird"},
      {"%EventDef PajePushState 3\n% Time date\n", "2: %EventDef: not closed by %EndEventDef"},
  };
  TempDir dir;
  for (const Case& c : cases) {
    WriteFile(dir.File("bad.paje"), c.text);
    const Status s = Import(dir.File("bad.paje"), dir.File("bad.plx"));
    ASSERT_FALSE(s.ok()) << c.expected;
    EXPECT_EQ(s.message(), dir.File("bad.paje") + ":" + c.expected);
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
  }
  // A variable holding a non-number.
  WriteFile(dir.File("bad.paje"), std::string(R"(%EventDef PajeDefineVariableType 5
% Alias string
% Type string
% Name string
%EndEventDef
)") + h + "5 V T v\n4 1 t V 1x\n");
  const Status s = Import(dir.File("bad.paje"), dir.File("bad.plx"));
  EXPECT_EQ(s.message(), dir.File("bad.paje") + ":39: Value: bad number");
}

// A time a little before the container's previous event (real traces have
// such disorder, PajeNG accepts it) is moved up to that event and counted.
TEST(PajeTest, TimeGoingBackIsMovedForwardAndCounted) {
  TempDir dir;
  WriteFile(dir.File("b.paje"), std::string(kSmallHeader) + "3 2 t S a\n3 1.5 t S b\n");
  ImportStats stats;
  const Status s = Import(dir.File("b.paje"), dir.File("b.plx"), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(stats.at("paje.times_moved_forward"), 1u);
  model::Trace t;
  testing::LoadPlx(dir.File("b.plx"), &t);
  ASSERT_EQ(t.slices.size(), 2u);
  EXPECT_EQ(t.slices.begin[1], 2000000000);
}

// PajeNG's example traces (when pajeng is installed) import, and the states
// and links PajeNG sees are the ones we see.
TEST(PajeTest, ImportsPajeNgExamples) {
  const std::filesystem::path dir("/usr/share/doc/pajeng/examples/traces");
  if (!std::filesystem::exists(dir)) {
    GTEST_SKIP() << "PajeNG's examples are not installed in " << dir;
  }
  TempDir tmp;
  int imported = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".trace") continue;
    SCOPED_TRACE(entry.path().string());
    const Status s = Import(entry.path().string(), tmp.File("x.plx"));
    if (entry.path().parent_path().filename() == "multiple_files") {
      EXPECT_NE(s.message().find("PajeTraceFile (a trace in several files) is not supported"),
                std::string::npos)
          << s.message();
      continue;
    }
    ASSERT_TRUE(s.ok()) << s.message();
    model::Trace t;
    testing::LoadPlx(tmp.File("x.plx"), &t);
    if (std::filesystem::exists("/usr/bin/pj_dump")) {
      const testing::RunResult r = testing::RunProgram({"/usr/bin/pj_dump", entry.path().string()});
      if (r.exit_code == 0) {
        EXPECT_EQ(t.slices.size(), CountLines(r.output, "State"));
        EXPECT_EQ(time::MatchMessages(t).pairs.size(), CountLines(r.output, "Link"));
      }
    }
    ++imported;
  }
  EXPECT_GT(imported, 10);
}

}  // namespace
}  // namespace plx::interop
