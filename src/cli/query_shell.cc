// RunQueryShell: libedit's readline() on a terminal, std::getline otherwise.
#include "cli/query_shell.h"

#include <editline/readline.h>
#include <fmt/core.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "query/schema.h"

namespace plx::cli {

namespace {

constexpr char kHelp[] =
    "Statements end with ';' and may span lines. Dot commands:\n"
    "  .tables            the tables\n"
    "  .schema [TABLE]    their columns (as CREATE TABLE)\n"
    "  .mode table|csv|json\n"
    "  .help              this\n"
    "  .quit              leave (also .exit, or end of input)\n"
    "docs/query-tables.md describes every column.\n";

std::string HistoryPath() {
  const char* home = std::getenv("HOME");
  return home != nullptr && *home ? std::string(home) + "/.parallax_history" : "";
}

// Reads a line; false at the end of input.
bool ReadLine(bool terminal, const char* prompt, std::string* line) {
  if (!terminal) return static_cast<bool>(std::getline(std::cin, *line));
  char* got = readline(prompt);
  if (got == nullptr) return false;
  *line = got;
  std::free(got);
  return true;
}

// Runs a dot command; false for .quit / .exit.
bool DotCommand(const std::string& line, QueryFormat* format) {
  std::istringstream words(line);
  std::string command, arg;
  words >> command >> arg;
  if (command == ".quit" || command == ".exit") return false;
  if (command == ".tables") {
    std::string names;
    for (const query::TableSpec& t : query::Tables())
      names += (names.empty() ? "" : "  ") + std::string(t.name);
    fmt::print("{}\n", names);
  } else if (command == ".schema") {
    bool any = false;
    for (const query::TableSpec& t : query::Tables()) {
      if (!arg.empty() && arg != t.name) continue;
      fmt::print("{};\n", query::CreateStatement(t));
      any = true;
    }
    if (!any) fmt::print(stderr, "parallax: query: no table named '{}'\n", arg);
  } else if (command == ".mode") {
    if (arg == "table")
      *format = QueryFormat::kTable;
    else if (arg == "csv")
      *format = QueryFormat::kCsv;
    else if (arg == "json")
      *format = QueryFormat::kJson;
    else
      fmt::print(stderr, "parallax: query: .mode: table, csv or json, not '{}'\n", arg);
  } else if (command == ".help") {
    fmt::print("{}", kHelp);
  } else {
    fmt::print(stderr, "parallax: query: unknown command {} (.help lists them)\n", command);
  }
  return true;
}

}  // namespace

Status RunQueryShell(query::QueryEngine& engine, QueryFormat format,
                     const query::QueryLimits& limits, bool terminal) {
  const std::string history = terminal ? HistoryPath() : "";
  if (terminal) {
    using_history();
    if (!history.empty()) read_history(history.c_str());
    fmt::print("parallax query: SQL over the trace; .help for help, .quit to leave\n");
  }
  std::string statement, line;
  while (ReadLine(terminal, statement.empty() ? "parallax> " : "     ...> ", &line)) {
    if (statement.empty()) {
      const size_t start = line.find_first_not_of(" \t");
      if (start == std::string::npos) continue;
      if (line[start] == '.') {
        if (terminal) add_history(line.c_str());
        if (!DotCommand(line.substr(start), &format)) break;
        continue;
      }
    }
    statement += line + "\n";
    if (!query::QueryEngine::Complete(statement)) continue;
    if (terminal) {
      std::string one = statement.substr(0, statement.size() - 1);
      add_history(one.c_str());
    }
    std::unique_ptr<query::RowSink> printer = MakeQueryPrinter(format, stdout);
    const Status status = engine.Run(statement, *printer, limits);
    statement.clear();
    if (status.ok()) continue;
    if (!terminal) return status;
    fmt::print(stderr, "parallax: {}\n", status.message());
  }
  if (!history.empty()) write_history(history.c_str());
  // A last statement without its ';' still runs.
  if (statement.find_first_not_of(" \t\n") == std::string::npos) return Status::Ok();
  std::unique_ptr<query::RowSink> printer = MakeQueryPrinter(format, stdout);
  return engine.Run(statement, *printer, limits);
}

}  // namespace plx::cli
