// How `parallax query` prints a statement's rows: an aligned table (the
// default), CSV (RFC 4180, a header line) or JSON (an array of objects keyed
// by column name, one object per line).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "cli/progress.h"
#include "query/query_engine.h"
#include "store/trace_store.h"

namespace plx::cli {

enum class QueryFormat { kTable, kCsv, kJson };

/// The query engine over `store`, its passes (at the open, and the
/// analyses' the first time a statement reads their table) drawn on
/// `progress`, which must outlive the engine.
StatusOr<std::unique_ptr<query::QueryEngine>> OpenQueryEngine(const store::TraceStore& store,
                                                              PipelineProgress& progress);

/// A sink printing to `out` in `format`.
std::unique_ptr<query::RowSink> MakeQueryPrinter(QueryFormat format, std::FILE* out);

/// A value as the table and CSV show it ("" for NULL).
std::string QueryCellText(const query::Value& v);

}  // namespace plx::cli
