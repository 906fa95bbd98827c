// How `parallax query` prints a statement's rows: an aligned table (the
// default), CSV (RFC 4180, a header line) or JSON (an array of objects keyed
// by column name, one object per line).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "query/query_engine.h"

namespace plx::cli {

enum class QueryFormat { kTable, kCsv, kJson };

/// A sink printing to `out` in `format`.
std::unique_ptr<query::RowSink> MakeQueryPrinter(QueryFormat format, std::FILE* out);

/// A value as the table and CSV show it ("" for NULL).
std::string QueryCellText(const query::Value& v);

}  // namespace plx::cli
