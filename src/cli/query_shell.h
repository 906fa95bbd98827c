// The shell of `parallax query TRACE` with no statement: reads statements
// (each ends with ';') and dot commands (.tables, .schema, .mode, .help,
// .quit) from a terminal, with line editing and a history kept in
// ~/.parallax_history, or from a pipe as a script.
#pragma once

#include <cstdio>

#include "base/status.h"
#include "cli/query_output.h"
#include "query/query_engine.h"

namespace plx::cli {

/// On a terminal, errors are printed and the shell goes on; from a pipe the
/// first error ends it (and is returned).
Status RunQueryShell(query::QueryEngine& engine, QueryFormat format,
                     const query::QueryLimits& limits, bool terminal);

}  // namespace plx::cli
