// `parallax matrix FILE`: who sent how much to whom (analysis/comm_matrix):
// the point-to-point matrix of matched messages, or with --rma the one-sided
// matrix, as a labelled text matrix (a list of pairs for many processes) or JSON.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/comm_matrix.h"
#include "base/strings.h"
#include "cli/command.h"
#include "cli/json_fields.h"
#include "cli/progress.h"
#include "cli/selection_arg.h"
#include "cli/table.h"
#include "cli/trace_input.h"
#include "distributed/group.h"
#include "distributed/spread_messages.h"
#include "store/stream_messages.h"
#include "time/message_pairs.h"

namespace plx::cli {

namespace {

using nlohmann::ordered_json;

// Above this many processes the text output lists pairs instead of a matrix.
constexpr size_t kMaxMatrixProcesses = 16;
constexpr size_t kMaxPairs = 50;

struct MatrixOptions {
  std::string path;
  bool json = false;
  bool rma = false;
  std::string metric = "count";
  SelectionArgs selection;
};

std::string Label(const model::Process& p) {
  return p.rank >= 0 ? fmt::format("r{}", p.rank) : fmt::format("p{}", p.file_id);
}

// One cell's value for the text output: its sort key and its text ("." for none).
struct CellText {
  double key = 0;
  std::string text;
};
using CellFn = std::function<CellText(size_t from, size_t to)>;

void PrintCells(const model::Trace& t, size_t n, const std::string& from_name,
                const std::string& to_name, const CellFn& cell) {
  const auto right = Table::Align::kRight;
  if (n <= kMaxMatrixProcesses) {
    std::vector<Table::Column> columns = {{from_name + " \\ " + to_name}};
    for (size_t j = 0; j < n; ++j)
      columns.push_back({Label(t.processes[j]), right});
    Table table(std::move(columns));
    for (size_t i = 0; i < n; ++i) {
      std::vector<std::string> row = {Label(t.processes[i])};
      for (size_t j = 0; j < n; ++j)
        row.push_back(cell(i, j).text);
      table.AddRow(std::move(row));
    }
    fmt::print("{}", table.Render());
    return;
  }
  struct Pair {
    size_t from, to;
    CellText value;
  };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (CellText c = cell(i, j); c.text != ".") pairs.push_back({i, j, std::move(c)});
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Pair& a, const Pair& b) { return a.value.key > b.value.key; });
  Table table({{from_name}, {to_name}, {"value", right}});
  for (size_t k = 0; k < std::min(pairs.size(), kMaxPairs); ++k)
    table.AddRow(
        {Label(t.processes[pairs[k].from]), Label(t.processes[pairs[k].to]), pairs[k].value.text});
  fmt::print("{}", pairs.empty() ? "  (none)\n" : table.Render());
  if (pairs.size() > kMaxPairs)
    fmt::print("  ({} more pairs not shown)\n", pairs.size() - kMaxPairs);
}

