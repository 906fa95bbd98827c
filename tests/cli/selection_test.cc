// `--from --to --processes --rows` on `stats` and `matrix`: on every test
// trace, the statistics of a window are those of `parallax cut` of it
// (count, total, self, min, max per state, overall and per process), and
// those of the original's slices clipped to it (asked of `parallax query`);
// a window's message matrix is its cut's; a window over everything is the
// whole trace; the file engine gives the same JSON; bad options are one line.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "support/test_traces.h"
#include "traces_command_test.h"

namespace plx::cli {
namespace {

using nlohmann::json;

struct Row {
  int64_t count, total, self, min, max;
  bool operator==(const Row&) const = default;
};
void PrintTo(const Row& r, std::ostream* os) {
  *os << "{count " << r.count << ", total " << r.total << ", self " << r.self << ", min " << r.min
      << ", max " << r.max << "}";
}
using Rows = std::map<std::string, Row>;

Rows RowsOf(const json& states) {
  Rows rows;
  for (const json& s : states)
    rows[s["name"]] = {s["count"], s["total_ns"], s["self_ns"], s["min_ns"], s["max_ns"]};
  return rows;
}

class SelectionTest : public TracesCommandTest {
 protected:
  static int64_t Threads(const std::string& trace) {
    const json r = Json({"query", trace, "SELECT count(*) AS n FROM threads", "--json"});
    return r.is_array() && !r.empty() ? r[0]["n"].get<int64_t>() : 1;
  }
  // The original's slices overlapping [from, to], clipped to it, per state
  // (their self times are not asked).
  static Rows Clipped(const std::string& trace, int64_t from, int64_t to,
                      const std::string& where) {
    Rows rows;
    for (const json& r : ClippedSlices(trace, from, to, where))
      rows[r["state"]] = {r["n"], r["total"], 0, r["mn"], r["mx"]};
    return rows;
  }
  static Rows WithoutSelf(Rows rows) {
    for (auto& [name, row] : rows)
      row.self = 0;
    return rows;
  }
};

TEST_F(SelectionTest, AWindowHasTheStatisticsOfItsCut) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const int64_t span = Span(t.path);
    if (span <= 3) continue;
    for (auto [from, to] : {std::pair{span / 3, 2 * span / 3}, std::pair{int64_t{0}, span / 2},
                            std::pair{span / 2, span}}) {
      SCOPED_TRACE(std::to_string(from) + " to " + std::to_string(to));
      const std::vector<std::string> window = {"--from", std::to_string(from), "--to",
                                               std::to_string(to)};
      std::vector<std::string> args = {"stats", t.path, "--json"};
      args.insert(args.end(), window.begin(), window.end());
      const json mine = Json(args);
      const json cut = Json({"stats", Cut(t.path, window), "--json"});
      EXPECT_EQ(RowsOf(mine["states"]), RowsOf(cut["states"]));
      EXPECT_EQ(WithoutSelf(RowsOf(mine["states"])), Clipped(t.path, from, to, ""));
      EXPECT_EQ(mine["selection"],
                (json{{"from_ns", from}, {"to_ns", to}, {"threads", mine["threads"].size()}}));
      // Per process: the cut keeps every process, in the same order.
      ASSERT_EQ(mine["processes"].size(), cut["processes"].size());
      for (size_t p = 0; p < cut["processes"].size(); ++p)
        EXPECT_EQ(RowsOf(mine["processes"][p]["states"]), RowsOf(cut["processes"][p]["states"]))
            << "process " << p;
    }
  }
}

TEST_F(SelectionTest, ProcessesAndRowsKeepOnlyTheirSlices) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json processes = Json({"query", t.path, "SELECT id FROM processes", "--json"});
    const json threads = Json({"query", t.path, "SELECT id FROM threads", "--json"});
    const int64_t span = Span(t.path);
    if (processes.size() < 2 || span <= 3) continue;
    const std::string last = std::to_string(processes.back()["id"].get<int64_t>());
    const std::string from = std::to_string(span / 4), to = std::to_string(span - span / 4);
    const json mine =
        Json({"stats", t.path, "--json", "--processes", "0," + last, "--from", from, "--to", to});
    const std::string cut = Cut(t.path, {"--processes", "0," + last, "--from", from, "--to", to});
    EXPECT_EQ(RowsOf(mine["states"]), RowsOf(Json({"stats", cut, "--json"})["states"]));
    // Rows: the first and the last thread.
    const std::string row = std::to_string(threads.back()["id"].get<int64_t>());
    const json rows = Json({"stats", t.path, "--json", "--rows", "0," + row});
    EXPECT_EQ(WithoutSelf(RowsOf(rows["states"])),
              Clipped(t.path, 0, INT64_MAX / 2, " AND thread IN (0, " + row + ")"));
    EXPECT_EQ(rows["selection"]["threads"], row == "0" ? 1 : 2);
    for (size_t i = 0; i < rows["threads"].size(); ++i)
      if (i != 0 && std::to_string(i) != row) {
        EXPECT_TRUE(rows["threads"][i]["states"].empty()) << i;
        EXPECT_EQ(rows["threads"][i]["thread_time_ns"], 0) << i;
      }
  }
}

