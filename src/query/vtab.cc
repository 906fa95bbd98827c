// The sqlite3_module behind every VirtualTable. xBestIndex hands SQLite the
// constraints the table takes (never omitted: SQLite checks every row
// again) and writes them into idxStr as "column op in;" triples, which
// xFilter reads back to turn its arguments into Constraints; an IN list is
// taken whole (sqlite3_vtab_in), so a scan sees every value at once. A
// GROUP BY the table can group by comes first, as "g column desc used;".
#include "query/vtab.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace plx::query {

bool Value::AsInt(int64_t* out) const {
  if (kind == kInt) {
    *out = i;
    return true;
  }
  if (kind == kReal && std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) {
    *out = static_cast<int64_t>(d);
    return true;
  }
  return false;
}

void Cell::Int(int64_t v) {
  sqlite3_result_int64(ctx_, v);
}
void Cell::Real(double v) {
  sqlite3_result_double(ctx_, v);
}
void Cell::StaticText(std::string_view v) {
  sqlite3_result_text(ctx_, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
}
void Cell::Text(std::string_view v) {
  sqlite3_result_text(ctx_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}
void Cell::Null() {
  sqlite3_result_null(ctx_);
}

namespace {

struct Table : sqlite3_vtab {
  VirtualTable* impl = nullptr;
};

struct TableCursor : sqlite3_vtab_cursor {
  std::unique_ptr<Cursor> impl;
};

VirtualTable* ImplOf(sqlite3_vtab* vtab) {
  return static_cast<Table*>(vtab)->impl;
}

int Fail(sqlite3_vtab* vtab, const Status& status) {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = sqlite3_mprintf("%s", status.message().c_str());
  return SQLITE_ERROR;
}

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  auto* impl = static_cast<VirtualTable*>(aux);
  const int rc = sqlite3_declare_vtab(db, CreateStatement(impl->spec()).c_str());
  if (rc != SQLITE_OK) return rc;
  auto* table = new Table();
  table->impl = impl;
  *out = table;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete static_cast<Table*>(vtab);
  return SQLITE_OK;
}

bool OpOf(unsigned char op, Op* out) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ:
      *out = Op::kEq;
      return true;
    case SQLITE_INDEX_CONSTRAINT_LT:
      *out = Op::kLt;
      return true;
    case SQLITE_INDEX_CONSTRAINT_LE:
      *out = Op::kLe;
      return true;
    case SQLITE_INDEX_CONSTRAINT_GT:
      *out = Op::kGt;
      return true;
    case SQLITE_INDEX_CONSTRAINT_GE:
      *out = Op::kGe;
      return true;
    default:
      return false;
  }
}

int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  VirtualTable* impl = ImplOf(vtab);
  std::vector<Constraint> taken;
  std::string plan;
  int args = 0;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    Op op = Op::kEq;
    if (!c.usable || c.iColumn < 0 || !OpOf(c.op, &op) || !impl->Takes(c.iColumn, op)) continue;
    const bool whole = op == Op::kEq && sqlite3_vtab_in(info, i, 1) != 0;
    info->aConstraintUsage[i].argvIndex = ++args;
    info->aConstraintUsage[i].omit = 0;
    taken.push_back({c.iColumn, op, {}});
    plan += std::to_string(c.iColumn) + " " + std::to_string(static_cast<int>(op)) + " " +
            (whole ? "1" : "0") + ";";
  }
  // GROUP BY one column the table can group by: no sort in SQLite.
  if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn >= 0 && sqlite3_vtab_distinct(info) == 1 &&
      impl->Groups(info->aOrderBy[0].iColumn, info->colUsed, taken)) {
    info->orderByConsumed = 1;
    plan = "g " + std::to_string(info->aOrderBy[0].iColumn) + " " +
           (info->aOrderBy[0].desc ? "1 " : "0 ") + std::to_string(info->colUsed) + ";" + plan;
  }
  const double rows = std::max(1.0, impl->Estimate(taken));
  info->estimatedRows = static_cast<sqlite3_int64>(rows);
  info->estimatedCost = rows;
  info->idxStr = sqlite3_mprintf("%s", plan.c_str());
  info->needToFreeIdxStr = 1;
  return SQLITE_OK;
}

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  auto* cursor = new TableCursor();
  cursor->impl = ImplOf(vtab)->Open();
  *out = cursor;
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete static_cast<TableCursor*>(cursor);
  return SQLITE_OK;
}

