// LoadTrace: slices (nesting, self time, mismatches, unclosed), definition
// merging across processes, undefined ids, damaged chunks, every table.
#include "model/load_trace.h"

#include <gtest/gtest.h>

#include <fstream>

#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::model {
namespace {

using testing::TempDir;
using testing::WriteTraceScript;

class LoadTraceTest : public ::testing::Test {
 protected:
  // Writes the script, opens it and loads it; fails the test on any error.
  Trace Load(const std::string& script, const LoadOptions& options = {}) {
    const std::string path = dir_.File("t.plx");
    Status w = WriteTraceScript(script, path);
    EXPECT_TRUE(w.ok()) << w.message();
    return LoadPath(path, options);
  }
  Trace LoadPath(const std::string& path, const LoadOptions& options = {}) {
    auto file = format::TraceFile::Open(path);
    EXPECT_TRUE(file.ok()) << file.status().message();
    if (!file.ok()) return Trace();
    auto trace = LoadTrace(**file, options);
    EXPECT_TRUE(trace.ok()) << trace.status().message();
    return trace.ok() ? std::move(trace).value() : Trace();
  }
  static std::string StateName(const Trace& t, size_t row) {
    return t.states[t.slices.state[row]].name;
  }

  TempDir dir_;
};

constexpr char kHeader[] = R"(
process 0 pid=100 rank=0 host=node1 exe=/bin/app
thread 0 1 tid=101 name=main
state 0 1 A category=user color=#ff0000
state 0 2 B category=user
state 0 3 C category=mpi
state 0 4 D
)";

TEST_F(LoadTraceTest, NestingDepthAndSelfTime) {
  Trace t = Load(std::string(kHeader) + R"(
enter 0 1 t=0 A
enter 0 1 t=10 B
enter 0 1 t=15 D
leave 0 1 t=25 D
leave 0 1 t=30 B
enter 0 1 t=40 C
leave 0 1 t=45 C
leave 0 1 t=100 A
)");
  ASSERT_EQ(t.slices.size(), 4u);
  // Rows appear in enter order: A, B, D, C.
  EXPECT_EQ(StateName(t, 0), "A");
  EXPECT_EQ(StateName(t, 1), "B");
  EXPECT_EQ(StateName(t, 2), "D");
  EXPECT_EQ(StateName(t, 3), "C");
  EXPECT_EQ(t.slices.begin[0], 0);
  EXPECT_EQ(t.slices.end[0], 100);
  EXPECT_EQ(t.slices.self_ns[0], 100 - 20 - 5);  // direct children B and C only
  EXPECT_EQ(t.slices.self_ns[1], 20 - 10);       // B minus D
  EXPECT_EQ(t.slices.self_ns[2], 10);
  EXPECT_EQ(t.slices.self_ns[3], 5);
  EXPECT_EQ(t.slices.depth[0], 0);
  EXPECT_EQ(t.slices.depth[1], 1);
  EXPECT_EQ(t.slices.depth[2], 2);
  EXPECT_EQ(t.slices.depth[3], 1);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(t.slices.flags[i], 0);
  ASSERT_EQ(t.threads.size(), 1u);
  EXPECT_EQ(t.threads[0].records, 8u);
  EXPECT_EQ(t.threads[0].begin_ns, 0);
  EXPECT_EQ(t.threads[0].end_ns, 100);
  EXPECT_EQ(t.threads[0].tid, 101u);
  EXPECT_EQ(t.threads[0].name, "main");
  EXPECT_EQ(t.stats.records, 8u);
  EXPECT_EQ(t.stats.leave_mismatch, 0u);
  EXPECT_EQ(t.stats.unclosed_slices, 0u);
  EXPECT_EQ(t.begin_ns, 0);
  EXPECT_EQ(t.end_ns, 100);
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes[0].host, "node1");
  EXPECT_EQ(t.processes[0].pid, 100u);
  EXPECT_EQ(t.processes[0].executable, "/bin/app");
  EXPECT_EQ(t.states[t.slices.state[0]].color, 0x1ff0000u);
  EXPECT_EQ(t.categories[t.states[t.slices.state[0]].category].name, "user");
  EXPECT_EQ(t.states[t.slices.state[2]].category, kNone);
}

