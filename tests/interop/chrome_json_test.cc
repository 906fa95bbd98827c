// Chrome Trace Event JSON: the round trip of the interop test trace, catapult's
// test traces, both file forms, bad input with located one-line errors, and a
// large file imported in far less memory than its size.
#include "interop/chrome_json/chrome_json.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "interop_test_trace.h"
#include "support/test_support.h"
#include "time/message_pairs.h"
#include "trace_compare.h"

namespace plx::interop {
namespace {

using testing::TempDir;

void WriteText(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), f), text.size());
  std::fclose(f);
}

// Imports `json` into `plx` and returns the status; *stats gets the notes.
Status Import(const std::string& json, const std::string& plx, ImportStats* stats = nullptr) {
  auto builder = TraceBuilder::Create(plx);
  if (!builder.ok()) return builder.status();
  Status s = ImportChromeJson(json, **builder);
  // Every counter an import fills is declared (spec/import_counters.toml).
  for (const auto& [name, count] : (*builder)->stats())
    EXPECT_NE(FindImportCounter(name), nullptr) << name << " is not in the table";
  if (stats != nullptr) *stats = (*builder)->stats();
  const Status finished = (*builder)->Finish();
  return s.ok() ? finished : s;
}

// Imports JSON text; the trace is loaded into *trace.
void ImportText(const TempDir& dir, const std::string& text, model::Trace* trace,
                ImportStats* stats = nullptr) {
  WriteText(dir.File("in.json"), text);
  const Status s = Import(dir.File("in.json"), dir.File("out.plx"), stats);
  ASSERT_TRUE(s.ok()) << s.message();
  testing::LoadPlx(dir.File("out.plx"), trace);
}

// "name [begin, end) depth d" of every slice of `thread`, in row order.
std::vector<std::string> Slices(const model::Trace& t, uint32_t thread) {
  std::vector<std::string> out;
  for (size_t r = 0; r < t.slices.size(); ++r) {
    if (t.slices.thread[r] != thread) continue;
    out.push_back(t.states[t.slices.state[r]].name + " [" + std::to_string(t.slices.begin[r]) +
                  ", " + std::to_string(t.slices.end[r]) + ") " +
                  std::to_string(t.slices.depth[r]));
  }
  return out;
}

std::string ImportError(const TempDir& dir, const std::string& text) {
  WriteText(dir.File("bad.json"), text);
  const Status s = Import(dir.File("bad.json"), dir.File("bad.plx"));
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  return s.message();
}

TEST(ChromeJsonTest, RoundTripKeepsTheTrace) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  uint64_t last_done = 0;
  const Status exported = ExportChromeJson(original, dir.File("t.json"),
                                           [&](uint64_t done, uint64_t) { last_done = done; });
  ASSERT_TRUE(exported.ok()) << exported.message();
  EXPECT_GT(last_done, 0u);

  // Valid JSON Perfetto takes: integer pids and tids, ns kept in 3 decimals.
  const std::string text = testing::ReadFile(dir.File("t.json"));
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  ASSERT_TRUE(doc["traceEvents"].is_array());
  EXPECT_EQ(doc["displayTimeUnit"], "ns");
  for (const auto& e : doc["traceEvents"]) {
    ASSERT_TRUE(e["pid"].is_number_integer()) << e.dump();
    ASSERT_TRUE(e["tid"].is_number_integer()) << e.dump();
  }
  EXPECT_NE(text.find("\"ts\":1.650,"), std::string::npos);  // the first send

  ImportStats stats;
  ASSERT_TRUE(Import(dir.File("t.json"), dir.File("back.plx"), &stats).ok());
  model::Trace back;
  testing::LoadPlx(dir.File("back.plx"), &back);
  testing::CompareOptions all;
  all.instants = all.collectives = all.rma = all.recv_posts = true;
  EXPECT_EQ(testing::CompareTraces(original, back, all), std::vector<std::string>{});
  EXPECT_EQ(back.begin_ns, original.begin_ns);  // absolute times come back
  EXPECT_EQ(back.processes[2].host, "node1");
  EXPECT_EQ(back.stats.leave_mismatch, 0u);
  EXPECT_EQ(back.stats.undefined_refs, 0u);
  EXPECT_EQ(time::MatchMessages(back).pairs.size(), 4u);
  for (const auto& [name, count] : stats)
    ADD_FAILURE() << "unexpected import note " << name << " = " << count;

  // The comparison would see a change made in the JSON.
  std::string changed = text;
  const size_t at = changed.find("\"ts\":1.650,");
  changed.replace(at, 11, "\"ts\":1.651,");
  model::Trace other;
  ImportText(dir, changed, &other);
  EXPECT_NE(testing::CompareTraces(original, other, all), std::vector<std::string>{});
}

