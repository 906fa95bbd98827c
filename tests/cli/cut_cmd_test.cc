// `parallax cut`: on every test trace, the per-state count, total, min and
// max of `stats` on the cut are those of the original's slices clipped to the
// window (asked of `parallax query` on the original); a cut of everything
// has the original's statistics; a cut keeps message pairs and collective
// operations whole and leaves out what crosses it; a parts directory cuts as its merged trace does;
// errors are one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "support/test_support.h"
#include "support/test_traces.h"
#include "traces_command_test.h"

namespace plx::cli {
namespace {

using nlohmann::json;

struct Row {
  int64_t count, total, min, max;
  bool operator==(const Row&) const = default;
};
void PrintTo(const Row& r, std::ostream* os) {
  *os << "{count " << r.count << ", total " << r.total << ", min " << r.min << ", max " << r.max
      << "}";
}

class CutCmdTest : public TracesCommandTest {
 protected:
  static std::map<std::string, Row> Stats(const std::string& trace) {
    std::map<std::string, Row> rows;
    const json stats = Json({"stats", trace, "--json"});
    for (const json& s : stats["states"])
      rows[s["name"]] = {s["count"], s["total_ns"], s["min_ns"], s["max_ns"]};
    return rows;
  }
  // The original's slices over [from, to] clipped to it, per state.
  static std::map<std::string, Row> Clipped(const std::string& trace, int64_t from, int64_t to,
                                            const std::string& where = "") {
    std::map<std::string, Row> rows;
    for (const json& r : ClippedSlices(trace, from, to, where))
      rows[r["state"]] = {r["n"], r["total"], r["mn"], r["mx"]};
    return rows;
  }
};

TEST_F(CutCmdTest, StatsOfACutAreThoseOfTheWindow) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const int64_t span = Span(t.path);
    if (span <= 3) continue;  // no slices to cut
    for (auto [from, to] : {std::pair{span / 3, 2 * span / 3}, std::pair{int64_t{0}, span / 2},
                            std::pair{span / 2, span}}) {
      SCOPED_TRACE(std::to_string(from) + " to " + std::to_string(to));
      const std::string cut =
          Cut(t.path, {"--from", std::to_string(from), "--to", std::to_string(to)});
      EXPECT_EQ(Stats(cut), Clipped(t.path, from, to));
    }
  }
}

TEST_F(CutCmdTest, StatsOfACutOfProcessesAreThoseOfTheProcesses) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json processes = Json({"query", t.path, "SELECT id FROM processes", "--json"});
    const int64_t span = Span(t.path);
    if (processes.size() < 2 || span <= 3) continue;
    const std::string last = std::to_string(processes.back()["id"].get<int64_t>());
    const std::string cut =
        Cut(t.path, {"--processes", "0," + last, "--from", std::to_string(span / 4), "--to",
                     std::to_string(span - span / 4)});
    EXPECT_EQ(Stats(cut),
              Clipped(t.path, span / 4, span - span / 4, " AND process IN (0, " + last + ")"));
  }
}

TEST_F(CutCmdTest, ACutOfEverythingHasTheOriginalsStatistics) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json original = Json({"stats", t.path, "--json"});
    const json cut = Json({"stats", Cut(t.path, {}), "--json"});
    EXPECT_EQ(cut["states"], original["states"]);
    EXPECT_EQ(cut["thread_time_ns"], original["thread_time_ns"]);
  }
}

TEST_F(CutCmdTest, StatesKeepsOnlyThoseStates) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json names =
        Json({"query", t.path,
              "SELECT state FROM slices WHERE state NOT LIKE '<undefined%' GROUP BY state "
              "ORDER BY state LIMIT 2",
              "--json"});
    if (names.size() < 2) continue;
    const std::string a = names[0]["state"], b = names[1]["state"];
    const std::map<std::string, Row> stats = Stats(Cut(t.path, {"--states", a + "," + b}));
    std::map<std::string, Row> expected = Clipped(t.path, 0, INT64_MAX / 2);
    std::erase_if(expected, [&](const auto& e) { return e.first != a && e.first != b; });
    // Their counts are the original's; self times may grow (nested states are gone).
    ASSERT_EQ(stats.size(), expected.size());
    for (const auto& [name, row] : expected)
      EXPECT_EQ(stats.at(name).count, row.count) << name;
  }
}