TEST_F(LoadTraceTest, LeaveOfOtherStateClosesInnermost) {
  Trace t = Load(std::string(kHeader) + R"(
enter 0 1 t=0 A
enter 0 1 t=10 B
leave 0 1 t=20 A
leave 0 1 t=30 A
)");
  ASSERT_EQ(t.slices.size(), 2u);
  EXPECT_EQ(t.stats.leave_mismatch, 1u);
  EXPECT_EQ(t.slices.end[1], 20);  // B, closed by the mismatched leave
  EXPECT_EQ(t.slices.end[0], 30);
  EXPECT_EQ(t.slices.self_ns[0], 30 - 10);
}

TEST_F(LoadTraceTest, LeaveWithoutEnterIsIgnored) {
  Trace t = Load(std::string(kHeader) + R"(
leave 0 1 t=5 A
enter 0 1 t=10 B
leave 0 1 t=20 B
leave 0 1 t=25 B
)");
  ASSERT_EQ(t.slices.size(), 1u);
  EXPECT_EQ(t.stats.leave_without_enter, 2u);
  EXPECT_EQ(t.slices.begin[0], 10);
  EXPECT_EQ(t.slices.end[0], 20);
  EXPECT_EQ(t.threads[0].begin_ns, 5);  // the ignored leave is still a record
  EXPECT_EQ(t.threads[0].end_ns, 25);
}

TEST_F(LoadTraceTest, UnclosedSlicesEndAtTheThreadsLastRecord) {
  Trace t = Load(std::string(kHeader) + R"(
thread 0 2 tid=102
enter 0 1 t=0 A
enter 0 1 t=10 B
thread_end 0 1 t=50
enter 0 2 t=7 C
leave 0 2 t=9 C
)");
  ASSERT_EQ(t.slices.size(), 3u);
  EXPECT_EQ(t.stats.unclosed_slices, 2u);
  EXPECT_EQ(t.slices.end[0], 50);
  EXPECT_EQ(t.slices.end[1], 50);
  EXPECT_EQ(t.slices.self_ns[1], 40);
  EXPECT_EQ(t.slices.self_ns[0], 10);
  EXPECT_EQ(t.slices.flags[0], SliceTable::kUnclosed);
  EXPECT_EQ(t.slices.flags[1], SliceTable::kUnclosed);
  EXPECT_EQ(t.slices.flags[2], 0);  // thread 2's slice is closed and not affected
  EXPECT_EQ(t.slices.thread[2], 1u);
  EXPECT_TRUE(t.threads[0].ended);
  EXPECT_FALSE(t.threads[1].ended);
}

TEST_F(LoadTraceTest, UndefinedIdsGetPlaceholders) {
  Trace t = Load(std::string(kHeader) + R"(
enter 0 1 t=0 7
leave 0 1 t=10 7
enter 0 1 t=20 7 callsite=9
leave 0 1 t=30 7
event 0 1 t=35 3 value=1
send 0 1 t=40 comm=4 peer=1 tag=0 bytes=8
)");
  ASSERT_EQ(t.slices.size(), 2u);
  EXPECT_EQ(StateName(t, 0), "<undefined 7>");
  EXPECT_EQ(t.slices.state[0], t.slices.state[1]);  // one placeholder per id
  EXPECT_EQ(t.callsites[t.slices.callsite[1]].file, "<undefined 9>");
  EXPECT_EQ(t.slices.callsite[0], kNone);  // callsite 0 means unknown, not undefined
  EXPECT_EQ(t.event_types[t.instants.type[0]].name, "<undefined 3>");
  EXPECT_EQ(t.messages.comm[0], kNone);
  // Two enters, one callsite, one event type, one communicator.
  EXPECT_EQ(t.stats.undefined_refs, 5u);
}

