// `parallax query`: on every test trace the SQL answers agree with the
// commands that compute the same things — per state count and total with
// `stats --json`, messages with `matrix --json`, wait states with `waits
// --json`, the critical path with `critical-path --json`, anomalies with
// `anomalies --json` — in the three output formats; the shell reads
// statements and dot commands from a pipe; errors are one line, exit 1.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "support/test_traces.h"
#include "traces_command_test.h"

namespace plx::cli {
namespace {

using nlohmann::json;

class QueryCmdTest : public TracesCommandTest {
 protected:
  static json Query(const std::string& trace, const std::string& sql) {
    return Json({"query", trace, sql, "--json"});
  }
};

TEST_F(QueryCmdTest, PerStateCountAndTotalAreThoseOfStats) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json stats = Json({"stats", t.path, "--json"});
    std::map<std::string, std::pair<int64_t, int64_t>> expected;
    for (const json& s : stats["states"])
      expected[s["name"]] = {s["count"], s["total_ns"]};
    std::map<std::string, std::pair<int64_t, int64_t>> got;
    for (const json& row : Query(t.path,
                                 "SELECT state, count(*) AS n, sum(dur) AS total FROM slices "
                                 "GROUP BY state"))
      got[row["state"]] = {row["n"], row["total"]};
    EXPECT_EQ(got, expected);
  }
}

TEST_F(QueryCmdTest, AnalysisTablesAgreeWithTheirCommands) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const json matrix = Json({"matrix", t.path, "--json"});
    if (matrix.is_discarded()) continue;  // a trace the commands cannot read
    const json m = Query(t.path,
                         "SELECT count(latency) AS pairs, count(*) - count(recv_thread) AS sends, "
                         "count(*) - count(send_thread) AS recvs FROM messages")[0];
    int64_t unmatched_sends = 0, unmatched_recvs = 0;
    for (const json& n : matrix["unmatched_sends"])
      unmatched_sends += n.get<int64_t>();
    for (const json& n : matrix["unmatched_recvs"])
      unmatched_recvs += n.get<int64_t>();
    EXPECT_EQ(m["pairs"], matrix["messages"]);
    EXPECT_EQ(m["sends"], unmatched_sends);
    EXPECT_EQ(m["recvs"], unmatched_recvs);

    const json waits = Json({"waits", t.path, "--json"});
    const json w = Query(t.path,
                         "SELECT count(*) AS n, total(dur) AS ns, "
                         "total(CASE kind WHEN 'late-sender' THEN dur END) AS late_sender, "
                         "total(CASE kind WHEN 'late-receiver' THEN dur END) AS late_receiver "
                         "FROM wait_states")[0];
    EXPECT_EQ(w["n"], waits["count"]);
    EXPECT_EQ(w["ns"].get<double>(), waits["wait_ns"].get<double>());
    EXPECT_EQ(w["late_sender"].get<double>(), waits["late_sender_ns"].get<double>());
    EXPECT_EQ(w["late_receiver"].get<double>(), waits["late_receiver_ns"].get<double>());

    const json path = Json({"critical-path", t.path, "--json"});
    const json p = Query(t.path, "SELECT count(*) AS n, total(dur) AS ns FROM critical_path")[0];
    EXPECT_EQ(p["n"], path["segment_count"]);
    EXPECT_EQ(p["ns"].get<double>(), path["length_ns"].get<double>());

    const json anomalies = Json({"anomalies", t.path, "--json"});
    const json a = Query(t.path, "SELECT count(*) AS n FROM anomalies")[0];
    EXPECT_EQ(a["n"], anomalies["total"]);
  }
}

