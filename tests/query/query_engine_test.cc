// The query engine against the model: on every test trace (support/
// test_traces.h: slices across chunk boundaries, never closed, damaged and
// truncated files, MPI runs), `slices` holds exactly the model's slice rows,
// and scans narrowed by threads, ranks, time windows, states and ids give
// exactly the rows the model has there — while decoding fewer chunks.
#include "query/query_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "bench/mpi_trace_gen.h"
#include "support/opened_store.h"
#include "support/test_traces.h"
#include "support/trace_loading.h"

namespace plx::query {
namespace {

constexpr int64_t kNull = std::numeric_limits<int64_t>::min();

// Every row of every statement, integers only (NULL as kNull, text as -1).
class IntRows : public RowSink {
 public:
  void Begin(const std::vector<std::string>&) override {}
  void Row(const std::vector<Value>& values) override {
    std::vector<int64_t> row;
    for (const Value& v : values)
      row.push_back(v.kind == Value::kInt ? v.i : v.kind == Value::kNull ? kNull : -1);
    rows.push_back(std::move(row));
  }
  std::vector<std::vector<int64_t>> rows;
};

std::vector<std::vector<int64_t>> Ints(QueryEngine& e, const std::string& sql) {
  IntRows sink;
  const Status s = e.Run(sql, sink);
  EXPECT_TRUE(s.ok()) << sql << ": " << s.message();
  return sink.rows;
}

std::string List(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t x : v)
    s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

class QueryEngineTest : public testing::TestTracesSuite {
 protected:
  struct Opened {
    model::Trace model;
    std::unique_ptr<store::Opened> store;
    std::unique_ptr<QueryEngine> engine;
  };
  // With three workers: a scan of 8 chunks or more decodes ahead of its
  // reader on a thread of its own (shorter ones on the reader's).
  static Opened OpenTrace(const testing::TestTrace& t) {
    static ThreadPool pool(3);
    Opened o;
    o.model = testing::LoadTraceFile(t.path);
    o.store = std::make_unique<store::Opened>();
    auto file = format::TraceFile::Open(t.path);
    EXPECT_TRUE(file.ok()) << file.status().message();
    if (!file.ok()) return o;
    o.store->file = std::move(*file);
    store::StoreOptions options;
    options.pool = &pool;
    auto opened = store::TraceStore::Open(*o.store->file, options);
    EXPECT_TRUE(opened.ok()) << opened.status().message();
    if (opened.ok()) o.store->store = std::move(*opened);
    if (o.store->store) {
      auto e = QueryEngine::Open(*o.store->store);
      EXPECT_TRUE(e.ok()) << e.status().message();
      if (e.ok()) o.engine = std::move(*e);
    }
    return o;
  }
};

TEST_F(QueryEngineTest, SlicesAreTheModelsRows) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    Opened o = OpenTrace(t);
    if (!o.engine) continue;
    const model::SliceTable& s = o.model.slices;
    const int64_t origin = o.model.begin_ns;
    std::vector<std::vector<int64_t>> expected;
    for (size_t i = 0; i < s.size(); ++i)
      expected.push_back({static_cast<int64_t>(i), s.thread[i], s.state[i], s.begin[i] - origin,
                          s.end[i] - origin, s.end[i] - s.begin[i], s.self_ns[i], s.depth[i],
                          (s.flags[i] & model::SliceTable::kUnclosed) ? 1 : 0});
    EXPECT_EQ(Ints(*o.engine,
                   "SELECT id, thread, state_id, begin, end, dur, self, depth, unclosed "
                   "FROM slices ORDER BY id"),
              expected);
    const auto count = [&](const char* table) {
      return Ints(*o.engine, std::string("SELECT count(*) FROM ") + table)[0][0];
    };
    EXPECT_EQ(count("instants"), static_cast<int64_t>(o.model.instants.size()));
    EXPECT_EQ(count("counter_samples"), static_cast<int64_t>(o.model.counter_samples.size()));
    EXPECT_EQ(count("collectives"), static_cast<int64_t>(o.model.collectives.size()));
    EXPECT_EQ(count("threads"), static_cast<int64_t>(o.model.threads.size()));
    EXPECT_EQ(count("states"), static_cast<int64_t>(o.model.states.size()));
  }
}