TEST(ChromeJsonTest, BothFormsAndOtherKeysAnywhere) {
  TempDir dir;
  const std::string events =
      R"([{"ph":"X","pid":1,"tid":2,"ts":10,"dur":5,"name":"a"},
          {"ph":"B","pid":1,"tid":2,"ts":11,"name":"b"},
          {"ph":"E","pid":1,"tid":2,"ts":12}])";
  model::Trace array, object;
  ImportText(dir, events, &array);
  ImportText(dir,
             R"({"displayTimeUnit":"ms","systemTraceEvents":"a ] \" { string",
                 "metadata":{"x":[1,{"y":"]"}]},"traceEvents":)" +
                 events + R"(,"otherData":{"version":"1"}})",
             &object);
  const std::vector<std::string> expected = {"a [10000, 15000) 0", "b [11000, 12000) 1"};
  EXPECT_EQ(Slices(array, 0), expected);
  EXPECT_EQ(Slices(object, 0), expected);
  // The array form may end without its ']' (Chrome writes such files).
  model::Trace open;
  ImportText(dir, events.substr(0, events.size() - 1) + ",", &open);
  EXPECT_EQ(Slices(open, 0), expected);
}

TEST(ChromeJsonTest, SortsNestsAndRepairs) {
  TempDir dir;
  model::Trace t;
  ImportStats stats;
  // Unsorted; at equal times the longer X is the parent; an E closes the
  // innermost B whatever its name; a child X overhanging its parent is cut;
  // string pids and tids; a stray E is counted.
  ImportText(dir,
             R"([{"ph":"X","pid":"browser","tid":"io","ts":0,"dur":2,"name":"child"},
                 {"ph":"X","pid":"browser","tid":"io","ts":0,"dur":10,"name":"parent"},
                 {"ph":"X","pid":"browser","tid":"io","ts":8,"dur":5,"name":"overhang"},
                 {"ph":"E","pid":"browser","tid":"io","ts":30},
                 {"ph":"B","pid":"browser","tid":"io","ts":20,"name":"outer"},
                 {"ph":"B","pid":"browser","tid":"io","ts":21,"name":"inner"},
                 {"ph":"E","pid":"browser","tid":"io","ts":22,"name":"other name"},
                 {"ph":"E","pid":"browser","tid":"io","ts":40},
                 {"ph":"i","pid":"browser","tid":"io","ts":0.0015,"name":"tick","args":{"n":3}},
                 {"ph":"C","pid":"browser","tid":"io","ts":5,"name":"mem","args":{"a":1,"b":2.5}}])",
             &t, &stats);
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes[0].name, "browser");
  ASSERT_EQ(t.threads.size(), 1u);
  EXPECT_EQ(t.threads[0].name, "io");
  EXPECT_EQ(Slices(t, 0),
            (std::vector<std::string>{"parent [0, 10000) 0", "child [0, 2000) 1",
                                      "overhang [8000, 10000) 1", "outer [20000, 30000) 0",
                                      "inner [21000, 22000) 1"}));
  EXPECT_EQ(stats["chrome.improper_nesting"], 1u);
  EXPECT_EQ(stats["chrome.unmatched_end"], 1u);
  ASSERT_EQ(t.instants.size(), 1u);
  EXPECT_EQ(t.instants.time[0], 2);  // 1.5 ns rounds half up
  EXPECT_EQ(t.instants.int_value[0], 3);
  std::map<std::string, double> counters;
  for (size_t r = 0; r < t.counter_samples.size(); ++r)
    counters[t.counters[t.counter_samples.counter[r]].name] = t.counter_samples.value[r];
  EXPECT_EQ(counters, (std::map<std::string, double>{{"mem.a", 1}, {"mem.b", 2.5}}));
}

