// `parallax dump FILE`: records as text or JSON Lines, merged across streams
// in time order. Streams straight from the reader (only chunks overlapping the
// time range are decoded, one at a time per stream), so it works on files far
// bigger than memory; fields are decoded generically from the KindInfo tables.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <set>

#include "cli/command.h"
#include "cli/output.h"
#include "cli/ref_names.h"
#include "cli/time_arg.h"
#include "cli/trace_input.h"
#include "format/generic_record.h"

namespace plx::cli {

namespace {

struct DumpOptions {
  std::string path;
  bool json = false;
  std::optional<uint32_t> process;
  std::optional<uint32_t> stream;
  std::vector<std::string> kinds;
  std::string from, to;
  uint64_t limit = 0;  // 0 = no limit
};

// Reads one stream's records in order, chunk by chunk, within the time range.
class StreamCursor {
 public:
  StreamCursor(const format::TraceFile& file, const format::StreamInfo& stream, int64_t from_ns,
               int64_t to_ns)
      : file_(file),
        stream_(stream),
        clock_(file.clock(stream.process)),
        names_(file.processes().at(stream.process)),
        chunks_(file.ChunksInRange(stream, from_ns, to_ns)) {}

  /// Moves to the next record; false at the end. Damage becomes a warning.
  bool Next() {
    for (;;) {
      if (payload_.empty() || pos_ >= payload_.size()) {
        if (!LoadChunk()) return false;
        continue;
      }
      if (format::NextRecord(format::Framing::kEvents, payload_.data(),
                             payload_.data() + payload_.size(), &pos_, tick_, &record_)) {
        tick_ = record_.tick;
        time_ns_ = clock_.ToNs(tick_, &hint_);
        return true;
      }
      Damage(pos_, payload_[pos_], "length");
    }
  }

  /// Reports a damaged record at `offset` and skips the rest of the chunk.
  void Damage(size_t offset, uint8_t kind, const char* field) {
    format::DecodeError error{offset, kind, field};
    Warn(file_.RecordError(*chunks_[chunk_ - 1], error).message() + " (rest of chunk skipped)");
    payload_ = {};
  }

  const format::FramedRecord& record() const { return record_; }
  int64_t time_ns() const { return time_ns_; }
  uint32_t process() const { return stream_.process; }
  uint32_t stream() const { return stream_.stream; }
  const RefNames& names() const { return names_; }

 private:
  bool LoadChunk() {
    while (chunk_ < chunks_.size()) {
      const format::ChunkInfo& c = *chunks_[chunk_++];
      Status s = file_.ReadPayload(c, &scratch_, &payload_);
      if (!s.ok()) {
        Warn(s.message() + " (chunk skipped)");
        payload_ = {};
        continue;
      }
      pos_ = 0;
      tick_ = c.header.tick_begin;
      if (!payload_.empty()) return true;
    }
    return false;
  }

  const format::TraceFile& file_;
  const format::StreamInfo& stream_;
  const format::TickClock& clock_;
  RefNames names_;
  std::vector<const format::ChunkInfo*> chunks_;
  size_t chunk_ = 0;
  std::vector<uint8_t> scratch_;
  std::span<const uint8_t> payload_;
  size_t pos_ = 0;
  uint64_t tick_ = 0;
  size_t hint_ = 0;
  format::FramedRecord record_;
  int64_t time_ns_ = 0;
};

// Formats records as text lines or JSON Lines into a buffer flushed to stdout.
class RecordPrinter {
 public:
  RecordPrinter(bool json, int64_t begin_ns, size_t where_width)
      : json_(json), begin_ns_(begin_ns), where_width_(where_width) {}
  ~RecordPrinter() { Flush(); }

