// OTF2 export and import: the round trip of the interop test trace,
// otf2-print reading our archives, real Score-P archives, and damaged input.
// An archive written with the OTF2 library's own writer:
// otf2_library_archive_test.cc.
#include "interop/otf2/otf2.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/strings.h"
#include "interop/event_walk.h"
#include "interop_test_trace.h"
#include "otf2_import.h"
#include "support/test_support.h"
#include "time/message_pairs.h"
#include "trace_compare.h"

namespace plx::interop {
namespace {

using testing::TempDir;

uint32_t CountSends(const model::Trace& t, bool sends) {
  uint32_t n = 0;
  for (uint8_t s : t.messages.is_send)
    n += (s != 0) == sends;
  return n;
}

TEST(Otf2Test, RoundTripKeepsTheInteropTestTrace) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  uint64_t last = 0, total = 0;
  const Status exported = ExportOtf2(original, dir.File("t.otf2"), [&](uint64_t d, uint64_t n) {
    last = d;
    total = n;
  });
  ASSERT_TRUE(exported.ok()) << exported.message();
  EXPECT_EQ(last, total);
  EXPECT_EQ(total, EventCount(original));

  model::Trace back;
  const Status imported = Import(dir.File("t.otf2"), dir, &back);
  ASSERT_TRUE(imported.ok()) << imported.message();
  testing::CompareOptions options;
  options.collectives = options.rma = options.recv_posts = true;
  // Instants are OTF2 parameters, which have no floating-point kind: the
  // double instant comes back as text (checked below), the others as they were.
  options.instants = false;
  EXPECT_EQ(testing::CompareTraces(original, back, options), std::vector<std::string>{});
  EXPECT_EQ(back.begin_ns, original.begin_ns);  // absolute nanoseconds, exactly
  EXPECT_EQ(back.stats.leave_mismatch, 0u);
  EXPECT_EQ(back.stats.undefined_refs, 0u);
  ASSERT_EQ(back.processes.size(), 3u);
  EXPECT_EQ(back.processes[0].host, "node0");
  EXPECT_EQ(back.processes[2].host, "node1");
  // Every message pairs, as in the original.
  const time::MessagePairs pairs = time::MatchMessages(back);
  EXPECT_EQ(pairs.pairs.size(), time::MatchMessages(original).pairs.size());
  EXPECT_TRUE(pairs.unmatched_sends.empty());
  EXPECT_TRUE(pairs.unmatched_recvs.empty());
  // States of MPI calls are communication.
  for (const model::State& s : back.states) {
    const std::string category = s.category == model::kNone ? "" : back.categories[s.category].name;
    EXPECT_EQ(category, s.name.rfind("MPI_", 0) == 0 ? "comm" : "user") << s.name;
  }
  // Instants: int and string exactly, the double as its shortest exact text.
  std::multiset<std::string> got;
  for (uint32_t r = 0; r < back.instants.size(); ++r) {
    const model::InstantTable& i = back.instants;
    const std::string value = i.kind[r] == model::ValueKind::kString
                                  ? "s:" + back.texts[i.text[r]]
                                  : "i:" + std::to_string(i.int_value[r]);
    got.insert(back.event_types[i.type[r]].name + "=" + value + "@" +
               std::to_string(i.time[r] - back.begin_ns));
  }
  const std::multiset<std::string> want = {"iteration=i:1@100", "residual=s:0.125@1200",
                                           "note=s:converged, 3 steps@2500"};
  EXPECT_EQ(got, want);
}

TEST(Otf2Test, ExportRefusesToOverwriteAndBadNames) {
  TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &t);
  ASSERT_TRUE(ExportOtf2(t, dir.File("a.otf2")).ok());
  const Status again = ExportOtf2(t, dir.File("a.otf2"));
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find("already exists"), std::string::npos) << again.message();
  const Status name = ExportOtf2(t, dir.File("a.json"));
  EXPECT_FALSE(name.ok());
  EXPECT_NE(name.message().find(".otf2"), std::string::npos) << name.message();
}

