// RunQueryShell: libedit's readline() on a terminal, std::getline otherwise.
#include "cli/query_shell.h"

#include <editline/readline.h>
#include <fmt/core.h>

#include <chrono>
#include <cstdio>
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
    "  .timer on|off      print how long each statement took\n"
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

// What the dot commands set.
struct ShellState {
  QueryFormat format;
  bool timer = false;
};

// Runs a dot command; false for .quit / .exit.
bool DotCommand(const std::string& line, ShellState* state) {
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
      state->format = QueryFormat::kTable;
    else if (arg == "csv")
      state->format = QueryFormat::kCsv;
    else if (arg == "json")
      state->format = QueryFormat::kJson;
    else
      fmt::print(stderr, "parallax: query: .mode: table, csv or json, not '{}'\n", arg);
  } else if (command == ".timer") {
    if (arg == "on" || arg == "off")
      state->timer = arg == "on";
    else
      fmt::print(stderr, "parallax: query: .timer: on or off, not '{}'\n", arg);
  } else if (command == ".help") {
    fmt::print("{}", kHelp);
  } else {
    fmt::print(stderr, "parallax: query: unknown command {} (.help lists them)\n", command);
  }
  return true;
}

// Runs `sql`, printing its rows, then (.timer on) how long it took.
Status RunTimed(query::QueryEngine& engine, const std::string& sql, const ShellState& state,
                const query::QueryLimits& limits) {
  std::unique_ptr<query::RowSink> printer = MakeQueryPrinter(state.format, stdout);
  const auto begin = std::chrono::steady_clock::now();
  const Status status = engine.Run(sql, *printer, limits);
  if (state.timer)
    fmt::print("time: {:.1f} ms\n",
               std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin)
                   .count());
  std::fflush(stdout);
  return status;
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
  ShellState state{format};
  std::string statement, line;
  while (ReadLine(terminal, statement.empty() ? "parallax> " : "     ...> ", &line)) {
    if (statement.empty()) {
      const size_t start = line.find_first_not_of(" \t");
      if (start == std::string::npos) continue;
      if (line[start] == '.') {
        if (terminal) add_history(line.c_str());
        if (!DotCommand(line.substr(start), &state)) break;
        continue;
      }
    }
    statement += line + "\n";
    if (!query::QueryEngine::Complete(statement)) continue;
    if (terminal) {
      std::string one = statement.substr(0, statement.size() - 1);
      add_history(one.c_str());
    }
    const Status status = RunTimed(engine, statement, state, limits);
    statement.clear();
    if (status.ok()) continue;
    if (!terminal) return status;
    fmt::print(stderr, "parallax: {}\n", status.message());
  }
  if (!history.empty()) write_history(history.c_str());
  // A last statement without its ';' still runs.
  if (statement.find_first_not_of(" \t\n") == std::string::npos) return Status::Ok();
  return RunTimed(engine, statement, state, limits);
}

}  // namespace plx::cli