// Text rows of a statement (EXPLAIN QUERY PLAN's details).
class TextRows : public RowSink {
 public:
  void Begin(const std::vector<std::string>&) override {}
  void Row(const std::vector<Value>& values) override {
    for (const Value& v : values)
      if (v.kind == Value::kText) text += v.s + "\n";
  }
  std::string text;
};

TEST_F(QueryEngineTest, GroupedByStateTheScanNeedsNoSortAndAgreesWithTheModel) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    Opened o = OpenTrace(t);
    if (!o.engine) continue;
    const model::SliceTable& s = o.model.slices;
    const int64_t origin = o.model.begin_ns;
    // Per state: count, sum of dur, self, depth, unclosed, begin; largest id,
    // thread and call site (kNone counts as none).
    std::map<int64_t, std::vector<int64_t>> expected;
    for (size_t i = 0; i < s.size(); ++i) {
      std::vector<int64_t>& e = expected[s.state[i]];
      if (e.empty()) e = {s.state[i], 0, 0, 0, 0, 0, 0, -1, -1, kNull};
      const int64_t callsite = s.callsite[i] < o.model.callsites.size() ? s.callsite[i] : kNull;
      e[1] += 1;
      e[2] += s.end[i] - s.begin[i];
      e[3] += s.self_ns[i];
      e[4] += s.depth[i];
      e[5] += (s.flags[i] & model::SliceTable::kUnclosed) ? 1 : 0;
      e[6] += s.begin[i] - origin;
      e[7] = std::max<int64_t>(e[7], static_cast<int64_t>(i));
      e[8] = std::max<int64_t>(e[8], s.thread[i]);
      e[9] = std::max(e[9], callsite);
    }
    std::vector<std::vector<int64_t>> rows;
    for (auto& [state, e] : expected)
      rows.push_back(e);
    const std::string sql =
        "SELECT state_id, count(*), sum(dur), sum(self), sum(depth), sum(unclosed), sum(begin), "
        "max(id), max(thread), max(callsite_id) FROM slices GROUP BY state_id";
    EXPECT_EQ(Ints(*o.engine, sql + " ORDER BY state_id"), rows);
    // Only dur read: kept as one field.
    std::vector<std::vector<int64_t>> durs;
    for (const auto& e : rows)
      durs.push_back({e[0], e[1], e[2]});
    EXPECT_EQ(
        Ints(*o.engine,
             "SELECT state_id, count(*), sum(dur) FROM slices GROUP BY state ORDER BY state_id"),
        durs);
    // The groups come in the order asked for, which SQLite then trusts.
    std::set<std::string> names;
    for (const auto& [state, e] : expected)
      names.insert(o.model.states[state].name);
    std::string ascending, descending;
    for (const std::string& n : names)
      ascending += n + "\n";
    for (auto it = names.rbegin(); it != names.rend(); ++it)
      descending += *it + "\n";
    TextRows up, down;
    ASSERT_TRUE(o.engine->Run("SELECT state FROM slices GROUP BY state ORDER BY state", up).ok());
    ASSERT_TRUE(
        o.engine->Run("SELECT state FROM slices GROUP BY state ORDER BY state DESC", down).ok());
    EXPECT_EQ(up.text, ascending);
    EXPECT_EQ(down.text, descending);
    TextRows plan;
    ASSERT_TRUE(o.engine->Run("EXPLAIN QUERY PLAN " + sql, plan).ok());
    EXPECT_NE(plan.text.find("INDEX 0:g "), std::string::npos) << plan.text;
    EXPECT_EQ(plan.text.find("TEMP B-TREE FOR GROUP BY"), std::string::npos) << plan.text;
  }
}