template <typename Value>
ordered_json Grid(size_t n, const Value& value) {
  ordered_json rows = ordered_json::array();
  for (size_t i = 0; i < n; ++i) {
    ordered_json row = ordered_json::array();
    for (size_t j = 0; j < n; ++j)
      row.push_back(value(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

ordered_json ProcessList(const model::Trace& t) {
  ordered_json list = ordered_json::array();
  for (const model::Process& p : t.processes)
    list.push_back(ProcessIdentity(p));
  return list;
}

void PrintMessages(const model::Trace& t, const MatrixOptions& o, const analysis::CommMatrix& m,
                   bool json, const analysis::Selection* selection) {
  const size_t n = m.processes;
  if (json) {
    ordered_json j;
    j["kind"] = "messages";
    if (selection != nullptr) j["selection"] = SelectionJson(t, *selection);
    j["processes"] = ProcessList(t);
    j["messages"] = m.messages;
    j["bytes"] = m.bytes;
    j["count"] = Grid(n, [&](size_t a, size_t b) { return m.at(a, b).count; });
    j["bytes_matrix"] = Grid(n, [&](size_t a, size_t b) { return m.at(a, b).bytes; });
    j["mean_latency_ns"] = Grid(n, [&](size_t a, size_t b) -> ordered_json {
      if (m.at(a, b).count == 0) return nullptr;
      return m.at(a, b).mean_latency_ns;
    });
    j["max_latency_ns"] = Grid(n, [&](size_t a, size_t b) -> ordered_json {
      if (m.at(a, b).count == 0) return nullptr;
      return m.at(a, b).max_latency_ns;
    });
    j["unmatched_sends"] = m.unmatched_sends;
    j["unmatched_recvs"] = m.unmatched_recvs;
    fmt::print("{}\n", j.dump(2, ' ', false, ordered_json::error_handler_t::replace));
    return;
  }
  uint64_t unmatched_sends = 0, unmatched_recvs = 0;
  for (size_t i = 0; i < n; ++i) {
    unmatched_sends += m.unmatched_sends[i];
    unmatched_recvs += m.unmatched_recvs[i];
  }
  const char* what = o.metric == "bytes"     ? "bytes"
                     : o.metric == "latency" ? "mean latency (receive - send time)"
                                             : "messages";
  if (selection != nullptr) fmt::print("{}\n", SelectionText(t, *selection));
  fmt::print("messages: sender (rows) x receiver (columns), {}; {} matched, {}", what,
             FormatCount(m.messages), FormatBytes(m.bytes));
  if (unmatched_sends + unmatched_recvs > 0)
    fmt::print("; unmatched: {} sends, {} receives", FormatCount(unmatched_sends),
               FormatCount(unmatched_recvs));
  fmt::print("\n");
  PrintCells(t, n, "sender", "receiver", [&](size_t a, size_t b) -> CellText {
    const analysis::CommCell& c = m.at(a, b);
    if (c.count == 0) return {0, "."};
    if (o.metric == "bytes") return {static_cast<double>(c.bytes), FormatBytes(c.bytes)};
    if (o.metric == "latency")
      return {c.mean_latency_ns, FormatDuration(std::llround(c.mean_latency_ns))};
    return {static_cast<double>(c.count), FormatCount(c.count)};
  });
}

void PrintRma(const model::Trace& t, const MatrixOptions& o, const analysis::RmaMatrix& m,
              bool json) {
  const size_t n = m.processes;
  if (json) {
    static const char* const kOps[] = {"put", "get", "accumulate", "other"};
    ordered_json j;
    j["kind"] = "rma";
    j["processes"] = ProcessList(t);
    j["operations"] = m.operations;
    j["bytes"] = m.bytes;
    j["unmapped"] = m.unmapped;
    j["count"] = Grid(n, [&](size_t a, size_t b) { return m.at(a, b).count; });
    j["bytes_matrix"] = Grid(n, [&](size_t a, size_t b) { return m.at(a, b).bytes; });
    ordered_json ops;
    for (int op = 0; op < 4; ++op) {
      ops[kOps[op]] = {
          {"count", Grid(n, [&](size_t a, size_t b) { return m.at(a, b).op_count[op]; })},
          {"bytes", Grid(n, [&](size_t a, size_t b) { return m.at(a, b).op_bytes[op]; })}};
    }
    j["ops"] = std::move(ops);
    fmt::print("{}\n", j.dump(2, ' ', false, ordered_json::error_handler_t::replace));
    return;
  }
  fmt::print("one-sided (RMA): origin (rows) x target (columns), {}; {} operations, {}",
             o.metric == "bytes" ? "bytes" : "operations", FormatCount(m.operations),
             FormatBytes(m.bytes));
  if (m.unmapped > 0) fmt::print("; {} with an unknown origin or target", m.unmapped);
  fmt::print("\n");
  PrintCells(t, n, "origin", "target", [&](size_t a, size_t b) -> CellText {
    const analysis::RmaCell& c = m.at(a, b);
    if (c.count == 0) return {0, "."};
    if (o.metric == "bytes") return {static_cast<double>(c.bytes), FormatBytes(c.bytes)};
    return {static_cast<double>(c.count), FormatCount(c.count)};
  });
}

// The same spread over the processes of `parallax-mpi`: each decodes its
// share of the threads and pairs the channels it joins; process 0 prints.
Status MatrixOfGroup(const MatrixOptions& o, const GlobalOptions& global,
                     const format::TraceFile& file) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(file, global));
  PLX_ASSIGN_OR_RETURN(const std::optional<analysis::Selection> selection,
                       ParseSelection(store->trace(), o.selection, "matrix"));
  distributed::Group& group = *global.group;
  if (o.rma) {
    StatusOr<analysis::RmaMatrix> m = [&] {
      LoadProgress drawer(global.progress, "analysing");
      return distributed::SpreadRmaMatrix(*store, group, drawer.Callback());
    }();
    if (!m.ok()) return m.status();
    if (group.rank() == 0) PrintRma(store->trace(), o, *m, o.json);
    return Status::Ok();
  }
  StatusOr<store::StreamedMessages> m = [&] {
    LoadProgress drawer(global.progress, "pairing messages");
    return distributed::SpreadMessages(*store, group, drawer.Callback(),
                                       selection ? &*selection : nullptr);
  }();
  if (!m.ok()) return m.status();
  if (group.rank() == 0)
    PrintMessages(store->trace(), o, m->matrix, o.json, selection ? &*selection : nullptr);
  return Status::Ok();
}

Status RunMatrix(const MatrixOptions& o, const GlobalOptions& global) {
  if (o.rma && o.metric == "latency")
    return InvalidArgument("--metric latency: one-sided operations have no latency");
  if (o.rma && o.selection.any())
    return InvalidArgument(
        "matrix: --rma covers the whole trace; it does not combine with --from, --to, "
        "--processes or --rows");
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  if (global.group != nullptr) return MatrixOfGroup(o, global, *file);
  if (FitsInMemory(*file, global)) {
    PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global));
    PLX_ASSIGN_OR_RETURN(const std::optional<analysis::Selection> selection,
                         ParseSelection(trace, o.selection, "matrix"));
    if (o.rma)
      PrintRma(trace, o, analysis::ComputeRmaMatrix(trace), o.json);
    else
      PrintMessages(trace, o,
                    analysis::ComputeCommMatrix(trace, time::MatchMessages(trace),
                                                selection ? &*selection : nullptr),
                    o.json, selection ? &*selection : nullptr);
    return Status::Ok();
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  PLX_ASSIGN_OR_RETURN(const std::optional<analysis::Selection> selection,
                       ParseSelection(store->trace(), o.selection, "matrix"));
  if (o.rma) {
    const analysis::RmaMatrix m = [&] {
      LoadProgress drawer(global.progress, "analysing");
      return store::StreamRmaMatrix(*store, drawer.Callback());
    }();
    PrintRma(store->trace(), o, m, o.json);
  } else {
    const store::StreamedMessages m = [&] {
      LoadProgress drawer(global.progress, "pairing messages");
      return store::StreamMessages(*store, drawer.Callback(), nullptr,
                                   selection ? &*selection : nullptr);
    }();
    PrintMessages(store->trace(), o, m.matrix, o.json, selection ? &*selection : nullptr);
  }
  return Status::Ok();
}

}  // namespace