  /// Prints the cursor's record; false when its fields are damaged (nothing printed).
  bool Print(StreamCursor& c) {
    const format::FramedRecord& r = c.record();
    const format::KindInfo* kind = format::EventKindInfo(r.kind);
    if (kind != nullptr) {
      if (const char* bad = format::DecodeFields(*kind, r.body, r.size, &fields_)) {
        c.Damage(r.offset, r.kind, bad);
        return false;
      }
    }
    const int64_t rel = c.time_ns() - begin_ns_;
    if (json_) {
      fmt::format_to(std::back_inserter(out_), R"({{"time_ns":{},"process":{},"stream":{},)", rel,
                     c.process(), c.stream());
      if (kind == nullptr) {
        fmt::format_to(std::back_inserter(out_), R"("kind":"unknown","kind_id":{},"bytes":{}}})",
                       r.kind, r.size);
      } else {
        fmt::format_to(std::back_inserter(out_), R"("kind":"{}")", kind->name);
        for (const format::FieldValue& f : fields_)
          JsonField(c, f);
        out_.push_back('}');
      }
    } else {
      const std::string where = fmt::format("{}/{}", c.process(), c.stream());
      const std::string kind_name =
          kind ? std::string(kind->name) : fmt::format("unknown({})", r.kind);
      fmt::format_to(std::back_inserter(out_), "{}{}.{:09}  {:<{}}  {:<14}", rel < 0 ? "-" : "",
                     std::abs(rel) / 1000000000, std::abs(rel) % 1000000000, where, where_width_,
                     kind_name);
      if (kind == nullptr) {
        fmt::format_to(std::back_inserter(out_), " bytes={}", r.size);
      } else {
        for (const format::FieldValue& f : fields_)
          TextField(c, f);
      }
      while (out_.size() > 0 && out_[out_.size() - 1] == ' ')
        out_.resize(out_.size() - 1);
    }
    out_.push_back('\n');
    if (out_.size() > (1 << 16)) Flush();
    return true;
  }

  void Flush() {
    std::fwrite(out_.data(), 1, out_.size(), stdout);
    out_.clear();
  }

 private:
  void TextField(const StreamCursor& c, const format::FieldValue& f) {
    auto out = std::back_inserter(out_);
    fmt::format_to(out, " {}=", f.info->name);
    switch (f.info->type) {
      case format::FieldType::kU:
        if (f.info->ref != nullptr) {
          std::optional<std::string> name = c.names().Name(f.info->ref, f.u);
          fmt::format_to(out, "{}", name ? *name : "-");
        } else {
          fmt::format_to(out, "{}", f.u);
        }
        break;
      case format::FieldType::kS:
        fmt::format_to(out, "{}", f.s);
        break;
      case format::FieldType::kF64:
        fmt::format_to(out, "{}", f.f);
        break;
      case format::FieldType::kStr:
        fmt::format_to(out, "{}", JsonString(f.text));
        break;
    }
  }

  void JsonField(const StreamCursor& c, const format::FieldValue& f) {
    auto out = std::back_inserter(out_);
    switch (f.info->type) {
      case format::FieldType::kU:
        if (f.info->ref != nullptr) {
          std::optional<std::string> name = c.names().Name(f.info->ref, f.u);
          fmt::format_to(out, R"(,"{}":{},"{}_id":{})", f.info->name,
                         name ? JsonString(*name) : "null", f.info->name, f.u);
        } else {
          fmt::format_to(out, R"(,"{}":{})", f.info->name, f.u);
        }
        break;
      case format::FieldType::kS:
        fmt::format_to(out, R"(,"{}":{})", f.info->name, f.s);
        break;
      case format::FieldType::kF64:
        if (std::isfinite(f.f))
          fmt::format_to(out, R"(,"{}":{})", f.info->name, f.f);
        else
          fmt::format_to(out, R"(,"{}":null)", f.info->name);
        break;
      case format::FieldType::kStr:
        fmt::format_to(out, R"(,"{}":{})", f.info->name, JsonString(f.text));
        break;
    }
  }

