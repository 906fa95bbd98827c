// PICL export and import: a round trip of what PICL carries, a hand-written
// MPICL-format file with exact expectations, sequence numbers ordering
// records with equal clocks, many nodes in linear size, and one-line errors
// on bad input.
#include "interop/picl/picl.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "interop_test_trace.h"
#include "support/test_support.h"
#include "support/trace_script.h"
#include "time/message_pairs.h"
#include "trace_compare.h"

namespace plx::interop {
namespace {

using testing::TempDir;

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

Status Import(const std::string& picl, const std::string& plx, ImportStats* stats = nullptr) {
  auto builder = TraceBuilder::Create(plx);
  if (!builder.ok()) return builder.status();
  Status s = ImportPicl(picl, **builder);
  // Every counter an import fills is declared (spec/import_counters.toml).
  for (const auto& [name, count] : (*builder)->stats())
    EXPECT_NE(FindImportCounter(name), nullptr) << name << " is not in the table";
  if (stats != nullptr) *stats = (*builder)->stats();
  Status finished = (*builder)->Finish();
  return s.ok() ? finished : s;
}

// What PICL carries: one event stream per node (an MPI rank), nested user
// tasks (states), sends and receives between nodes with tag and length, on
// one communicator. Times are large so that nanoseconds must survive.
std::string PiclScript() {
  auto at = [](long long n) { return " t=" + std::to_string(1700000000000LL + n); };
  std::string s = testing::MpiScriptPreamble(3);
  for (int r = 0; r < 3; ++r)
    s += "state " + std::to_string(r) + " 10 \"solve step\"\n";
  s += "enter 0 0" + at(0) + " compute\n";
  s += "enter 0 0" + at(0) + " \"solve step\"\n";
  s += "leave 0 0" + at(1000) + " \"solve step\"\n";
  s += "enter 0 0" + at(1000) + " \"solve step\"\n";  // adjacent: equal clocks
  s += "leave 0 0" + at(1500) + " \"solve step\"\n";
  s += "enter 0 0" + at(1600) + " MPI_Send\n";
  s += "send 0 0" + at(1650) + " comm=world peer=1 tag=7 bytes=64\n";
  s += "leave 0 0" + at(1700) + " MPI_Send\n";
  s += "enter 0 0" + at(1700) + " MPI_Send\n";
  s += "send 0 0" + at(1750) + " comm=world peer=1 tag=7 bytes=128\n";
  s += "send 0 0" + at(1750) + " comm=world peer=2 tag=-1 bytes=0\n";
  s += "leave 0 0" + at(1800) + " MPI_Send\n";
  s += "enter 0 0" + at(2400) + " \"solve step\"\n";  // zero length
  s += "leave 0 0" + at(2400) + " \"solve step\"\n";
  s += "leave 0 0" + at(5000) + " compute\n";
  s += "enter 1 0" + at(500) + " MPI_Recv\n";
  s += "recv 1 0" + at(1660) + " comm=world peer=0 tag=7 bytes=64\n";
  s += "recv 1 0" + at(1660) + " comm=world peer=0 tag=7 bytes=128\n";  // same clock
  s += "leave 1 0" + at(1770) + " MPI_Recv\n";
  s += "enter 2 0" + at(300) + " compute\n";
  s += "recv 2 0" + at(1990) + " comm=world peer=0 tag=-1 bytes=0\n";
  s += "leave 2 0" + at(2050) + " compute\n";
  return s;
}

TEST(PiclTest, RoundTripKeepsTasksMessagesAndNames) {
  TempDir dir;
  ASSERT_TRUE(testing::WriteTraceScript(PiclScript(), dir.File("in.plx")).ok());
  model::Trace original;
  testing::LoadPlx(dir.File("in.plx"), &original);
  ASSERT_TRUE(ExportPicl(original, dir.File("t.trf")).ok());
  ASSERT_TRUE(Import(dir.File("t.trf"), dir.File("out.plx")).ok());
  model::Trace copy;
  testing::LoadPlx(dir.File("out.plx"), &copy);
  // Names come back from the "#plx" comment lines; counters and instants
  // are not in PICL's record set (the comparison's defaults leave out the rest).
  testing::CompareOptions options;
  options.counters = false;
  EXPECT_EQ(testing::CompareTraces(original, copy, options), std::vector<std::string>{});
  EXPECT_EQ(time::MatchMessages(copy).pairs.size(), 3u);
  EXPECT_EQ(copy.stats.leave_mismatch, 0u);
}

// The interop test trace: only the first thread of each process and messages
// between ranks go to PICL; what is written reads back as it was.
TEST(PiclTest, InteropTraceKeepsFirstThreads) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  ASSERT_TRUE(ExportPicl(original, dir.File("t.trf")).ok());
  ASSERT_TRUE(Import(dir.File("t.trf"), dir.File("out.plx")).ok());
  model::Trace copy;
  testing::LoadPlx(dir.File("out.plx"), &copy);
  ASSERT_EQ(copy.threads.size(), 3u);
  size_t slices = 0;
  for (size_t i = 0; i < original.slices.size(); ++i) {
    slices += original.threads[original.slices.thread[i]].file_stream == 0;
  }
  EXPECT_EQ(copy.slices.size(), slices);
  EXPECT_EQ(copy.threads[0].name, "main");
  EXPECT_EQ(copy.processes[2].name, "rank 2");
  // Three messages between ranks, all paired (the one between threads is not written).
  EXPECT_EQ(time::MatchMessages(copy).pairs.size(), 3u);
  EXPECT_EQ(copy.stats.leave_mismatch, 0u);
}

// A file in the MPICL format as other tools write it: no sequence numbers,
// clocks with five decimals, a tracemsg record and a subset definition we skip.
TEST(PiclTest, ReadsHandWrittenFile) {
  TempDir dir;
  WriteFile(dir.File("a.trf"),
            "-3 -901 0.00000 0 0 0\n"
            "-3 -901 0.00000 1 1 0\n"
            "-202 -812 0.00000 -1 -1 3 2 0 0 1\n"
            "-3 5 0.00001 0 0 0\n"
            "-3 -21 0.00002 0 0 4 2 32768 9 1 0\n"
            "-4 -21 0.00003 0 0 0\n"
            "-3 -52 0.00002 1 1 3 2 9 0 0\n"
            "-4 -52 0.000041234567891 1 1 4 2 32768 9 0 0\n"
            "-4 5 0.00005 0 0 0\n"
            "-3 -911 0.00006 1 1 3 \"%d %s %s\" 5 hello world\n"
            "-4 -901 0.00007 1 1 0\n"
            "-4 -901 0.00008 0 0 0\n");
  ImportStats stats;
  const Status s = Import(dir.File("a.trf"), dir.File("a.plx"), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  model::Trace t;
  testing::LoadPlx(dir.File("a.plx"), &t);
  ASSERT_EQ(t.processes.size(), 2u);
  EXPECT_EQ(t.processes[1].rank, 1);
  EXPECT_EQ(t.processes[1].name, "node 1");
  ASSERT_EQ(t.slices.size(), 1u);
  EXPECT_EQ(t.states[t.slices.state[0]].name, "task 5");
  EXPECT_EQ(t.slices.begin[0], 10000);
  EXPECT_EQ(t.slices.end[0], 50000);
  ASSERT_EQ(t.messages.size(), 2u);
  const time::MessagePairs pairs = time::MatchMessages(t);
  ASSERT_EQ(pairs.pairs.size(), 1u);
  const uint32_t send = pairs.pairs[0].send, recv = pairs.pairs[0].recv;
  EXPECT_EQ(t.messages.time[send], 20000);
  EXPECT_EQ(t.messages.tag[send], 9);
  EXPECT_EQ(t.messages.bytes[send], 32768u);
  EXPECT_EQ(t.messages.peer[send], 1);
  EXPECT_EQ(t.messages.time[recv], 41235);  // 41234.567891 ns, rounded half up
  EXPECT_EQ(t.messages.peer[recv], 0);
  // -202, -4 -21, -3 -52 and -911 are skipped and counted.
  EXPECT_EQ(stats.at("picl.records_skipped"), 4u);
}

// Records with equal clocks go in sequence-number order, whatever the order
// of the lines; sends and receives pair in that order too.
TEST(PiclTest, SequenceNumbersOrderEqualClocks) {
  TempDir dir;
  WriteFile(dir.File("s.trf"),
            "#plx seq\n"
            "#plx state 1 \"first\"\n"
            "#plx state 2 \"second\"\n"
            // Node 0: leaves "first" and enters "second" at one clock; the
            // lines come in the wrong order, the sequence numbers in the right one.
            "-3 1 1.0 0 0 1 2 1\n"
            "-3 2 2.0 0 0 1 2 3\n"
            "-4 1 2.0 0 0 1 2 2\n"
            "-4 2 3.0 0 0 1 2 4\n"
            // Two sends of one channel at one clock, written swapped.
            "-3 -21 2.5 0 0 5 2 200 4 1 0 6\n"
            "-3 -21 2.5 0 0 5 2 100 4 1 0 5\n"
            "-4 -52 2.7 1 0 5 2 100 4 0 0 1\n"
            "-4 -52 2.7 1 0 5 2 200 4 0 0 2\n");
  const Status s = Import(dir.File("s.trf"), dir.File("s.plx"));
  ASSERT_TRUE(s.ok()) << s.message();
  model::Trace t;
  testing::LoadPlx(dir.File("s.plx"), &t);
  ASSERT_EQ(t.slices.size(), 2u);
  EXPECT_EQ(t.states[t.slices.state[0]].name, "first");
  EXPECT_EQ(t.slices.end[0], 2000000000);
  EXPECT_EQ(t.states[t.slices.state[1]].name, "second");
  EXPECT_EQ(t.slices.begin[1], 2000000000);
  EXPECT_EQ(t.slices.depth[1], 0);  // not nested: the leave came first
  const time::MessagePairs pairs = time::MatchMessages(t);
  ASSERT_EQ(pairs.pairs.size(), 2u);
  for (const time::MessagePair& p : pairs.pairs)
    EXPECT_EQ(t.messages.bytes[p.send], t.messages.bytes[p.recv]);
}

// `nodes` nodes in a chain: each runs task 1 and, inside it, receives from
// the node before and sends to the node after (sent at 2 s, received at 3 s).
std::string ChainFile(int nodes) {
  std::string s;
  for (int n = 0; n < nodes; ++n) {
    const std::string node = " " + std::to_string(n) + " " + std::to_string(n);
    s += "-3 1 1.0" + node + " 0\n";
    if (n > 0) s += "-4 -52 3.0" + node + " 3 2 8 3 " + std::to_string(n - 1) + "\n";
    if (n + 1 < nodes) s += "-3 -21 2.0" + node + " 3 2 8 3 " + std::to_string(n + 1) + "\n";
    s += "-4 1 4.0" + node + " 0\n";
  }
  return s;
}

// Every node is a process: what is written per node must not grow with the
// number of nodes (a member list per node made 16,000 nodes 491 MB).
TEST(PiclTest, ManyNodesImportInLinearSize) {
  TempDir dir;
  uint64_t size[2] = {};
  const int nodes[2] = {5000, 20000};
  for (int i = 0; i < 2; ++i) {
    const std::string picl = dir.File("chain" + std::to_string(i) + ".trf");
    const std::string plx = dir.File("chain" + std::to_string(i) + ".plx");
    WriteFile(picl, ChainFile(nodes[i]));
    const Status s = Import(picl, plx);
    ASSERT_TRUE(s.ok()) << s.message();
    size[i] = testing::ReadFile(plx).size();
  }
  const double per_node_small = static_cast<double>(size[0]) / nodes[0];
  const double per_node_large = static_cast<double>(size[1]) / nodes[1];
  EXPECT_LT(per_node_large, 1.25 * per_node_small) << size[0] << " and " << size[1] << " bytes";
  EXPECT_LT(per_node_large, 400) << size[1] << " bytes";

  model::Trace t;
  testing::LoadPlx(dir.File("chain1.plx"), &t);
  ASSERT_EQ(t.processes.size(), 20000u);
  EXPECT_EQ(t.processes[12345].rank, 12345);
  EXPECT_EQ(t.slices.size(), 20000u);
  const time::MessagePairs pairs = time::MatchMessages(t);
  ASSERT_EQ(pairs.pairs.size(), 19999u);
  for (const time::MessagePair& p : pairs.pairs) {
    const int64_t from = t.processes[t.threads[t.messages.thread[p.send]].process].rank;
    EXPECT_EQ(t.messages.peer[p.send], from + 1);
    EXPECT_EQ(t.messages.peer[p.recv], from);
  }
  EXPECT_EQ(t.stats.leave_mismatch, 0u);
}

TEST(PiclTest, BadInputGivesOneLineErrorsWithLineAndField) {
  struct Case {
    std::string text;
    std::string expected;  // after "FILE:"
  };
  const std::vector<Case> cases = {
      {"-3 5 0.1 0 0\n", "1: data count: missing (line has too few fields)"},
      {"-3 5 0.1 0 0 0\n-3 x 0.2 0 0 0\n", "2: event type: bad integer"},
      {"-3 5 0.1x 0 0 0\n", "1: clock: bad time"},
      {"-3 -21 0.1 0 0 4 2 1 2\n", "1: data: missing (line has too few fields)"},
      {"-3 -21 0.1 0 0 2 2 1 2\n", "1: data: a message needs bytes, tag and peer"},
      {"-3 -21 0.1 0 0 3 2 1 2 z\n", "1: data: bad integer"},
      {"-3 5 0.1 -2 0 0\n", "1: node: negative"},
      {"-3 5 -0.1 0 0 0\n", "1: clock: negative"},
      {"-3 5 0.1 0 0 0 7\n", "1: data: more fields than the data count"},
      {"#plx seq\n-3 5 0.1 0 0 0\n", "2: sequence number: missing"},
      {"-3 5 0.1 0 0 0\n#plx seq\n", "2: #plx seq: after the first record"},
  };
  TempDir dir;
  for (const Case& c : cases) {
    WriteFile(dir.File("bad.trf"), c.text);
    const Status s = Import(dir.File("bad.trf"), dir.File("bad.plx"));
    ASSERT_FALSE(s.ok()) << c.expected;
    EXPECT_EQ(s.message(), dir.File("bad.trf") + ":" + c.expected);
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace plx::interop