// ---- otf2-print ----------------------------------------------------------

TEST(Otf2Test, Otf2PrintReadsOurArchive) {
  const std::string tool = "/usr/bin/otf2-print";
  if (::access(tool.c_str(), X_OK) != 0) GTEST_SKIP() << tool << " not installed";
  TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &t);
  ASSERT_TRUE(ExportOtf2(t, dir.File("t.otf2")).ok());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{tool, dir.File("t.otf2")},
        std::vector<std::string>{tool, "-G", dir.File("t.otf2")}}) {
    const testing::RunResult r = testing::RunProgram(args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::string lower;
    for (char c : r.output)
      lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(lower.find("error"), std::string::npos) << r.output;
    EXPECT_EQ(lower.find("warning"), std::string::npos) << r.output;
  }
  // Events by kind, as otf2-print lists them.
  const testing::RunResult r = testing::RunProgram({tool, dir.File("t.otf2")});
  std::map<std::string, uint64_t> kinds;
  size_t at = 0;
  while (at < r.output.size()) {
    size_t end = r.output.find('\n', at);
    if (end == std::string::npos) end = r.output.size();
    const std::string line = r.output.substr(at, end - at);
    at = end + 1;
    const size_t space = line.find(' ');
    if (space == 0 || space == std::string::npos) continue;
    kinds[line.substr(0, space)]++;
  }
  uint64_t posts = 0;
  for (uint64_t m : t.recv_posts.match)
    posts += m != 0;
  EXPECT_EQ(kinds["ENTER"], t.slices.size());
  EXPECT_EQ(kinds["LEAVE"], t.slices.size());
  EXPECT_EQ(kinds["MPI_SEND"], CountSends(t, true));
  EXPECT_EQ(kinds["MPI_RECV"] + kinds["MPI_IRECV"], CountSends(t, false));
  EXPECT_EQ(kinds["MPI_IRECV_REQUEST"], posts);
  EXPECT_EQ(kinds["MPI_COLLECTIVE_END"], t.collectives.size());
  EXPECT_EQ(kinds["RMA_PUT"] + kinds["RMA_GET"], t.rma.size());
  EXPECT_EQ(kinds["METRIC"], t.counter_samples.size());
  EXPECT_EQ(kinds["PARAMETER_INT64"] + kinds["PARAMETER_STRING"], t.instants.size());
}

// ---- Score-P -------------------------------------------------------------