TEST_F(LoadTraceTest, DefinitionsMergeByNameAcrossProcesses) {
  Trace t = Load(R"(
process 0 pid=100
process 1 pid=200 rank=1
thread 0 1
thread 1 1
state 0 1 compute category=user
state 0 2 io category=io
state 1 5 compute category=user
state 1 1 io category=user
callsite 0 1 a.c 10 function=f
callsite 1 3 a.c 10 function=f
callsite 1 4 a.c 11 function=f
counter_def 0 1 bytes unit=B
counter_def 1 2 bytes unit=B
enter 0 1 t=0 compute callsite=1
leave 0 1 t=10 compute
enter 1 1 t=5 compute callsite=3
leave 1 1 t=8 compute
enter 1 1 t=9 io callsite=4
leave 1 1 t=12 io
counter 0 1 t=11 bytes value=5
counter 1 1 t=13 bytes value=6
)");
  ASSERT_EQ(t.processes.size(), 2u);
  EXPECT_EQ(t.processes[1].rank, 1);
  EXPECT_EQ(t.processes[0].rank, -1);
  // compute/user is one state; io/io and io/user are two.
  ASSERT_EQ(t.states.size(), 3u);
  ASSERT_EQ(t.slices.size(), 3u);
  EXPECT_EQ(t.slices.state[0], t.slices.state[1]);
  EXPECT_EQ(StateName(t, 2), "io");
  EXPECT_EQ(t.categories[t.states[t.slices.state[2]].category].name, "user");
  EXPECT_EQ(t.categories.size(), 2u);
  EXPECT_EQ(t.callsites.size(), 2u);
  EXPECT_EQ(t.slices.callsite[0], t.slices.callsite[1]);
  EXPECT_NE(t.slices.callsite[1], t.slices.callsite[2]);
  EXPECT_EQ(t.counters.size(), 1u);
  EXPECT_EQ(t.counter_samples.counter[0], t.counter_samples.counter[1]);
  // Rows are sorted by thread, then begin.
  EXPECT_EQ(t.slices.thread[0], 0u);
  EXPECT_EQ(t.slices.thread[1], 1u);
  EXPECT_EQ(t.threads[1].process, 1u);
  EXPECT_EQ(t.stats.undefined_refs, 0u);
}

TEST_F(LoadTraceTest, EveryRecordKindLandsInItsTable) {
  Trace t = Load(std::string(kHeader) + R"(
event_type 0 1 note kind=string
event_type 0 2 iter kind=int
event_type 0 3 load kind=double
counter_def 0 1 mem kind=double unit=MiB
comm 0 1 world
comm 0 2 local kind=streams
thread_begin 0 1 t=1
event 0 1 t=2 note value="hello world"
event 0 1 t=3 iter value=-42
event 0 1 t=4 load value=0.5
send 0 1 t=5 comm=world peer=1 tag=7 bytes=64 clock=3
recv 0 1 t=6 comm=local peer=2 tag=8 bytes=32
counter 0 1 t=7 mem value=1.25
rma 0 1 t=8 op=1 comm=world origin=0 target=1 bytes=128
control 0 1 t=9 on=0
lost 0 1 t=10 count=17
raw 0 1 t=11 kind=200 hex=0102
thread_end 0 1 t=12
)");
  EXPECT_EQ(t.stats.records, 12u);
  ASSERT_EQ(t.instants.size(), 3u);
  EXPECT_EQ(t.instants.kind[0], ValueKind::kString);
  EXPECT_EQ(t.texts[t.instants.text[0]], "hello world");
  EXPECT_EQ(t.instants.int_value[1], -42);
  EXPECT_EQ(t.instants.text[1], kNone);
  EXPECT_EQ(t.instants.double_value[2], 0.5);
  EXPECT_EQ(t.event_types[t.instants.type[2]].name, "load");
  ASSERT_EQ(t.messages.size(), 2u);
  EXPECT_EQ(t.messages.is_send[0], 1);
  EXPECT_EQ(t.messages.clock[0], 3u);
  EXPECT_EQ(t.messages.bytes[1], 32u);
  EXPECT_EQ(t.communicators[t.messages.comm[1]].name, "local");
  EXPECT_EQ(t.communicators[t.messages.comm[1]].kind, 1);
  ASSERT_EQ(t.counter_samples.size(), 1u);
  EXPECT_EQ(t.counter_samples.value[0], 1.25);
  EXPECT_EQ(t.counters[t.counter_samples.counter[0]].unit, "MiB");
  ASSERT_EQ(t.rma.size(), 1u);
  EXPECT_EQ(t.rma.op[0], 1);
  EXPECT_EQ(t.rma.bytes[0], 128u);
  ASSERT_EQ(t.controls.size(), 2u);
  EXPECT_EQ(t.controls.on[0], 0);
  EXPECT_EQ(t.controls.lost[1], 17u);
  EXPECT_EQ(t.stats.lost_records, 17u);
  EXPECT_EQ(t.stats.unknown_record_kinds, 1u);
  EXPECT_TRUE(t.threads[0].ended);
  EXPECT_EQ(t.threads[0].begin_ns, 1);
  EXPECT_EQ(t.threads[0].end_ns, 12);
}

