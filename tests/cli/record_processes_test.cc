// Several traced processes in one run: a shell running traced programs at
// once, a program that forks while it records. Each process writes its own
// part and `parallax record` merges them; every process is found with all its
// records (as many as the same program traced alone) and its place in the
// process tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

struct Process {
  uint64_t pid = 0;
  std::string parent;  // the parallax.parent_pid attribute
  std::string executable, arguments;
  uint64_t records = 0;
};

// The processes of a trace by pid; fails the test when it cannot be read.
std::map<uint64_t, Process> Processes(const std::string& path) {
  std::map<uint64_t, Process> out;
  auto file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return out;
  EXPECT_TRUE((*file)->report().problems.empty()) << (*file)->report().problems[0];
  std::map<uint32_t, uint64_t> records;
  for (const format::StreamInfo& s : (*file)->streams())
    records[s.process] += s.records;
  for (const auto& [id, defs] : (*file)->processes()) {
    EXPECT_TRUE(defs.process.has_value()) << "process " << id << " has no definition";
    if (!defs.process) continue;
    Process p;
    p.pid = defs.process->pid;
    for (const format::AttributeDef& a : defs.attributes)
      if (defs.Str(a.key) == "parallax.parent_pid") p.parent = defs.Str(a.value);
    p.executable = defs.Str(defs.process->executable);
    p.arguments = defs.Str(defs.process->arguments);
    p.records = records[id];
    EXPECT_EQ(out.count(p.pid), 0u) << "pid " << p.pid << " twice";
    out[p.pid] = p;
  }
  return out;
}

uint64_t TotalRecords(const std::string& path) {
  uint64_t n = 0;
  for (const auto& [pid, p] : Processes(path))
    n += p.records;
  return n;
}

// parallax record -o FILE -- ARGV, in `dir`; the MPI library is the stand-in.
RunResult Record(const TempDir& dir, const std::string& file, std::vector<std::string> argv) {
  std::vector<std::string> args = {BuildPath("src/cli/parallax"), "record", "-o", file, "--"};
  args.insert(args.end(), argv.begin(), argv.end());
  return RunProgram(args, {"LD_PRELOAD=", "PLX_MPI_LIBDIR=" + BuildPath("tests/cli/fake_mpi"),
                           "PLX_FAKE_MPI_LOG=" + dir.File("preload-log"),
                           "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1"});
}

// The records one process of `argv` makes when it is traced alone.
uint64_t RecordsAlone(const TempDir& dir, const std::vector<std::string>& argv) {
  const std::string trace = dir.File("alone.plx");
  RunResult r = RunProgram(argv, {"PLX_OUTPUT=" + trace});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const uint64_t n = TotalRecords(trace);
  std::filesystem::remove(trace);
  return n;
}

TEST(RecordProcesses, ShellJobsEachWriteTheirOwnPart) {
  TempDir dir;
  const std::string child = BuildPath("tests/capture/capture_child");
  const uint64_t alone_a = RecordsAlone(dir, {child, "stress", "3", "2000"});
  const uint64_t alone_b = RecordsAlone(dir, {child, "stress", "2", "500"});
  ASSERT_GT(alone_a, 0u);
  ASSERT_GT(alone_b, 0u);

  // Two jobs in the background and one in the foreground, all at once.
  const std::string trace = dir.File("mp.plx");
  RunResult r = Record(
      dir, trace,
      {"/bin/sh", "-c",
       child + " stress 3 2000 & " + child + " stress 3 2000 & " + child + " stress 2 500; wait"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("merged 3 parts into " + trace), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(trace + ".parts")) << r.output;

  const std::map<uint64_t, Process> processes = Processes(trace);
  ASSERT_EQ(processes.size(), 3u) << r.output;
  int big = 0, small = 0;
  std::string shell;
  for (const auto& [pid, p] : processes) {
    EXPECT_FALSE(p.parent.empty()) << "pid " << pid;
    if (shell.empty()) shell = p.parent;
    EXPECT_EQ(p.parent, shell) << "all started by the same shell";
    EXPECT_EQ(p.executable, std::filesystem::canonical(child).string());
    if (p.arguments == child + " stress 3 2000") {
      ++big;
      EXPECT_EQ(p.records, alone_a) << "pid " << pid;
    } else {
      ++small;
      EXPECT_EQ(p.arguments, child + " stress 2 500");
      EXPECT_EQ(p.records, alone_b) << "pid " << pid;
    }
  }
  EXPECT_EQ(big, 2);
  EXPECT_EQ(small, 1);

  RunResult info = RunProgram({BuildPath("src/cli/parallax"), "info", "--quick", trace});
  EXPECT_EQ(info.exit_code, 0) << info.output;
  EXPECT_NE(info.output.find("pid  parent  host"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find(" " + shell + "  "), std::string::npos) << info.output;
}

TEST(RecordProcesses, ForkedChildWritesItsOwnPart) {
  TempDir dir;
  const std::string child = BuildPath("tests/capture/capture_child");
  const uint64_t one = RecordsAlone(dir, {child, "stress", "1", "1"});
  const uint64_t pattern = RecordsAlone(dir, {child, "stress", "3", "2000"});

  const std::string trace = dir.File("fork.plx");
  RunResult r = Record(dir, trace, {child, "fork", "3", "2000"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::map<uint64_t, Process> processes = Processes(trace);
  ASSERT_EQ(processes.size(), 2u) << r.output;
  const Process& parent = processes.begin()->second;
  const Process& forked = std::next(processes.begin())->second;
  EXPECT_EQ(forked.parent, std::to_string(parent.pid));
  EXPECT_EQ(parent.records, one + pattern);
  EXPECT_EQ(forked.records, pattern);
  EXPECT_EQ(forked.arguments, parent.arguments);
}

TEST(RecordProcesses, ForkedChildNeverWritesIntoItsParentsFile) {
  // Without `record`: the child's name for its trace is its parent's, so it
  // writes a part beside it; the parent's file is whole.
  TempDir dir;
  const std::string child = BuildPath("tests/capture/capture_child");
  const uint64_t one = RecordsAlone(dir, {child, "stress", "1", "1"});
  const uint64_t pattern = RecordsAlone(dir, {child, "stress", "3", "2000"});
  const std::string trace = dir.File("fork.plx");
  RunResult r = RunProgram({child, "fork", "3", "2000"}, {"PLX_OUTPUT=" + trace});
  ASSERT_EQ(r.exit_code, 0) << r.output;

  auto file = format::TraceFile::Open(trace);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_TRUE((*file)->report().used_index);
  EXPECT_TRUE((*file)->report().problems.empty());
  EXPECT_EQ(TotalRecords(trace), one + pattern);
  std::vector<std::string> parts;
  for (const auto& e : std::filesystem::directory_iterator(trace + ".parts"))
    parts.push_back(e.path().string());
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].rfind(trace + ".parts/pid-", 0), 0u) << parts[0];
  EXPECT_EQ(TotalRecords(parts[0]), pattern);
}

}  // namespace
}  // namespace plx::testing