TEST_F(QueryEngineTest, NarrowedScansGiveTheModelsRowsAndDecodeLess) {
  bool narrowed_some = false;
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    Opened o = OpenTrace(t);
    if (!o.engine || o.model.slices.size() == 0) continue;
    const model::SliceTable& s = o.model.slices;
    const int64_t origin = o.model.begin_ns;
    const int64_t span = o.model.end_ns - origin;
    const auto threads = static_cast<int64_t>(o.model.threads.size());
    const std::vector<std::pair<int64_t, int64_t>> windows = {{span * 3 / 10, span * 35 / 100},
                                                              {0, span / 100},
                                                              {span * 9 / 10, span},
                                                              {span / 2, span / 2}};
    const std::vector<std::vector<int64_t>> thread_sets = {{0}, {threads - 1}, {0, threads - 1}};
    Ints(*o.engine, "SELECT count(*) FROM slices");
    const uint64_t full = o.engine->chunks_decoded();
    for (const auto& [a, b] : windows) {
      for (const std::vector<int64_t>& set : thread_sets) {
        std::vector<std::vector<int64_t>> expected;
        for (size_t i = 0; i < s.size(); ++i)
          if (s.end[i] - origin >= a && s.begin[i] - origin <= b &&
              std::count(set.begin(), set.end(), s.thread[i]))
            expected.push_back({static_cast<int64_t>(i)});
        const std::string sql = "SELECT id FROM slices WHERE end >= " + std::to_string(a) +
                                " AND begin <= " + std::to_string(b) + " AND thread IN (" +
                                List(set) + ") ORDER BY id";
        const uint64_t before = o.engine->chunks_decoded();
        EXPECT_EQ(Ints(*o.engine, sql), expected) << sql;
        const uint64_t read = o.engine->chunks_decoded() - before;
        EXPECT_LE(read, full) << sql;
        if (full > 4 && b - a <= span / 20 && set.size() == 1) {
          EXPECT_LT(read, full) << sql;
          narrowed_some = true;
        }
      }
    }
    // By rank: the threads of the processes with those ranks.
    std::vector<std::vector<int64_t>> expected;
    for (size_t i = 0; i < s.size(); ++i)
      if (o.model.processes[o.model.threads[s.thread[i]].process].rank == 0)
        expected.push_back({static_cast<int64_t>(i)});
    EXPECT_EQ(Ints(*o.engine, "SELECT id FROM slices WHERE rank = 0 ORDER BY id"), expected);
    // By state: the first state's slices, by name and by number.
    expected.clear();
    for (size_t i = 0; i < s.size(); ++i)
      if (s.state[i] == s.state[0]) expected.push_back({static_cast<int64_t>(i)});
    const std::string name = o.model.states[s.state[0]].name;
    std::string quoted = "'";
    for (char c : name)
      quoted += c == '\'' ? std::string("''") : std::string(1, c);
    quoted += "'";
    EXPECT_EQ(Ints(*o.engine, "SELECT id FROM slices WHERE state = " + quoted + " ORDER BY id"),
              expected);
    EXPECT_EQ(Ints(*o.engine, "SELECT id FROM slices WHERE state_id = " +
                                  std::to_string(s.state[0]) + " ORDER BY id"),
              expected);
    // By id: a few rows anywhere, and one that is not there.
    const auto n = static_cast<int64_t>(s.size());
    const std::set<int64_t> ids = {0, n / 3, n / 2, n - 1};
    expected.clear();
    for (int64_t id : ids)
      expected.push_back({id, s.begin[id] - origin, s.thread[id]});
    const uint64_t before = o.engine->chunks_decoded();
    EXPECT_EQ(Ints(*o.engine, "SELECT id, begin, thread FROM slices WHERE id IN (" +
                                  List({ids.begin(), ids.end()}) + ", " + std::to_string(n) +
                                  ") ORDER BY id"),
              expected);
    EXPECT_LE(o.engine->chunks_decoded() - before, ids.size());
  }
  EXPECT_TRUE(narrowed_some) << "no test trace has enough chunks to narrow a scan";
}

