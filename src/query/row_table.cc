// RowTable: columns of int64 (integers, and texts as indices into one list
// of distinct texts), doubles, and a presence flag each. A lookup sorts the
// rows of a column by value once and then finds each value by binary search.
#include "query/row_table.h"

#include <algorithm>
#include <numeric>

namespace plx::query {

namespace {

// Appends the rows of `sorted` (ordered by values[row]) whose value is `k`.
template <typename T>
void AddEqual(const std::vector<uint32_t>& sorted, const std::vector<T>& values, T k,
              std::vector<uint32_t>* out) {
  const auto lo = std::lower_bound(sorted.begin(), sorted.end(), k,
                                   [&](uint32_t r, T key) { return values[r] < key; });
  const auto hi =
      std::upper_bound(lo, sorted.end(), k, [&](T key, uint32_t r) { return key < values[r]; });
  out->insert(out->end(), lo, hi);
}

}  // namespace

class RowCursor : public Cursor {
 public:
  explicit RowCursor(RowTable* table) : table_(table) {}

  Status Filter(const std::vector<Constraint>& constraints) override {
    PLX_RETURN_IF_ERROR(table_->Ready());
    all_ = true;
    rows_.clear();
    for (const Constraint& c : constraints) {
      std::vector<uint32_t> rows;
      if (c.op != Op::kEq || !table_->Lookup(c.column, c.values, &rows)) continue;
      if (all_ || rows.size() < rows_.size()) rows_ = std::move(rows);
      all_ = false;
    }
    at_ = 0;
    return Status::Ok();
  }
  Status Next() override {
    ++at_;
    return Status::Ok();
  }
  bool Eof() const override { return at_ >= (all_ ? table_->rows() : rows_.size()); }
  void Column(int column, Cell cell) const override { table_->Cell(column, Row(), cell); }
  int64_t Rowid() const override { return Row(); }

 private:
  uint32_t Row() const { return all_ ? static_cast<uint32_t>(at_) : rows_[at_]; }

  RowTable* table_;
  bool all_ = true;
  std::vector<uint32_t> rows_;
  size_t at_ = 0;
};

RowTable::RowTable(const TableSpec& spec, Fill fill)
    : VirtualTable(spec), fill_(std::move(fill)), columns_(spec.columns.size()) {}

void RowTable::AddRow() {
  for (Column& c : columns_) {
    c.ints.push_back(0);
    c.reals.push_back(0);
    c.present.push_back(0);
  }
  ++rows_;
}

void RowTable::SetInt(int column, int64_t v) {
  Column& c = columns_[column];
  if (spec().columns[column].type == ColumnType::kReal)
    c.reals.back() = static_cast<double>(v);
  else
    c.ints.back() = v;
  c.present.back() = 1;
}

void RowTable::SetReal(int column, double v) {
  columns_[column].reals.back() = v;
  columns_[column].present.back() = 1;
}

void RowTable::SetText(int column, std::string_view v) {
  auto [it, added] = text_ids_.try_emplace(std::string(v), static_cast<uint32_t>(texts_.size()));
  if (added) texts_.emplace_back(v);
  columns_[column].ints.back() = it->second;
  columns_[column].present.back() = 1;
}

Status RowTable::Ready() {
  if (!filled_) {
    filled_ = true;
    fill_status_ = fill_(this);
  }
  return fill_status_;
}

double RowTable::Estimate(const std::vector<Constraint>& taken) const {
  // Before the rows are made their number is unknown: a lookup is taken to
  // find a few of many.
  const double n = filled_ ? static_cast<double>(rows_) : 1e6;
  return taken.empty() ? n : std::max(1.0, n / 1000);
}

std::unique_ptr<Cursor> RowTable::Open() {
  return std::make_unique<RowCursor>(this);
}

bool RowTable::Lookup(int column, const std::vector<Value>& values, std::vector<uint32_t>* rows) {
  Column& c = columns_[column];
  const ColumnType type = spec().columns[column].type;
  // The values as they are kept: an integer, a text's index, a double.
  std::vector<int64_t> keys;
  std::vector<double> reals;
  for (const Value& v : values) {
    if (v.kind == Value::kNull) continue;  // = NULL is never true
    if (type == ColumnType::kReal) {
      if (v.kind == Value::kText) return false;
      reals.push_back(v.kind == Value::kReal ? v.d : static_cast<double>(v.i));
    } else if (type == ColumnType::kText) {
      if (v.kind != Value::kText) return false;
      const auto it = text_ids_.find(v.s);
      if (it != text_ids_.end()) keys.push_back(it->second);
    } else {
      int64_t k = 0;
      if (v.kind == Value::kText) return false;
      if (v.AsInt(&k)) keys.push_back(k);  // a real with a fraction equals no integer
    }
  }
  if (!c.indexed) {
    for (uint32_t r = 0; r < rows_; ++r)
      if (c.present[r]) c.sorted.push_back(r);
    if (type == ColumnType::kReal)
      std::stable_sort(c.sorted.begin(), c.sorted.end(),
                       [&](uint32_t a, uint32_t b) { return c.reals[a] < c.reals[b]; });
    else
      std::stable_sort(c.sorted.begin(), c.sorted.end(),
                       [&](uint32_t a, uint32_t b) { return c.ints[a] < c.ints[b]; });
    c.indexed = true;
  }
  rows->clear();
  for (int64_t k : keys)
    AddEqual(c.sorted, c.ints, k, rows);
  for (double k : reals)
    AddEqual(c.sorted, c.reals, k, rows);
  std::sort(rows->begin(), rows->end());
  rows->erase(std::unique(rows->begin(), rows->end()), rows->end());
  return true;
}

void RowTable::Cell(int column, uint32_t row, query::Cell cell) const {
  const Column& c = columns_[column];
  if (!c.present[row]) return cell.Null();
  switch (spec().columns[column].type) {
    case ColumnType::kInteger:
      return cell.Int(c.ints[row]);
    case ColumnType::kReal:
      return cell.Real(c.reals[row]);
    case ColumnType::kText:
      return cell.StaticText(texts_[c.ints[row]]);
  }
}

}  // namespace plx::query