TEST(ChromeJsonTest, ForeignFlowsPairExactly) {
  TempDir dir;
  model::Trace t;
  ImportText(dir,
             R"([{"ph":"f","pid":2,"tid":2,"ts":9,"id":"x","cat":"c","bp":"e"},
                 {"ph":"s","pid":1,"tid":1,"ts":1,"id":"x","cat":"c"},
                 {"ph":"t","pid":1,"tid":3,"ts":5,"id":"x","cat":"c"},
                 {"ph":"s","pid":1,"tid":1,"ts":2,"id":"y","cat":"c"},
                 {"ph":"f","pid":1,"tid":3,"ts":3,"id":"y","cat":"c"}])",
             &t);
  const time::MessagePairs pairs = time::MatchMessages(t);
  EXPECT_EQ(pairs.unmatched_sends.size() + pairs.unmatched_recvs.size(), 0u);
  std::vector<std::string> arrows;
  for (const time::MessagePair& p : pairs.pairs) {
    arrows.push_back(std::to_string(t.messages.time[p.send]) + "@" +
                     t.threads[t.messages.thread[p.send]].name +
                     std::to_string(t.threads[t.messages.thread[p.send]].tid) + "->" +
                     std::to_string(t.messages.time[p.recv]) + "@" +
                     std::to_string(t.threads[t.messages.thread[p.recv]].tid));
  }
  std::sort(arrows.begin(), arrows.end());
  EXPECT_EQ(arrows,
            (std::vector<std::string>{"1000@1->5000@3", "2000@1->3000@3", "5000@3->9000@2"}));
}

TEST(ChromeJsonTest, BadInputIsOneLocatedLine) {
  TempDir dir;
  const std::string file = dir.File("bad.json");
  // A wrong type names the field and the offset of its value.
  const std::string wrong = R"([{"ph":"B","pid":1,"tid":1,"ts":"soon","name":"a"}])";
  EXPECT_EQ(ImportError(dir, wrong),
            file + ":offset " + std::to_string(wrong.find("\"soon\"")) + ": ts: not a number");
  const std::string object_pid = R"([{"ph":"X","pid":{},"ts":1}])";
  EXPECT_EQ(
      ImportError(dir, object_pid),
      file + ":offset " + std::to_string(object_pid.find("{}")) + ": pid: not a number or string");
  // Cut short inside an event.
  const std::string truncated = R"({"traceEvents":[{"ph":"B","pid":1,"tid":1,"ts":1,"na)";
  EXPECT_NE(ImportError(dir, truncated).find(":offset " + std::to_string(truncated.size())),
            std::string::npos);
  EXPECT_NE(ImportError(dir, R"({"traceEvents":[{"ph":"B","pid":1,"ts":1}])").find("offset"),
            std::string::npos);
  // Garbage, bad JSON inside an event, a wrong top level.
  EXPECT_EQ(ImportError(dir, "hello"), file + ":offset 0: not a JSON trace (expected '[' or '{')");
  EXPECT_EQ(ImportError(dir, R"([{"ph":"B","ts":1,}])"),
            file + ":offset 18: expected a member name");
  EXPECT_EQ(ImportError(dir, R"([{"ph":"B"}}])"), file + ":offset 11: expected ',' or ']'");
  EXPECT_EQ(ImportError(dir, R"({"traceEvents":{}})"),
            file + ":offset 15: traceEvents: not an array");
  EXPECT_NE(ImportError(dir, "").find("empty input"), std::string::npos);
  // A missing file.
  EXPECT_FALSE(Import(dir.File("none.json"), dir.File("none.plx")).ok());
}

// ---- catapult's test traces -------------------------------------------------