// A scan long enough to be decoded ahead of its reader (a synthetic MPI
// run of 4 ranks, tens of chunks per thread) gives the rows a scan of one
// worker gives, whole and narrowed, also when a statement stops it early.
TEST(QueryEngineAheadTest, DecodingAheadGivesTheSameRows) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/mpi.plx";
  bench::MpiTraceOptions options;
  options.ranks = 4;
  options.events = 2'000'000;
  ASSERT_TRUE(bench::WriteMpiTrace(path, options).ok());
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok());
  ThreadPool one(1), three(3);
  std::vector<std::unique_ptr<store::TraceStore>> stores;
  std::vector<std::unique_ptr<QueryEngine>> engines;
  for (ThreadPool* pool : {&one, &three}) {
    store::StoreOptions o;
    o.pool = pool;
    o.index.dir = dir.path();
    auto s = store::TraceStore::Open(**file, o);
    ASSERT_TRUE(s.ok()) << s.status().message();
    stores.push_back(std::move(*s));
    auto e = QueryEngine::Open(*stores.back());
    ASSERT_TRUE(e.ok());
    engines.push_back(std::move(*e));
  }
  for (const char* sql :
       {"SELECT count(*), sum(dur), sum(id * (thread + 1)), max(end) FROM slices",
        "SELECT state_id, count(*), sum(self) FROM slices GROUP BY state_id",
        "SELECT id, begin FROM slices WHERE thread IN (1, 2) AND end >= 100000000 AND "
        "begin <= 900000000 ORDER BY id",
        "SELECT id FROM slices LIMIT 3", "SELECT count(*), sum(time) FROM collectives"}) {
    const auto a = Ints(*engines[0], sql);
    EXPECT_FALSE(a.empty()) << sql;
    EXPECT_EQ(Ints(*engines[1], sql), a) << sql;
  }
  Ints(*engines[1], "SELECT count(*) FROM slices");
  EXPECT_GE(engines[1]->chunks_decoded(), 8u * 4) << "the scan is too short to decode ahead";
}

TEST_F(QueryEngineTest, JoinsOnSliceIdsAndMessages) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    Opened o = OpenTrace(t);
    if (!o.engine) continue;
    // Every receive's call, looked up by id, is the slice the message names.
    const auto joined = Ints(*o.engine,
                             "SELECT count(*) FROM messages m JOIN slices s ON s.id = m.recv_slice "
                             "WHERE s.begin <= m.recv_time AND m.recv_time <= s.end");
    const auto named =
        Ints(*o.engine, "SELECT count(*) FROM messages WHERE recv_slice IS NOT NULL");
    EXPECT_EQ(joined, named);
  }
}

TEST_F(QueryEngineTest, ErrorsAreOneLineAndWritesAreRefused) {
  Opened o = OpenTrace(traces_->front());
  ASSERT_TRUE(o.engine);
  IntRows sink;
  for (const char* sql : {"SELEC 1", "SELECT missing FROM slices", "SELECT * FROM nowhere",
                          "CREATE TABLE x(a)", "ATTACH 'x.db' AS x", "DELETE FROM slices"}) {
    const Status s = o.engine->Run(sql, sink);
    EXPECT_FALSE(s.ok()) << sql;
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
    EXPECT_EQ(s.message().rfind("query: ", 0), 0u) << s.message();
  }
  // A NUL byte would end the statement early, and stall a naive loop.
  const Status nul = o.engine->Run(std::string("SELECT 1\0 FROM slices", 21), sink);
  EXPECT_EQ(nul.message(), "query: the SQL holds a NUL byte at offset 8");
  EXPECT_TRUE(o.engine->Run("SELECT 1; -- a comment at the end", sink).ok());
  QueryLimits shell;
  shell.read_only = false;
  EXPECT_TRUE(o.engine->Run("CREATE TEMP TABLE x AS SELECT id FROM slices", sink, shell).ok());
  EXPECT_FALSE(o.engine->Run("ATTACH 'x.db' AS x", sink, shell).ok());
  QueryLimits few;
  few.max_rows = 2;
  IntRows two;
  EXPECT_TRUE(o.engine->Run("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3", two, few).ok());
  EXPECT_EQ(two.rows.size(), 2u);
  std::atomic<bool> cancel{true};
  QueryLimits cancelled;
  cancelled.cancel = &cancel;
  const Status s = o.engine->Run(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n",
      sink, cancelled);
  EXPECT_EQ(s.message(), "query: cancelled");
  QueryLimits timed;
  timed.timeout_ms = 50;
  EXPECT_EQ(o.engine
                ->Run("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
                      "SELECT count(*) FROM n",
                      sink, timed)
                .message(),
            "query: stopped after 50 ms");
}

}  // namespace
}  // namespace plx::query
