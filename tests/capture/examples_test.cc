// The bundled example programs trace what they claim to: the farm's states,
// hand-offs, counters and annotations; the C ring's messages.
#include <gtest/gtest.h>

#include <map>

#include "capture/trace_reader.h"
#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

std::map<std::string, int> CountByKindAndName(const std::string& path) {
  std::map<std::string, int> counts;
  auto file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return counts;
  EXPECT_TRUE(VisitRecords(**file, [&](const RecordContext&, const Canon& c) {
                const char* kinds[] = {"?",      "enter", "leave", "int",     "double",
                                       "string", "send",  "recv",  "counter", "counter",
                                       "rma",    "begin", "end",   "control", "lost"};
                ++counts[std::string(kinds[c.kind]) + ":" + std::string(c.name)];
              }).ok());
  return counts;
}

TEST(Examples, ThreadFarm) {
  TempDir dir;
  RunResult r = RunProgram(
      {BuildPath("examples/thread_farm"), "--workers", "3", "--jobs", "50", "--work-us", "50"},
      {"PLX_OUTPUT=" + dir.File("farm.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto n = CountByKindAndName(dir.File("farm.plx"));
  EXPECT_EQ(n["enter:compute"], 50);
  EXPECT_EQ(n["leave:compute"], 50);
  EXPECT_EQ(n["enter:produce"], 1);
  EXPECT_EQ(n["enter:collect"], 1);
  EXPECT_GE(n["enter:lock"], 150);    // 50 pushes + 50 pops of jobs, 50 + 50 of results
  EXPECT_EQ(n["send:threads"], 100);  // a job to a worker and a result back, per job
  EXPECT_EQ(n["recv:threads"], 100);
  EXPECT_EQ(n["string:annotation"], 50);
  EXPECT_GT(n["counter:queue length"], 0);
  EXPECT_EQ(n["begin:"], 4);  // master + 3 workers
}

TEST(Examples, ThreadRingInC) {
  TempDir dir;
  RunResult r = RunProgram({BuildPath("examples/thread_ring"), "4", "10"},
                           {"PLX_OUTPUT=" + dir.File("ring.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto n = CountByKindAndName(dir.File("ring.plx"));
  EXPECT_EQ(n["send:threads"], 40);
  EXPECT_EQ(n["recv:threads"], 40);
  EXPECT_EQ(n["enter:work"], 40);
  EXPECT_EQ(n["int:hop"], 40);
}

}  // namespace
}  // namespace plx::testing