class ChromeTestData : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::SourcePath("../shared/testdata/chrome-json");
    if (!std::filesystem::is_directory(dir_))
      GTEST_SKIP() << "no Chrome JSON test data at " << dir_ << " (see /work/shared/testdata)";
  }
  void Load(const std::string& name, model::Trace* t, ImportStats* stats = nullptr) {
    const Status s = Import(dir_ + "/" + name, tmp_.File(name + ".plx"), stats);
    ASSERT_TRUE(s.ok()) << s.message();
    testing::LoadPlx(tmp_.File(name + ".plx"), t);
  }
  // Occurrences of `needle` in the file.
  size_t Count(const std::string& name, const std::string& needle) {
    const std::string text = testing::ReadFile(dir_ + "/" + name);
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
      ++n;
    return n;
  }
  std::string dir_;
  TempDir tmp_;
};

TEST_F(ChromeTestData, EveryFileImports) {
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    const std::string name = entry.path().filename();
    if (name.rfind("LICENSE", 0) == 0) continue;
    SCOPED_TRACE(name);
    model::Trace t;
    Load(name, &t);
    EXPECT_GT(t.slices.size() + t.instants.size() + t.counter_samples.size(), 0u);
    ++files;
  }
  EXPECT_GE(files, 10u);
}

TEST_F(ChromeTestData, CompleteEventsAndSimpleTrace) {
  model::Trace x;
  ImportStats stats;
  Load("x_event_trace.json", &x, &stats);
  // X and B events on their threads, legacy async S events on async tracks.
  EXPECT_EQ(x.slices.size(), Count("x_event_trace.json", "\"ph\":\"X\"") +
                                 Count("x_event_trace.json", "\"ph\":\"B\"") +
                                 Count("x_event_trace.json", "\"ph\":\"S\""));
  EXPECT_EQ(stats["chrome.skipped.object"], Count("x_event_trace.json", "\"ph\":\"D\"") +
                                                Count("x_event_trace.json", "\"ph\":\"N\""));
  EXPECT_EQ(x.stats.leave_mismatch, 0u);

  model::Trace simple;
  Load("simple_trace.json", &simple);
  // 3 B/E pairs (one B without E) and 3 X events on 22630; thread 22631 has B/E and X too.
  EXPECT_EQ(simple.slices.size(), Count("simple_trace.json", "\"ph\": \"B\"") +
                                      Count("simple_trace.json", "\"ph\": \"X\""));
  EXPECT_EQ(simple.stats.leave_mismatch, 0u);

  model::Trace gz;
  Load("simple_trace_gz.gz", &gz);
  EXPECT_EQ(gz.processes.size(), 1u);
  EXPECT_EQ(gz.slices.size(), 12u);  // 8 B and 4 X events inside the gzip stream
}

TEST_F(ChromeTestData, NanosecondsAreExact) {
  model::Trace t;
  Load("nanoseconds.json", &t);
  std::map<std::string, std::pair<int64_t, int64_t>> slices;
  for (size_t r = 0; r < t.slices.size(); ++r)
    slices[t.states[t.slices.state[r]].name] = {t.slices.begin[r], t.slices.end[r]};
  EXPECT_EQ(slices["us2"], std::make_pair(int64_t{1100}, int64_t{1300}));
  EXPECT_EQ(slices["ns1"], std::make_pair(int64_t{3000}, int64_t{3011}));
  EXPECT_EQ(slices["ns4"], std::make_pair(int64_t{3017}, int64_t{3021}));
}

