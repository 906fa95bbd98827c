// RowTable: a table whose rows are made once and kept, column by column
// (the definitions, and the analyses' results: paired messages, wait
// states, the critical path, anomalies). The rows are made by `fill` the
// first time a statement reads the table. `column = value` (or IN) is
// looked up in a sorted index of that column, made on first use, so a join
// on one of its columns does not scan it once per outer row.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "query/vtab.h"

namespace plx::query {

class RowTable : public VirtualTable {
 public:
  /// Appends the table's rows (AddRow, then Set* per column).
  using Fill = std::function<Status(RowTable*)>;
  RowTable(const TableSpec& spec, Fill fill);

  /// A new row, every column NULL.
  void AddRow();
  void SetInt(int column, int64_t v);
  void SetReal(int column, double v);
  void SetText(int column, std::string_view v);
  size_t rows() const { return rows_; }

  bool Takes(int column, Op op) const override { return op == Op::kEq; }
  double Estimate(const std::vector<Constraint>& taken) const override;
  std::unique_ptr<Cursor> Open() override;

 private:
  friend class RowCursor;
  struct Column {
    std::vector<int64_t> ints;     // kInteger: the value; kText: index into texts_
    std::vector<double> reals;     // kReal
    std::vector<uint8_t> present;  // 0 = NULL
    std::vector<uint32_t> sorted;  // rows with a value, by value then row (made on first use)
    bool indexed = false;
  };
  // Makes the rows when not made yet.
  Status Ready();
  // Rows whose `column` equals one of `values`, in row order; false when a
  // value is of a kind the column cannot be searched for (then every row).
  bool Lookup(int column, const std::vector<Value>& values, std::vector<uint32_t>* rows);
  void Cell(int column, uint32_t row, query::Cell cell) const;

  Fill fill_;
  bool filled_ = false;
  Status fill_status_;
  size_t rows_ = 0;
  std::vector<Column> columns_;
  std::vector<std::string> texts_;
  std::unordered_map<std::string, uint32_t> text_ids_;
};

}  // namespace plx::query