TEST_F(SelectionTest, AWindowOverEverythingIsTheWholeTrace) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json whole = Json({"stats", t.path, "--json"});
    json window = Json({"stats", t.path, "--json", "--from", "0", "--to", "1000000s"});
    ASSERT_TRUE(window.contains("selection"));
    window.erase("selection");
    EXPECT_EQ(window, whole);
  }
}

TEST_F(SelectionTest, TheFileEngineGivesTheSameWindow) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const int64_t span = Span(t.path);
    const std::vector<std::string> args = {"stats",
                                           t.path,
                                           "--json",
                                           "--from",
                                           std::to_string(span / 5),
                                           "--to",
                                           std::to_string(span - span / 3),
                                           "--processes",
                                           "0"};
    std::vector<std::string> small = {"--memory", "1k", "--threads", "2"};
    small.insert(small.end(), args.begin(), args.end());
    EXPECT_EQ(Json(small), Json(args));
  }
}

// The matrix without the selection field, which a cut does not have.
json Matrix(json m) {
  m.erase("selection");
  return m;
}

TEST_F(SelectionTest, AWindowsMatrixIsItsCuts) {
  int with_messages = 0;
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const int64_t span = Span(t.path);
    if (span <= 3) continue;
    for (auto [from, to] : {std::pair{span / 3, 2 * span / 3}, std::pair{int64_t{0}, span / 2},
                            std::pair{span / 4, span}}) {
      SCOPED_TRACE(std::to_string(from) + " to " + std::to_string(to));
      const std::vector<std::string> window = {"--from", std::to_string(from), "--to",
                                               std::to_string(to)};
      std::vector<std::string> args = {"matrix", t.path, "--json"};
      args.insert(args.end(), window.begin(), window.end());
      const json mine = Json(args);
      EXPECT_EQ(mine["selection"]["from_ns"], from);
      EXPECT_EQ(Matrix(mine), Json({"matrix", Cut(t.path, window), "--json"}));
      if (mine["messages"].get<int64_t>() > 0) ++with_messages;
    }
    // Everything: the whole trace's matrix.
    EXPECT_EQ(Matrix(Json({"matrix", t.path, "--json", "--from", "0"})),
              Json({"matrix", t.path, "--json"}));
  }
  EXPECT_GT(with_messages, 3);
}

TEST_F(SelectionTest, TheFileEngineGivesTheSameMatrix) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const int64_t span = Span(t.path);
    const std::vector<std::string> args = {"matrix",
                                           t.path,
                                           "--json",
                                           "--from",
                                           std::to_string(span / 6),
                                           "--to",
                                           std::to_string(span - span / 4),
                                           "--rows",
                                           "0-" + std::to_string(Threads(t.path) / 2)};
    std::vector<std::string> small = {"--memory", "1k", "--threads", "2"};
    small.insert(small.end(), args.begin(), args.end());
    EXPECT_EQ(Json(small), Json(args));
  }
}

TEST_F(SelectionTest, BadSelectionsAreOneLine) {
  const std::string trace = traces_->front().path;
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--from", "2ms", "--to", "1ms"}, "stats: --to 1ms is before --from 2ms"},
           {{"--processes", "0,x"}, "stats: --processes '0,x': want numbers and ranges"},
           {{"--rows", "100000"}, "stats: --rows: no thread 100000 (the trace has "},
           {{"--from", "soon"}, "'soon' is not a time"}}) {
    std::vector<std::string> full = {"stats", trace};
    full.insert(full.end(), args.begin(), args.end());
    const testing::RunResult r = Parallax(full);
    EXPECT_NE(r.exit_code, 0) << message;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  }
  const testing::RunResult rma = Parallax({"matrix", trace, "--rma", "--from", "1ms"});
  EXPECT_NE(rma.exit_code, 0);
  EXPECT_NE(rma.output.find("matrix: --rma covers the whole trace"), std::string::npos)
      << rma.output;
}

}  // namespace
}  // namespace plx::cli