TEST_F(LoadTraceTest, TscTicksAreConvertedWithTheProcessClock) {
  Trace t = Load(R"(
process 0
clock 0 tsc=2000000000
sync 0 tick=1000 ns=5000
sync 0 tick=3000 ns=6000
thread 0 1
state 0 1 A
enter 0 1 t=1000 A
leave 0 1 t=2000 A
)");
  ASSERT_EQ(t.slices.size(), 1u);
  EXPECT_EQ(t.slices.begin[0], 5000);
  EXPECT_EQ(t.slices.end[0], 5500);  // 2 ticks per ns
}

TEST_F(LoadTraceTest, DamagedChunkIsSkippedCountedAndReported) {
  // Tiny chunks: every few records seal a chunk.
  std::string script = std::string("option chunk=16 zstd=0\n") + kHeader;
  for (int i = 0; i < 10; ++i)
    script += "enter 0 1 t=" + std::to_string(i * 10) +
              " A\nleave 0 1 t=" + std::to_string(i * 10 + 5) + " A\n";
  const std::string path = dir_.File("t.plx");
  ASSERT_TRUE(WriteTraceScript(script, path).ok());
  {
    auto file = format::TraceFile::Open(path);
    ASSERT_TRUE(file.ok());
    ASSERT_GE((*file)->event_chunks().size(), 3u);
    // Flip a payload byte of the second EVENTS chunk.
    const uint64_t offset = (*file)->event_chunks()[1].offset + format::kChunkHeaderSize;
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put('\x7f');
  }
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok());
  const uint64_t lost = (*file)->event_chunks()[1].header.record_count;
  Trace t = LoadPath(path);
  EXPECT_EQ(t.stats.damaged_chunks, 1u);
  EXPECT_EQ(t.stats.records, 20u - lost);
  EXPECT_EQ(t.threads[0].records, 20u - lost);
  ASSERT_FALSE(t.problems.empty());
  EXPECT_NE(t.problems.back().find("checksum mismatch (chunk skipped)"), std::string::npos)
      << t.problems.back();
  EXPECT_EQ(t.problems.back().find(path), std::string::npos);  // no file name in the line
  EXPECT_EQ(t.slices.end.back(), 95);                          // later chunks still load
}

TEST_F(LoadTraceTest, ProgressEndsWithTheTotal) {
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  LoadOptions options;
  options.progress = [&](uint64_t done, uint64_t total) { calls.emplace_back(done, total); };
  Load(std::string(kHeader) + "enter 0 1 t=0 A\nleave 0 1 t=1 A\n", options);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), std::make_pair(uint64_t{2}, uint64_t{2}));
}

TEST_F(LoadTraceTest, DefinitionsOnlyTakesThreadSpansFromTheIndex) {
  LoadOptions options;
  options.events = false;
  Trace t = Load(std::string(kHeader) + R"(
thread 0 9 name=idle
enter 0 1 t=10 A
leave 0 1 t=30 A
)",
                 options);
  EXPECT_EQ(t.slices.size(), 0u);
  ASSERT_EQ(t.threads.size(), 2u);  // the defined stream without records too
  EXPECT_EQ(t.threads[0].records, 2u);
  EXPECT_EQ(t.threads[0].begin_ns, 10);
  EXPECT_EQ(t.threads[0].end_ns, 30);
  EXPECT_EQ(t.threads[1].name, "idle");
  EXPECT_EQ(t.threads[1].records, 0u);
  EXPECT_EQ(t.begin_ns, 10);
  EXPECT_EQ(t.end_ns, 30);
  EXPECT_EQ(t.states.size(), 4u);
}

}  // namespace
}  // namespace plx::model
