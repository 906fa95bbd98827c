// SQLite's virtual tables behind a small C++ interface: a VirtualTable says
// which constraints its scans can use, a Cursor scans under them. vtab.cc
// is the only file that speaks sqlite3_module; the tables (record_tables.cc,
// row_table.cc) see constraints as plain values.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "query/schema.h"

struct sqlite3;
struct sqlite3_context;

namespace plx::query {

/// A value of a constraint or of a result cell.
struct Value {
  enum Kind : uint8_t { kNull, kInt, kReal, kText };
  Kind kind = kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;
  /// The value as an integer when it is one (a real with no fraction too).
  bool AsInt(int64_t* out) const;
};

enum class Op : uint8_t { kEq, kLt, kLe, kGt, kGe };

/// A constraint a scan took: `column op value`, or with op kEq and several
/// values, `column IN (values)`.
struct Constraint {
  int column = 0;
  Op op = Op::kEq;
  std::vector<Value> values;
};

/// Where a cursor writes the value of one column of its current row.
class Cell {
 public:
  explicit Cell(sqlite3_context* ctx) : ctx_(ctx) {}
  void Int(int64_t v);
  void Real(double v);
  /// Text that stays valid while the engine lives (names, call sites).
  void StaticText(std::string_view v);
  /// Text copied now.
  void Text(std::string_view v);
  void Null();

 private:
  sqlite3_context* ctx_;
};

class Cursor {
 public:
  virtual ~Cursor() = default;
  /// Starts a scan. Rows the constraints exclude may still come: SQLite
  /// checks every row again, so they only save work.
  virtual Status Filter(const std::vector<Constraint>& constraints) = 0;
  /// Before Filter, when the scan was planned to give its rows grouped by
  /// `column` (VirtualTable::Groups): the groups must come in the column's
  /// order (`descending`: reversed), as SQLite then sorts them no more; the
  /// statement reads the columns whose bits are set in `used` (bit 63: any
  /// column from the 64th on).
  virtual void Group(int column, bool descending, uint64_t used) {}
  virtual Status Next() = 0;
  virtual bool Eof() const = 0;
  virtual void Column(int column, Cell cell) const = 0;
  virtual int64_t Rowid() const = 0;
};

class VirtualTable {
 public:
  explicit VirtualTable(const TableSpec& spec) : spec_(spec) {}
  virtual ~VirtualTable() = default;
  const TableSpec& spec() const { return spec_; }
  /// Whether a scan uses `column op value` to read less.
  virtual bool Takes(int column, Op op) const = 0;
  /// Rows a scan under constraints on `taken` (columns and ops) is
  /// expected to read: what the planner compares plans by.
  virtual double Estimate(const std::vector<Constraint>& taken) const = 0;
  /// Whether a scan under `taken` reading the columns of `used` can give
  /// its rows grouped by `column` (equal values together, the groups in the
  /// column's order): then SQLite's GROUP BY needs no sort of its own.
  virtual bool Groups(int column, uint64_t used, const std::vector<Constraint>& taken) const {
    return false;
  }
  virtual std::unique_ptr<Cursor> Open() = 0;

 private:
  const TableSpec& spec_;
};

/// Makes `table` (which must outlive the connection) a table of `db`, named
/// after its spec: an eponymous virtual table, there without CREATE.
Status RegisterTable(sqlite3* db, VirtualTable* table);

}  // namespace plx::query