Command AddMatrixCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<MatrixOptions>();
  CLI::App* app =
      parent.add_subcommand("matrix", "Communication matrix: messages (or RMA) between processes");
  app->footer(
      "Rows are senders (origins with --rma), columns receivers (targets), labelled r<rank>\n"
      "for MPI processes and p<process> otherwise; '.' means nothing. Messages are the\n"
      "matched send/receive pairs (as `parallax info` counts them); latency is receive time\n"
      "minus send time on the corrected clocks. With more than 16 processes the text lists\n"
      "the 50 largest pairs instead; --json always has the full matrices.\n"
      "\n"
      "Examples:\n"
      "  parallax matrix run.plx\n"
      "  parallax matrix run.plx --metric bytes\n"
      "  parallax matrix run.plx --rma --json\n"
      "  parallax matrix run.plx --from 1s --to 2s --processes 0-7\n"
      "\n"
      "--from/--to (times since the trace begin, both ends included), --processes and\n"
      "--rows keep the messages whose send and receive both fall in them, and the\n"
      "unmatched records that do: the matrix of `parallax cut` of the same window.");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of a matrix (see docs/cli.md)");
  app->add_flag("--rma", o->rma,
                "One-sided operations (MPI_Put/Get/Accumulate) instead of messages");
  app->add_option("--metric", o->metric, "What the text matrix shows")
      ->check(CLI::IsMember({"count", "bytes", "latency"}))
      ->default_str("count");
  AddSelectionOptions(app, &o->selection);
  return {app, [o, &global] { return RunMatrix(*o, global); }};
}

}  // namespace plx::cli