TEST_F(CutCmdTest, MessagesCrossingTheCutAreLeftOutAndCounted) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json all = Json({"query", t.path,
                           "SELECT count(*) AS n FROM messages WHERE send_thread IS NOT NULL "
                           "AND recv_thread IS NOT NULL",
                           "--json"});
    const int64_t span = Span(t.path);
    if (all.is_discarded() || all[0]["n"] == 0 || span <= 3) continue;
    const std::string a = std::to_string(span / 3), b = std::to_string(2 * span / 3);
    const json inside =
        Json({"query", t.path,
              "SELECT count(*) AS n FROM messages WHERE send_time BETWEEN " + a + " AND " + b +
                  " AND recv_time BETWEEN " + a + " AND " + b + " AND send_thread IS NOT NULL",
              "--json"});
    const json unmatched_before = Json(
        {"query", t.path,
         "SELECT count(*) AS n FROM messages WHERE (send_thread IS NULL AND recv_time BETWEEN " +
             a + " AND " + b + ") OR (recv_thread IS NULL AND send_time BETWEEN " + a + " AND " +
             b + ")",
         "--json"});
    const std::string cut = Cut(t.path, {"--from", a, "--to", b});
    const json pairs = Json({"query", cut,
                             "SELECT count(latency) AS pairs, count(*) - count(latency) AS "
                             "unmatched FROM messages",
                             "--json"});
    EXPECT_EQ(pairs[0]["pairs"], inside[0]["n"]);
    EXPECT_EQ(pairs[0]["unmatched"], unmatched_before[0]["n"]);
    const json info = Json({"info", cut, "--json"});
    ASSERT_FALSE(info["cut"].empty());
    EXPECT_TRUE(info["cut"][0].contains("messages_crossing")) << info["cut"];
  }
}

TEST_F(CutCmdTest, CollectivesCutInTwoAreLeftOut) {
  // Where every process took part in every collective, a cut starting
  // between two processes' records of one keeps the same number on each.
  const std::string per_process =
      "SELECT count(DISTINCT n) AS counts, max(n) AS n FROM (SELECT process, count(*) AS n "
      "FROM collectives GROUP BY process)";
  int cut_in_two = 0;
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json counts = Json({"query", t.path, per_process, "--json"});
    if (counts.is_discarded() || counts[0]["counts"] != 1 || counts[0]["n"] < 2) continue;
    const std::string k = std::to_string(counts[0]["n"].get<int64_t>() / 2);
    const json times = Json({"query", t.path,
                             "SELECT min(time) AS a, max(time) AS b FROM (SELECT process, time, "
                             "row_number() OVER (PARTITION BY process ORDER BY time) - 1 AS k "
                             "FROM collectives) WHERE k = " +
                                 k,
                             "--json"});
    const int64_t a = times[0]["a"], b = times[0]["b"];
    if (a == b) continue;
    ++cut_in_two;
    const std::string cut = Cut(t.path, {"--from", std::to_string(b)});
    const json after = Json({"query", cut, per_process, "--json"});
    EXPECT_LE(after[0]["counts"].get<int64_t>(), 1);
    EXPECT_EQ(after[0]["n"].is_null() ? 0 : after[0]["n"].get<int64_t>(),
              counts[0]["n"].get<int64_t>() - std::stoll(k) - 1);
  }
  EXPECT_GT(cut_in_two, 0);
}

TEST_F(CutCmdTest, APartsDirectoryCutsAsItsMergedTrace) {
  for (const testing::TestTrace& t : *traces_) {
    if (t.name.find("mpi") == std::string::npos) continue;
    SCOPED_TRACE(t.name);
    const json processes = Json({"query", t.path, "SELECT id, rank FROM processes", "--json"});
    const std::string parts = dir_->File(t.name + ".plx.parts");
    std::filesystem::create_directories(parts);
    for (const json& p : processes) {
      const std::string id = std::to_string(p["id"].get<int64_t>());
      const testing::RunResult r = Parallax(
          {"cut", t.path, parts + "/rank-" + std::to_string(p["rank"].get<int64_t>()) + ".plx",
           "--processes", id});
      ASSERT_EQ(r.exit_code, 0) << r.output;
    }
    const int64_t span = Span(t.path);
    const std::vector<std::string> window = {"--from", std::to_string(span / 3), "--to",
                                             std::to_string(2 * span / 3)};
    EXPECT_EQ(Stats(Cut(parts, window)), Stats(Cut(t.path, window)));
    return;
  }
  GTEST_SKIP() << "no MPI test trace";
}

TEST_F(CutCmdTest, ErrorsAreOneLine) {
  const std::string trace = traces_->front().path;
  const std::string out = dir_->File("error.plx");
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string text;
  };
  const Case cases[] = {
      {{"cut", dir_->File("missing.plx"), out}, 1, "missing.plx"},
      {{"cut", trace, out, "--from", "2ms", "--to", "1ms"}, 1, "before --from"},
      {{"cut", trace, out, "--states", "no such state"}, 1, "no state is called 'no such state'"},
      {{"cut", trace, out, "--processes", "1-x"}, 1, "--processes '1-x'"},
      {{"cut", trace, out, "--processes", "4000000"}, 1, "no process 4000000"},
      {{"cut", trace, out, "--from", "soon"}, 2, "'soon' is not a time"},
      {{"cut", trace, dir_->File("no/such/dir/out.plx")}, 1, "no/such/dir"},
      {{"cut", trace, trace}, 1, "is the trace being cut"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args.back());
    const testing::RunResult r = Parallax(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.output;
    EXPECT_NE(r.output.find(c.text), std::string::npos) << r.output;
    EXPECT_LE(std::count(r.output.begin(), r.output.end(), '\n'), 2) << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace plx::cli