TEST_F(ChromeTestData, FlowsCountersUnclosedSlices) {
  model::Trace flow;
  Load("flow.json", &flow);
  const time::MessagePairs pairs = time::MatchMessages(flow);
  EXPECT_EQ(pairs.unmatched_sends.size() + pairs.unmatched_recvs.size(), 0u);
  EXPECT_GT(pairs.pairs.size(), 100u);
  EXPECT_LE(pairs.pairs.size(),
            Count("flow.json", "\"ph\":\"f\"") + Count("flow.json", "\"ph\":\"t\""));
  for (const time::MessagePair& p : pairs.pairs)
    EXPECT_LE(flow.messages.time[p.send], flow.messages.time[p.recv]);

  model::Trace counters;
  Load("instance_counters.json", &counters);
  std::map<std::string, size_t> samples;
  for (size_t r = 0; r < counters.counter_samples.size(); ++r)
    ++samples[counters.counters[counters.counter_samples.counter[r]].name];
  EXPECT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples["counter[123]"], 6u);
  size_t total = 0;
  for (const auto& [name, n] : samples)
    total += n;
  EXPECT_EQ(total, Count("instance_counters.json", "\"ph\": \"C\""));

  model::Trace unclosed;
  ImportStats stats;
  Load("main_thread_has_unclosed_slices.json", &unclosed, &stats);
  EXPECT_GT(unclosed.stats.unclosed_slices, 0u);
  EXPECT_EQ(stats["chrome.unclosed_slices"], unclosed.stats.unclosed_slices);
}

// ---- streaming ------------------------------------------------------------

// ASan's shadow memory and quarantine make RSS say nothing about the
// importer: there the file is smaller and only the import itself is checked.
using testing::kSanitized;
constexpr size_t kBigFileBytes = kSanitized ? 40 << 20 : 200 << 20;

TEST(ChromeJsonStreamingTest, BigFileInLittleMemory) {
  TempDir dir;
  const std::string json = dir.File("big.json");
  uint64_t events = 0;
  {
    FILE* f = std::fopen(json.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::string buf = "{\"traceEvents\":[\n";
    char line[512];
    size_t written = 0;
    for (uint64_t i = 0; written + buf.size() < kBigFileBytes; ++i) {
      const int n = std::snprintf(
          line, sizeof line,
          "{\"cat\":\"renderer,benchmark\",\"pid\":%d,\"tid\":%d,\"ts\":%llu.%03u,\"ph\":\"X\","
          "\"dur\":%u.5,\"name\":\"RenderWidget::DoDeferredUpdate %u\",\"args\":{\"src_file\":"
          "\"../../content/renderer/render_widget.cc\",\"src_func\":\"DoDeferredUpdate\"}},\n",
          static_cast<int>(i % 4), static_cast<int>(i % 16),
          static_cast<unsigned long long>(i / 16 * 7), static_cast<unsigned>(i % 1000),
          static_cast<unsigned>(i % 5), static_cast<unsigned>(i % 50));
      buf.append(line, static_cast<size_t>(n));
      ++events;
      if (buf.size() > (1 << 20)) {
        ASSERT_EQ(std::fwrite(buf.data(), 1, buf.size(), f), buf.size());
        written += buf.size();
        buf.clear();
      }
    }
    buf += "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"p\"}}]}\n";
    ASSERT_EQ(std::fwrite(buf.data(), 1, buf.size(), f), buf.size());
    std::fclose(f);
  }
  const auto size = static_cast<long>(std::filesystem::file_size(json));
  // The import runs in a child so that its peak RSS is its own.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    long result[2] = {-1, 0};
    if (Import(json, dir.File("big.plx")).ok()) {
      rusage usage{};
      ::getrusage(RUSAGE_SELF, &usage);
      result[0] = usage.ru_maxrss;  // KiB
    }
    if (::write(fds[1], result, sizeof result) != sizeof result) ::_exit(2);
    ::_exit(0);
  }
  ::close(fds[1]);
  long result[2] = {0, 0};
  ASSERT_EQ(::read(fds[0], result, sizeof result), static_cast<ssize_t>(sizeof result));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_GT(result[0], 0) << "import failed";
  const long peak = result[0] * 1024;
  std::printf("%ld MB, %llu events: peak RSS %ld MB\n", size >> 20,
              static_cast<unsigned long long>(events), peak >> 20);
  model::Trace t;
  testing::LoadPlx(dir.File("big.plx"), &t);
  EXPECT_EQ(t.slices.size(), events);
  if (kSanitized) GTEST_SKIP() << "peak RSS not checked under AddressSanitizer";
  EXPECT_LT(peak, size / 2) << "peak RSS " << (peak >> 20) << " MB for " << (size >> 20)
                            << " MB of JSON";
}

}  // namespace
}  // namespace plx::interop