TEST(Otf2Test, ImportsScorePArchives) {
  const std::string data = testing::SourcePath("../shared/testdata/otf2-scorep");
  struct stat st;
  if (::stat(data.c_str(), &st) != 0) GTEST_SKIP() << data << " not found: Score-P data absent";
  for (const std::string name : {"ping-pong-otf2", "ping-pong-otf2-papi"}) {
    SCOPED_TRACE(name);
    TempDir dir;
    model::Trace t;
    const Status imported = Import(data + "/" + name + "/traces.otf2", dir, &t);
    ASSERT_TRUE(imported.ok()) << imported.message();
    ASSERT_EQ(t.processes.size(), 2u);
    EXPECT_EQ(t.processes[0].name, "MPI Rank 0");
    EXPECT_EQ(t.processes[0].rank, 0);
    EXPECT_EQ(t.processes[1].rank, 1);
    EXPECT_EQ(t.processes[1].host, "quartz10");
    ASSERT_EQ(t.threads.size(), 2u);
    EXPECT_EQ(t.threads[0].name, "Master thread");
    EXPECT_EQ(CountSends(t, true), 16u);
    EXPECT_EQ(CountSends(t, false), 16u);
    const time::MessagePairs pairs = time::MatchMessages(t);
    EXPECT_EQ(pairs.pairs.size(), 16u);
    EXPECT_TRUE(pairs.unmatched_sends.empty());
    EXPECT_TRUE(pairs.unmatched_recvs.empty());
    for (const time::MessagePair& p : pairs.pairs) {
      EXPECT_EQ(t.messages.bytes[p.send], t.messages.bytes[p.recv]);
      EXPECT_LT(t.messages.time[p.send], t.messages.time[p.recv]);
    }
    std::map<std::string, uint32_t> slices;
    for (uint32_t r = 0; r < t.slices.size(); ++r)
      slices[t.states[t.slices.state[r]].name]++;
    EXPECT_EQ(slices["int main(int, char**)"], 2u);
    EXPECT_EQ(slices["MPI_Send"], 16u);
    EXPECT_EQ(slices["MPI_Recv"], 16u);
    EXPECT_EQ(slices["MPI_Init"], 2u);
    EXPECT_EQ(t.stats.leave_mismatch, 0u);
    for (const model::State& s : t.states) {
      if (s.name == "MPI_Send") {
        EXPECT_EQ(t.categories[s.category].name, "comm");
      }
    }
    if (name == "ping-pong-otf2-papi") {
      // 84 metric events of three PAPI counters each.
      ASSERT_EQ(t.counter_samples.size(), 3u * 84u);
      std::map<std::string, uint32_t> samples;
      for (uint32_t c : t.counter_samples.counter)
        samples[t.counters[c].name]++;
      EXPECT_EQ(samples["PAPI_TOT_CYC"], 84u);
      EXPECT_EQ(samples["PAPI_L2_TCM"], 84u);
      EXPECT_EQ(samples["PAPI_BR_MSP"], 84u);
      // Rank 0's first sample (otf2-print: 98850 cycles at tick 7396895680158984 of 2095191439/s).
      const unsigned __int128 ticks = 7396895680158984ull;
      const auto ns = static_cast<int64_t>(ticks * 1000000000u / 2095191439u);
      bool found = false;
      for (uint32_t r = 0; r < t.counter_samples.size(); ++r) {
        if (t.counter_samples.thread[r] == 0 &&
            t.counters[t.counter_samples.counter[r]].name == "PAPI_TOT_CYC") {
          EXPECT_EQ(t.counter_samples.value[r], 98850);
          EXPECT_EQ(t.counter_samples.time[r], ns);
          found = true;
          break;
        }
      }
      EXPECT_TRUE(found);
    } else {
      EXPECT_EQ(t.counter_samples.size(), 0u);
    }
  }
}

// ---- Bad input -----------------------------------------------------------

void ExpectOneLine(const Status& s, const std::string& must_contain) {
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(must_contain), std::string::npos) << s.message();
}

TEST(Otf2Test, BadInputGivesOneLineNamingTheFile) {
  TempDir dir;
  model::Trace t;
  {
    const Status missing = Import(dir.File("nothing.otf2"), dir, &t);
    ExpectOneLine(missing, dir.File("nothing.otf2"));
  }
  {
    std::ofstream(dir.File("junk.otf2")) << "this is no anchor file\n";
    ExpectOneLine(Import(dir.File("junk.otf2"), dir, &t), dir.File("junk.otf2"));
  }
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  // A truncated event file (of the second location), one overwritten with
  // garbage, and damaged global definitions.
  for (int damage = 0; damage < 3; ++damage) {
    SCOPED_TRACE(damage);
    const std::string anchor = dir.File("d" + std::to_string(damage) + ".otf2");
    ASSERT_TRUE(ExportOtf2(original, anchor).ok());
    const std::string base = dir.File("d" + std::to_string(damage));
    const std::string victim = damage == 0   ? base + "/1.evt"
                               : damage == 1 ? base + "/0.evt"
                                             : base + ".def";
    std::string bytes = testing::ReadFile(victim);
    ASSERT_GT(bytes.size(), 40u);
    if (damage == 0) {
      bytes.resize(bytes.size() / 2);
    } else {
      for (size_t i = 8; i < bytes.size(); i += 3)
        bytes[i] = static_cast<char>(0xfd);
    }
    std::ofstream(victim, std::ios::binary | std::ios::trunc) << bytes;
    model::Trace damaged;
    const Status s = Import(anchor, dir, &damaged, "damaged.plx");
    ExpectOneLine(s, victim);
  }
}

}  // namespace
}  // namespace plx::interop