// The examples of docs/query.md: heading -> SQL.
std::map<std::string, std::string> DocExamples() {
  std::ifstream in(testing::SourcePath("docs/query.md"));
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  std::map<std::string, std::string> out;
  const std::regex example(R"(### ([^\n]*)\n[^`]*```sql\n([^`]*)```)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), example);
       it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = (*it)[2];
  return out;
}

TEST_F(QueryCmdTest, TheDocumentedExamplesAnswerAsTheCommandsDo) {
  const std::map<std::string, std::string> examples = DocExamples();
  ASSERT_EQ(examples.size(), 7u);
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    std::map<std::string, json> got;
    for (const auto& [title, sql] : examples) {
      got[title] = Query(t.path, sql);
      EXPECT_TRUE(got[title].is_array()) << title;
    }
    const json stats = Json({"stats", t.path, "--json"});
    if (stats.is_discarded()) continue;
    // Per state: stats' count and total.
    std::map<std::string, std::pair<int64_t, int64_t>> expected, states;
    for (const json& s : stats["states"])
      expected[s["name"]] = {s["count"], s["total_ns"]};
    for (const json& row : got["Time per state, as `parallax stats` counts it"])
      states[row["state"]] = {row["n"], row["total"]};
    EXPECT_EQ(states, expected);
    // Time in MPI per rank: the self time of the MPI states of each rank's process.
    std::map<int64_t, int64_t> mpi, by_rank;
    for (const json& p : stats["processes"]) {
      if (!p.contains("rank") || p["rank"].is_null()) continue;
      for (const json& s : p["states"])
        if (s["name"].get<std::string>().rfind("MPI_", 0) == 0)
          mpi[p["rank"].get<int64_t>()] += s["self_ns"].get<int64_t>();
    }
    for (const json& row : got["Time in MPI per rank"])
      if (!row["rank"].is_null()) by_rank[row["rank"]] = row["mpi_ns"];
    EXPECT_EQ(by_rank, mpi);
    // Messages per communicator add up to the matrix's pairs and unmatched records.
    const json matrix = Json({"matrix", t.path, "--json"});
    int64_t records = matrix["messages"].get<int64_t>(), messages = 0;
    for (const char* side : {"unmatched_sends", "unmatched_recvs"})
      for (const json& n : matrix[side])
        records += n.get<int64_t>();
    for (const json& row : got["Messages per communicator"])
      messages += row["messages"].get<int64_t>();
    EXPECT_EQ(messages, records);
    // The slowest receives: longest first, each a receive that got a message.
    const json& slowest = got["The 10 slowest receives and their senders"];
    EXPECT_LE(slowest.size(), 10u);
    for (size_t i = 1; i < slowest.size(); ++i)
      EXPECT_GE(slowest[i - 1]["dur"], slowest[i]["dur"]);
    const json longest = Query(t.path,
                               "SELECT max(dur) AS dur FROM slices WHERE state = 'MPI_Recv' AND "
                               "id IN (SELECT recv_slice FROM messages)")[0];
    if (!slowest.empty()) {
      EXPECT_EQ(slowest[0]["dur"], longest["dur"]);
    }
    for (const json& row : got["The states that grew most between two windows"])
      EXPECT_EQ(row["growth"].get<int64_t>(),
                row["second"].get<int64_t>() - row["first"].get<int64_t>());
  }
}

TEST_F(QueryCmdTest, TableCsvAndJson) {
  const std::string& trace = traces_->front().path;
  const std::string sql = "SELECT 'a,\"b\"' AS text, 1 AS one, 2.5 AS real, NULL AS none";
  testing::RunResult r = Parallax({"query", trace, sql});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "text   one  real  none\n"
            "a,\"b\"  1    2.5\n"
            "(1 row)\n");
  r = Parallax({"query", trace, sql, "--csv"});
  EXPECT_EQ(r.output, "text,one,real,none\r\n\"a,\"\"b\"\"\",1,2.5,\r\n");
  r = Parallax({"query", trace, sql, "--json"});
  EXPECT_EQ(json::parse(r.output),
            json::parse(R"([{"text": "a,\"b\"", "one": 1, "real": 2.5, "none": null}])"));
  r = Parallax({"query", trace, "SELECT 1 WHERE 0", "--json"});
  EXPECT_EQ(r.output, "[]\n");
  r = Parallax({"query", trace, "SELECT id FROM slices", "--max-rows", "1", "--csv"});
  EXPECT_EQ(r.output, "id\r\n0\r\n");
}

TEST_F(QueryCmdTest, TheShellReadsStatementsAndDotCommandsFromAPipe) {
  const std::string& trace = traces_->front().path;
  const std::string script =
      ".tables\\n.schema states\\n.mode csv\\nSELECT count(*)\\n  AS n FROM threads;\\n"
      ".mode json\\nSELECT 7 AS seven;\\n.timer on\\nSELECT 8 AS eight";
  const testing::RunResult r = testing::RunProgram(
      {"/bin/sh", "-c",
       "printf '" + script + "' | " + testing::BuildPath("src/cli/parallax") + " query " + trace});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("slices  instants  counter_samples"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("CREATE TABLE states(\"id\" INTEGER, \"name\" TEXT"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("n\r\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[\n  {\"seven\":7}\n]\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[\n  {\"eight\":8}\n]\ntime: "), std::string::npos) << r.output;
  // From a pipe, the first error ends the script.
  const testing::RunResult bad =
      testing::RunProgram({"/bin/sh", "-c",
                           "printf 'SELECT nothing;\\nSELECT 9 AS nine;\\n' | " +
                               testing::BuildPath("src/cli/parallax") + " query " + trace});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.output.find("nine"), std::string::npos) << bad.output;
}

TEST_F(QueryCmdTest, ErrorsAreOneLine) {
  const std::string& trace = traces_->front().path;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"query", trace, "SELEC 1"}, "query: near \"SELEC\": syntax error"},
      {{"query", trace, "SELECT missing FROM slices"}, "query: no such column: missing"},
      {{"query", trace, "SELECT * FROM nowhere"}, "query: no such table: nowhere"},
      {{"query", trace, "CREATE TABLE t(a)"}, "query: only statements that read are allowed"},
      {{"query", trace, "DELETE FROM slices"}, "query: table slices may not be modified"},
      {{"query", "/nonexistent.plx", "SELECT 1"}, "/nonexistent.plx"},
      {{"query"}, "query: a trace is needed"},
  };
  for (const auto& [args, message] : cases) {
    const testing::RunResult r = Parallax(args);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  }
}

}  // namespace
}  // namespace plx::cli