  bool json_;
  int64_t begin_ns_;
  size_t where_width_;
  fmt::memory_buffer out_;
  std::vector<format::FieldValue> fields_;
};

// A kind name from the spec, or a number for kinds this build does not know.
std::optional<uint8_t> KindId(const std::string& name) {
  for (const format::KindInfo& k : format::kEventKinds)
    if (name == k.name) return k.id;
  if (!name.empty() && name.size() <= 3 && name.find_first_not_of("0123456789") == name.npos &&
      std::stoi(name) <= 255)
    return static_cast<uint8_t>(std::stoi(name));
  return std::nullopt;
}

Status RunDump(const DumpOptions& o, const GlobalOptions& global) {
  int64_t from = 0, to = std::numeric_limits<int64_t>::max();
  if (!o.from.empty()) ParseDuration(o.from, &from);  // validated by the option's check
  if (!o.to.empty()) ParseDuration(o.to, &to);
  if (from > to) throw CLI::ValidationError("--from", "must not be after --to");
  std::set<uint8_t> kinds;
  for (const std::string& k : o.kinds)
    kinds.insert(*KindId(k));

  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  const int64_t begin = file->begin_ns();
  const int64_t from_ns = begin + from;
  const int64_t to_ns = to > std::numeric_limits<int64_t>::max() - begin
                            ? std::numeric_limits<int64_t>::max()
                            : begin + to;

  std::vector<std::unique_ptr<StreamCursor>> cursors;
  size_t where_width = 0;
  for (const format::StreamInfo& s : file->streams()) {
    if (o.process && s.process != *o.process) continue;
    if (o.stream && s.stream != *o.stream) continue;
    cursors.push_back(std::make_unique<StreamCursor>(*file, s, from_ns, to_ns));
    where_width = std::max(where_width, fmt::formatted_size("{}/{}", s.process, s.stream));
  }
  if (cursors.empty() && (o.process || o.stream))
    return NotFound(fmt::format("{}: no stream matches{}{}", o.path,
                                o.process ? fmt::format(" --process {}", *o.process) : "",
                                o.stream ? fmt::format(" --stream {}", *o.stream) : ""));

  // Merge by (time, process, stream); each cursor offers its next record.
  auto later = [&](size_t a, size_t b) {
    const StreamCursor& x = *cursors[a];
    const StreamCursor& y = *cursors[b];
    return std::make_tuple(x.time_ns(), x.process(), x.stream()) >
           std::make_tuple(y.time_ns(), y.process(), y.stream());
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  auto advance = [&](size_t i) {
    while (cursors[i]->Next()) {
      if (cursors[i]->time_ns() > to_ns) return;
      if (cursors[i]->time_ns() >= from_ns) {
        heap.push(i);
        return;
      }
    }
  };
  for (size_t i = 0; i < cursors.size(); ++i)
    advance(i);

  RecordPrinter printer(o.json, begin, where_width);
  uint64_t printed = 0;
  while (!heap.empty() && (o.limit == 0 || printed < o.limit)) {
    const size_t i = heap.top();
    heap.pop();
    StreamCursor& c = *cursors[i];
    if (kinds.empty() || kinds.count(c.record().kind)) printed += printer.Print(c) ? 1 : 0;
    advance(i);
  }
  return Status::Ok();
}

}  // namespace

Command AddDumpCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<DumpOptions>();
  CLI::App* app = parent.add_subcommand("dump", "Print records as text or JSON Lines");
  app->footer(
      "One record per line, merged across streams in time order: the time since the trace\n"
      "begin (seconds.nanoseconds), process/stream, the kind, and its fields by name, with ids\n"
      "resolved to names (- for none). Kinds this build does not know print as unknown(K)\n"
      "with their body size. Only the chunks in the time range are read, one at a time per\n"
      "stream, so this works on files of any size.\n"
      "\n"
      "Examples:\n"
      "  parallax dump run.plx --process 0 --from 1ms --to 2ms\n"
      "  parallax dump run.plx --kind send,recv --json | jq .bytes");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print JSON Lines: one object per record (see docs/cli.md)");
  app->add_option("--process", o->process, "Only records of this process (its number in the file)");
  app->add_option("--stream", o->stream, "Only records of streams with this id");
  app->add_option("--kind", o->kinds,
                  "Only these kinds, comma-separated (enter,leave,...; a number: an unknown kind)")
      ->delimiter(',')
      ->check([](const std::string& k) {
        return KindId(k) ? std::string() : "unknown record kind '" + k + "'";
      });
  app->add_option("--from", o->from,
                  "Start this long after the trace begin (a number with ns/us/ms/s; bare = ns)")
      ->check(DurationProblem);
  app->add_option("--to", o->to, "End at this time after the trace begin (inclusive)")
      ->check(DurationProblem);
  app->add_option("--limit", o->limit, "Print at most N records (0 = no limit)")
      ->check(CLI::NonNegativeNumber);
  return {app, [o, &global] { return RunDump(*o, global); }};
}

}  // namespace plx::cli