Value ValueOf(sqlite3_value* v) {
  Value out;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      out.kind = Value::kInt;
      out.i = sqlite3_value_int64(v);
      break;
    case SQLITE_FLOAT:
      out.kind = Value::kReal;
      out.d = sqlite3_value_double(v);
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      out.kind = Value::kText;
      const auto* text = sqlite3_value_text(v);
      out.s.assign(reinterpret_cast<const char*>(text), sqlite3_value_bytes(v));
      break;
    }
    default:
      break;
  }
  return out;
}

int Filter(sqlite3_vtab_cursor* base, int, const char* plan, int argc, sqlite3_value** argv) {
  auto* cursor = static_cast<TableCursor*>(base);
  std::vector<Constraint> constraints;
  std::istringstream in(plan != nullptr ? plan : "");
  int column = 0, op = 0, whole = 0;
  char semicolon = 0;
  if (in.peek() == 'g') {
    char g = 0;
    int descending = 0;
    uint64_t used = 0;
    in >> g >> column >> descending >> used >> semicolon;
    cursor->impl->Group(column, descending != 0, used);
  }
  for (int a = 0; a < argc && (in >> column >> op >> whole >> semicolon); ++a) {
    Constraint c{column, static_cast<Op>(op), {}};
    if (whole != 0) {
      sqlite3_value* v = nullptr;
      for (int rc = sqlite3_vtab_in_first(argv[a], &v); rc == SQLITE_OK && v != nullptr;
           rc = sqlite3_vtab_in_next(argv[a], &v))
        c.values.push_back(ValueOf(v));
    } else {
      c.values.push_back(ValueOf(argv[a]));
    }
    constraints.push_back(std::move(c));
  }
  const Status status = cursor->impl->Filter(constraints);
  return status.ok() ? SQLITE_OK : Fail(base->pVtab, status);
}

int Next(sqlite3_vtab_cursor* base) {
  const Status status = static_cast<TableCursor*>(base)->impl->Next();
  return status.ok() ? SQLITE_OK : Fail(base->pVtab, status);
}

int Eof(sqlite3_vtab_cursor* base) {
  return static_cast<TableCursor*>(base)->impl->Eof() ? 1 : 0;
}

int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  static_cast<TableCursor*>(base)->impl->Column(column, Cell(ctx));
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* out) {
  *out = static_cast<TableCursor*>(base)->impl->Rowid();
  return SQLITE_OK;
}

sqlite3_module MakeModule() {
  sqlite3_module m{};
  m.iVersion = 1;
  m.xCreate = nullptr;  // eponymous only: no CREATE VIRTUAL TABLE
  m.xConnect = Connect;
  m.xBestIndex = BestIndex;
  m.xDisconnect = Disconnect;
  m.xDestroy = Disconnect;
  m.xOpen = Open;
  m.xClose = Close;
  m.xFilter = Filter;
  m.xNext = Next;
  m.xEof = Eof;
  m.xColumn = Column;
  m.xRowid = Rowid;
  return m;
}

const sqlite3_module kModule = MakeModule();

}  // namespace

Status RegisterTable(sqlite3* db, VirtualTable* table) {
  const int rc = sqlite3_create_module_v2(db, table->spec().name, &kModule, table, nullptr);
  if (rc != SQLITE_OK)
    return Internal(std::string("cannot add table ") + table->spec().name + ": " +
                    sqlite3_errmsg(db));
  return Status::Ok();
}

}  // namespace plx::query
