// `parallax query TRACE [SQL]`: SQL over the trace (src/query), its rows as
// a table, CSV or JSON; with no SQL, a shell. `--schema` prints the tables
// (docs/query-tables.md is that output).
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "cli/command.h"
#include "cli/progress.h"
#include "cli/query_output.h"
#include "cli/query_shell.h"
#include "cli/trace_input.h"
#include "query/query_engine.h"
#include "query/schema.h"

namespace plx::cli {

namespace {

struct QueryOptions {
  std::string path;
  std::string sql;
  bool csv = false;
  bool json = false;
  bool schema = false;
  uint64_t max_rows = 0;
  int64_t timeout_ms = 0;
};

Status RunQuery(const QueryOptions& o, const GlobalOptions& global) {
  if (o.schema) {
    fmt::print("{}", query::SchemaMarkdown());
    return Status::Ok();
  }
  if (o.path.empty()) return InvalidArgument("query: a trace is needed (or --schema)");
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  PipelineProgress progress(global.progress);
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<query::QueryEngine> engine,
                       OpenQueryEngine(*store, progress));
  const QueryFormat format = o.csv    ? QueryFormat::kCsv
                             : o.json ? QueryFormat::kJson
                                      : QueryFormat::kTable;
  query::QueryLimits limits;
  limits.max_rows = o.max_rows;
  limits.timeout_ms = o.timeout_ms;
  if (o.sql.empty()) {
    // The shell's own statements may make temporary tables.
    limits.read_only = false;
    return RunQueryShell(*engine, format, limits, isatty(STDIN_FILENO) != 0);
  }
  std::unique_ptr<query::RowSink> printer = MakeQueryPrinter(format, stdout);
  return engine->Run(o.sql, *printer, limits);
}

}  // namespace

Command AddQueryCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<QueryOptions>();
  CLI::App* app =
      parent.add_subcommand("query", "SQL over the trace: slices, messages, waits, ...");
  app->footer(
      "Tables: slices, instants, counter_samples, collectives, messages, threads,\n"
      "processes, states, callsites, counters, wait_states, critical_path, anomalies\n"
      "(--schema prints their columns; docs/query.md has examples). Nothing is copied\n"
      "into SQLite: a query restricted to threads, ranks or a time window decodes only\n"
      "the chunks it needs; messages and the analyses are made the first time a\n"
      "statement reads them. Times are ns. With no SQL, a shell (.help there).\n"
      "\n"
      "Examples:\n"
      "  parallax query run.plx 'SELECT state, count(*), sum(dur) FROM slices GROUP BY state'\n"
      "  parallax query run.plx 'SELECT * FROM slices WHERE rank IN (0, 1)\n"
      "      AND end >= 1000000 AND begin <= 2000000' --csv\n"
      "  parallax query run.plx 'SELECT s.dur, m.sender FROM slices s JOIN messages m\n"
      "      ON m.recv_slice = s.id WHERE s.state = \"MPI_Recv\" ORDER BY s.dur DESC LIMIT 10'\n"
      "  parallax query run.plx            (the shell)\n"
      "  parallax query --schema");
  app->add_option("TRACE", o->path, "The trace (.plx file or parts directory)");
  app->add_option("SQL", o->sql, "Statements to run (several: separated by ';')");
  auto* csv = app->add_flag("--csv", o->csv, "Print CSV (a header line, then the rows)");
  app->add_flag("--json", o->json, "Print a JSON array of objects keyed by column name")
      ->excludes(csv);
  app->add_flag("--schema", o->schema, "Print the tables and their columns (Markdown)");
  app->add_option("--max-rows", o->max_rows, "Print at most N rows per statement");
  app->add_option("--timeout", o->timeout_ms, "Stop a statement after MS milliseconds");
  return {app, [o, &global] { return RunQuery(*o, global); }};
}

}  // namespace plx::cli
