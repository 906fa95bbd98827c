// `parallax info FILE`: what a trace file holds — the file and its state,
// processes (with their clock correction), threads, definitions, problems —
// with every record decoded so messages can be paired (--quick: definitions and
// chunk index only, instant on any size); --check adds the loader's counters.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/info_notes.h"
#include "cli/json_fields.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/table.h"
#include "cli/trace_input.h"
#include "interop/import_counters.gen.h"
#include "model/tables.h"
#include "store/stream_messages.h"
#include "time/message_pairs.h"

namespace plx::cli {

namespace {

using nlohmann::ordered_json;

struct InfoOptions {
  std::string path;
  bool json = false;
  bool check = false;
  bool quick = false;
};

std::string FileStatus(const format::OpenReport& r) {
  if (r.used_index) return "complete (ends with an index)";
  if (r.truncated) return "cut short (read by scanning, up to the last whole chunk)";
  return "no usable index (read by scanning)";
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", FormatCount(n), n == 1 ? one : many);
}

std::string CategoryName(const model::Trace& t, uint32_t category) {
  return category < t.categories.size() ? t.categories[category].name : "";
}

std::vector<uint64_t> ThreadsPerProcess(const model::Trace& t) {
  std::vector<uint64_t> n(t.processes.size());
  for (const model::Thread& th : t.threads)
    ++n[th.process];
  return n;
}

// Every LoadStats counter by name, in declaration order.
std::vector<std::pair<const char*, uint64_t>> LoaderCounters(const model::LoadStats& s) {
  return {{"records", s.records},
          {"unknown_record_kinds", s.unknown_record_kinds},
          {"leave_without_enter", s.leave_without_enter},
          {"leave_mismatch", s.leave_mismatch},
          {"unclosed_slices", s.unclosed_slices},
          {"undefined_refs", s.undefined_refs},
          {"lost_records", s.lost_records},
          {"damaged_chunks", s.damaged_chunks}};
}

// What decoding every record found: the rows of each table and how the
// messages pair (from the model in memory, or from the trace store).
struct Decoded {
  uint64_t rows[model::kTableCount] = {};
  uint64_t pairs = 0, unmatched_sends = 0, unmatched_recvs = 0;
};

std::vector<std::pair<const char*, uint64_t>> TableSizes(const Decoded& d) {
  return {{"slices", d.rows[0]},          {"instants", d.rows[1]},  {"messages", d.rows[2]},
          {"counter_samples", d.rows[3]}, {"rma", d.rows[4]},       {"controls", d.rows[5]},
          {"collectives", d.rows[6]},     {"recv_posts", d.rows[7]}};
}

constexpr std::string_view kParentPidKey = "parallax.parent_pid";

// Whether the loader moved any process's times onto the reference clock.
bool ClocksCorrected(const model::Trace& t) {
  for (const model::Process& p : t.processes)
    if (p.clock_offset_ns != 0 || p.clock_drift_ppm != 0) return true;
  return false;
}

// Processes with clock offset measurements, and the correction applied.
void PrintClockCorrection(const model::Trace& t) {
  Table table({{"process", Table::Align::kRight},
               {"rank", Table::Align::kRight},
               {"measurements", Table::Align::kRight},
               {"offset", Table::Align::kRight},
               {"drift", Table::Align::kRight},
               {"error", Table::Align::kRight}});
  size_t rows = 0;
  for (const model::Process& p : t.processes) {
    if (p.clock_offsets.empty()) continue;
    uint64_t error = 0;
    for (const model::ClockOffset& m : p.clock_offsets)
      error = std::max(error, m.error_ns);
    table.AddRow({std::to_string(p.file_id), p.rank >= 0 ? std::to_string(p.rank) : "-",
                  std::to_string(p.clock_offsets.size()), FormatDuration(p.clock_offset_ns),
                  p.clock_offsets.size() > 1 ? fmt::format("{:+.3f} ppm", p.clock_drift_ppm) : "-",
                  FormatDuration(static_cast<int64_t>(std::min<uint64_t>(error, INT64_MAX)))});
    ++rows;
  }
  if (rows == 0) return;
  fmt::print("\nclock correction ({}; added to each time, offset at the first measurement)\n{}",
             Plural(rows, "process", "processes"), table.Render());
}

// `path`: as the user gave it (a parts directory is read from its merged copy).
void PrintText(const std::string& path, const format::TraceFile& file, const model::Trace& t,
               bool check, const Decoded* pairs) {
  const format::OpenReport& r = file.report();
  const uint64_t records = file.total_records();
  auto row = [](const char* key, const std::string& value) {
    fmt::print("{:<11} {}\n", key, value);
  };
  row("file", path);
  const std::string size =
      file.size() < 1024
          ? Plural(file.size(), "byte", "bytes")
          : fmt::format("{} ({} bytes)", FormatBytes(file.size()), FormatCount(file.size()));
  row("size", fmt::format("{}, format {}.{}, {}", size, format::kVersionMajor, file.version_minor(),
                          Plural(r.chunks, "chunk", "chunks")));
  row("status", FileStatus(r));
  row("records", records > 0 ? fmt::format("{} ({:.2f} bytes per record)", FormatCount(records),
                                           static_cast<double>(file.size()) / records)
                             : "0");
  row("time span", records > 0
                       ? fmt::format("{} ({} {} .. {} ns)", FormatDuration(t.end_ns - t.begin_ns),
                                     ClocksCorrected(t) ? "reference clock" : "CLOCK_MONOTONIC",
                                     t.begin_ns, t.end_ns)
                       : "-");
  if (pairs != nullptr) {
    row("messages",
        fmt::format("{}, {}, {}", Plural(pairs->pairs, "pair", "pairs"),
                    Plural(pairs->unmatched_sends, "unmatched send", "unmatched sends"),
                    Plural(pairs->unmatched_recvs, "unmatched receive", "unmatched receives")));
  }
  for (const Dropped& d : DroppedByProcess(file))
    row("dropped", fmt::format("{}, {} not written by process {} ({}); the trace ends there",
                               Plural(d.records, "record", "records"),
                               Plural(d.chunks, "chunk", "chunks"), d.process, d.error));
  row("problems",
      t.problems.empty() ? "none" : fmt::format("{} (listed below)", t.problems.size()));

  bool named = false;
  for (const model::Process& p : t.processes)
    named |= !p.name.empty();
  // The parent pid the runtime records: with pid and arguments, the process tree.
  std::vector<std::string> parents(t.processes.size());
  bool any_parent = false;
  for (size_t i = 0; i < t.processes.size(); ++i) {
    auto it = file.processes().find(t.processes[i].file_id);
    if (it != file.processes().end()) parents[i] = AttributeValue(it->second, kParentPidKey);
    any_parent |= !parents[i].empty();
  }
  std::vector<Table::Column> columns = {{"process", Table::Align::kRight},
                                        {"rank", Table::Align::kRight},
                                        {"pid", Table::Align::kRight}};
  if (any_parent) columns.push_back({"parent", Table::Align::kRight});
  for (const char* title : {"host", "threads", "executable", "arguments", named ? "name" : ""})
    columns.push_back(
        {title, std::string_view(title) == "threads" ? Table::Align::kRight : Table::Align::kLeft});
  Table processes(std::move(columns));
  const std::vector<uint64_t> threads = ThreadsPerProcess(t);
  for (size_t i = 0; i < t.processes.size(); ++i) {
    const model::Process& p = t.processes[i];
    std::vector<std::string> cells = {std::to_string(p.file_id),
                                      p.rank >= 0 ? std::to_string(p.rank) : "-",
                                      std::to_string(p.pid)};
    if (any_parent) cells.push_back(parents[i].empty() ? "-" : parents[i]);
    for (std::string cell : {p.host, std::to_string(threads[i]), p.executable, p.arguments, p.name})
      cells.push_back(std::move(cell));
    processes.AddRow(std::move(cells));
  }
  fmt::print("\nprocesses ({})\n{}", t.processes.size(), processes.Render());
  PrintClockCorrection(t);

  Table streams({{"process", Table::Align::kRight},
                 {"stream", Table::Align::kRight},
                 {"tid", Table::Align::kRight},
                 {"name"},
                 {"records", Table::Align::kRight},
                 {"begin", Table::Align::kRight},
                 {"end", Table::Align::kRight},
                 {"duration", Table::Align::kRight}});
  for (const model::Thread& th : t.threads) {
    const bool any = th.records > 0;
    streams.AddRow({std::to_string(t.processes[th.process].file_id), std::to_string(th.file_stream),
                    std::to_string(th.tid), th.name, FormatCount(th.records),
                    any ? FormatDuration(th.begin_ns - t.begin_ns) : "-",
                    any ? FormatDuration(th.end_ns - t.begin_ns) : "-",
                    any ? FormatDuration(th.end_ns - th.begin_ns) : "-"});
  }
  fmt::print("\nthreads ({}; times from the trace begin)\n{}", t.threads.size(), streams.Render());

  fmt::print("\ndefinitions (merged across processes by name)\n  {}, {}, {}, {}, {}, {}\n",
             Plural(t.states.size(), "state", "states"),
             Plural(t.categories.size(), "category", "categories"),
             Plural(t.event_types.size(), "event type", "event types"),
             Plural(t.callsites.size(), "callsite", "callsites"),
             Plural(t.counters.size(), "counter", "counters"),
             Plural(t.communicators.size(), "communicator", "communicators"));

  if (!t.states.empty()) {
    Table states({{"state"}, {"category"}, {"color"}});
    for (const model::State& s : t.states)
      states.AddRow({s.name, CategoryName(t, s.category), FormatColor(s.color)});
    fmt::print("\nstates ({})\n{}", t.states.size(), states.Render());
  }

  // An imported trace: what the importer skipped or repaired, with what each
  // counter means (spec/import_counters.toml).
  const std::vector<Imported> counts = ImportedCounters(file);
  if (!counts.empty()) {
    Table imported(
        {{"import counter"}, {"count", Table::Align::kRight}, {"severity"}, {"what happened"}});
    for (const Imported& c : counts) {
      imported.AddRow({c.name, c.count,
                       c.info != nullptr ? std::string(interop::NameOf(c.info->severity)) : "",
                       c.info != nullptr ? std::string(c.info->description) : ""});
    }
    fmt::print("\nimported (what the importer skipped or repaired; docs/interop.md)\n{}",
               imported.Render());
  }

  // A cut trace: where it was cut and what the cut left out (docs/cut.md).
  const auto cut = CutNotes(file);
  if (!cut.empty()) fmt::print("\ncut (parallax cut; docs/cut.md)\n");
  for (const auto& [process, notes] : cut) {
    std::string line;
    for (const auto& [key, value] : notes)
      line += fmt::format("{}{} {}", line.empty() ? "" : "; ", key, value);
    fmt::print("  process {}: {}\n", process, line);
  }

  if (check) {
    Table counters({{"counter"}, {"value", Table::Align::kRight}});
    for (const auto& [name, value] : TableSizes(*pairs))
      counters.AddRow({name, FormatCount(value)});
    for (const auto& [name, value] : LoaderCounters(t.stats))
      counters.AddRow({name, FormatCount(value)});
    fmt::print("\ncheck (every record decoded)\n{}", counters.Render());
  }

  if (!t.problems.empty()) {
    fmt::print("\nproblems ({})\n", t.problems.size());
    for (const std::string& p : t.problems)
      fmt::print("  {}\n", p);
  }
}

ordered_json Json(const std::string& path, const format::TraceFile& file, const model::Trace& t,
                  bool check, const Decoded* pairs) {
  const format::OpenReport& r = file.report();
  const uint64_t records = file.total_records();
  ordered_json j;
  j["file"] = {
      {"path", path},
      {"size_bytes", file.size()},
      {"format_version", fmt::format("{}.{}", format::kVersionMajor, file.version_minor())},
      {"chunks", r.chunks},
      {"indexed", r.used_index},
      {"recovered", !r.used_index},
      {"truncated", r.truncated},
      {"readable_bytes", r.readable_bytes},
      {"damaged_chunks", r.damaged_chunks},
      {"duplicate_chunks", r.duplicate_chunks},
      {"unknown_chunks", r.unknown_chunks}};
  j["problems"] = t.problems;
  j["dropped"] = ordered_json::array();
  for (const Dropped& d : DroppedByProcess(file))
    j["dropped"].push_back(
        {{"process", d.process}, {"records", d.records}, {"chunks", d.chunks}, {"error", d.error}});
  j["events"] = records;
  j["bytes_per_event"] =
      records > 0 ? ordered_json(static_cast<double>(file.size()) / records) : ordered_json();
  // The model's span: on the reference clock where the loader corrected clocks.
  j["time"] = {
      {"begin_ns", t.begin_ns}, {"end_ns", t.end_ns}, {"duration_ns", t.end_ns - t.begin_ns}};
  auto count = [pairs](uint64_t Decoded::*member) {
    return pairs != nullptr ? ordered_json(pairs->*member) : ordered_json();
  };
  j["messages"] = count(&Decoded::pairs);
  j["unmatched_sends"] = count(&Decoded::unmatched_sends);
  j["unmatched_recvs"] = count(&Decoded::unmatched_recvs);
  const std::vector<uint64_t> threads = ThreadsPerProcess(t);
  j["processes"] = ordered_json::array();
  for (size_t i = 0; i < t.processes.size(); ++i) {
    const model::Process& p = t.processes[i];
    ordered_json e = ProcessIdentity(p);
    auto it = file.processes().find(p.file_id);
    const std::string_view parent =
        it != file.processes().end() ? AttributeValue(it->second, kParentPidKey) : "";
    e["parent_pid"] = parent.empty()
                          ? ordered_json()
                          : ordered_json(std::strtoll(std::string(parent).c_str(), nullptr, 10));
    e["executable"] = p.executable;
    e["arguments"] = p.arguments;
    e["name"] = p.name;
    e["threads"] = threads[i];
    e.update(ProcessClock(p));
    j["processes"].push_back(std::move(e));
  }
  j["streams"] = ordered_json::array();
  for (const model::Thread& th : t.threads) {
    const bool any = th.records > 0;
    ordered_json e = ThreadIdentity(t, th);
    e["events"] = th.records;
    e["begin_ns"] = any ? ordered_json(th.begin_ns) : ordered_json();
    e["end_ns"] = any ? ordered_json(th.end_ns) : ordered_json();
    j["streams"].push_back(std::move(e));
  }
  j["definitions"] = {
      {"states", t.states.size()},           {"categories", t.categories.size()},
      {"event_types", t.event_types.size()}, {"callsites", t.callsites.size()},
      {"counters", t.counters.size()},       {"communicators", t.communicators.size()}};
  j["states"] = ordered_json::array();
  j["state_definitions"] = ordered_json::array();
  for (const model::State& s : t.states) {
    j["states"].push_back(s.name);
    j["state_definitions"].push_back({{"name", s.name},
                                      {"category", CategoryName(t, s.category)},
                                      {"color", s.color ? FormatColor(s.color) : ""}});
  }
  j["imported"] = ordered_json::array();
  for (const Imported& c : ImportedCounters(file)) {
    uint64_t n = 0;
    const char* end = c.count.data() + c.count.size();
    const bool number = !c.count.empty() && std::from_chars(c.count.data(), end, n).ptr == end;
    j["imported"].push_back(
        {{"name", c.name},
         {"count", number ? ordered_json(n) : ordered_json()},
         {"severity", c.info != nullptr ? interop::NameOf(c.info->severity) : ""},
         {"description", c.info != nullptr ? c.info->description : ""}});
  }
  j["cut"] = ordered_json::array();
  for (const auto& [process, notes] : CutNotes(file)) {
    ordered_json c = {{"process", process}};
    for (const auto& [key, value] : notes)
      c[key] = value;
    j["cut"].push_back(std::move(c));
  }
  if (check) {
    ordered_json c;
    for (const auto& [name, value] : TableSizes(*pairs))
      c[name] = value;
    for (const auto& [name, value] : LoaderCounters(t.stats))
      c[name] = value;
    j["check"] = c;
  }
  return j;
}

void Print(const InfoOptions& o, const format::TraceFile& file, const model::Trace& trace,
           const Decoded* decoded) {
  if (o.json) {
    fmt::print("{}\n", Json(o.path, file, trace, o.check, decoded)
                           .dump(2, ' ', false, ordered_json::error_handler_t::replace));
  } else {
    PrintText(o.path, file, trace, o.check, decoded);
  }
}

Status RunInfo(const InfoOptions& o, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  const bool events = o.check || !o.quick;
  if (!events) {
    PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global, false));
    Print(o, *file, trace, nullptr);
    return Status::Ok();
  }
  // Messages are known only when records are decoded.
  Decoded d;
  if (FitsInMemory(*file, global)) {
    PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global));
    const time::MessagePairs pairs = time::MatchMessages(trace);
    size_t i = 0;
    model::ForEachTable(trace, [&](const auto& table) { d.rows[i++] = table.size(); });
    d.pairs = pairs.pairs.size();
    d.unmatched_sends = pairs.unmatched_sends.size();
    d.unmatched_recvs = pairs.unmatched_recvs.size();
    Print(o, *file, trace, &d);
    return Status::Ok();
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  const store::StreamedMessages m = [&] {
    LoadProgress drawer(global.progress, "pairing messages");
    return store::StreamMessages(*store, drawer.Callback());
  }();
  for (size_t i = 0; i < model::kTableCount; ++i)
    d.rows[i] = store->totals().table[i];
  d.pairs = m.pairs;
  d.unmatched_sends = m.unmatched_sends;
  d.unmatched_recvs = m.unmatched_recvs;
  Print(o, *file, store->trace(), &d);
  return Status::Ok();
}

}  // namespace

Command AddInfoCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<InfoOptions>();
  CLI::App* app = parent.add_subcommand("info",
                                        "Describe a trace file: processes, threads, "
                                        "definitions, damage");
  app->footer(
      "Shows the file (size, format version, chunks; whether it is complete, was recovered\n"
      "by scanning, or is cut short, and the problems met), the processes (rank, pid, host,\n"
      "executable, arguments, clock correction), the threads (records and time span), the\n"
      "definitions merged across processes, and the states with their categories and colours.\n"
      "Every record is decoded to pair the messages (--progress shows how far it is);\n"
      "--quick reads only definitions and the chunk index, instant on any file, and leaves\n"
      "the message counts out. --check adds the loader's counters.\n"
      "\n"
      "Examples:\n"
      "  parallax info run.plx\n"
      "  parallax info run.plx --check --json");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of text (see docs/cli.md)");
  app->add_flag("--quick", o->quick,
                "Read only definitions and the chunk index (no message counts)");
  app->add_flag("--check", o->check,
                "Also decode every record: check every chunk, pair messages, show the "
                "loader's counters");
  return {.app = app, .run = [o, &global] { return RunInfo(*o, global); }};
}

}  // namespace plx::cli
