// The model's tables keep what spec/model.toml says of them: on every test
// trace, every column of a record table has one value per row, rows are in
// the order of the table's sort_key() (its `sorted_by`), threads are sorted
// by process, then file stream, and index columns point at rows that exist.
#include "model/tables.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "model/trace.h"
#include "support/test_traces.h"
#include "support/trace_loading.h"

namespace plx::model {
namespace {

class ModelTablesTest : public testing::TestTracesSuite {};

// The first row out of order, or "" when there is none.
template <typename Table>
std::string FirstUnsortedRow(const Table& table) {
  for (size_t i = 1; i < table.size(); ++i) {
    if (table.sort_key(i) < table.sort_key(i - 1)) return "row " + std::to_string(i);
  }
  return "";
}

TEST_F(ModelTablesTest, TablesKeepTheSpec) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    const Trace trace = testing::LoadTraceFile(t.path);
    size_t tables = 0;
    ForEachTable(trace, [&](const auto& table) {
      ++tables;
      SCOPED_TRACE(table.kName);
      size_t column = 0;
      auto same_length = [&](const auto& c) {
        EXPECT_EQ(c.size(), table.size()) << table.kColumnNames[column++];
      };
      std::apply([&](const auto&... c) { (same_length(c), ...); }, table.columns());
      EXPECT_EQ(FirstUnsortedRow(table), "");
      for (uint32_t thread : table.thread)
        ASSERT_LT(thread, trace.threads.size());
    });
    EXPECT_EQ(tables, kRecordTableCount);
    for (size_t i = 1; i < trace.threads.size(); ++i) {
      const Thread& a = trace.threads[i - 1];
      const Thread& b = trace.threads[i];
      EXPECT_TRUE(a.process < b.process ||
                  (a.process == b.process && a.file_stream < b.file_stream))
          << "thread " << i;
    }
    for (uint32_t state : trace.slices.state)
      EXPECT_LT(state, trace.states.size());
    for (uint32_t type : trace.instants.type)
      EXPECT_LT(type, trace.event_types.size());
    for (uint32_t counter : trace.counter_samples.counter) {
      EXPECT_LT(counter, trace.counters.size());
    }
  }
}

}  // namespace
}  // namespace plx::model
