// ImportPaje: reads a Paje trace file (ViTE, PajeNG) through a TraceBuilder.
// Two passes over the file: the first reads the %EventDef header
// (paje_defs.h) and finds what the second needs ahead, both ends of every link
// (an end may come before its start) and whether each variable and event
// type holds integers; the second checks each event line against its
// definition and hands it to the Builder (paje_builder.h), which writes the
// trace. The mapping onto processes and threads is described in
// docs/interop.md.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "base/strings.h"
#include "interop/paje/paje.h"
#include "interop/paje/paje_builder.h"
#include "interop/paje/paje_defs.h"
#include "interop/text_file.h"

namespace plx::interop {

namespace {

using paje::EventDef;
using paje::Field;
using paje::FieldType;
using paje::Kind;

class Reader {
 public:
  Reader(const std::string& path, TraceBuilder& out, const Progress& progress)
      : progress_(progress), where_{path, 0}, builder_(out, ahead_) {}

  Status Run() {
    const std::string path(where_.path);
    PLX_ASSIGN_OR_RETURN(FILE * f, OpenInput(path, &size_));
    Status s = Pass(f, 1);
    if (s.ok() && !content_) s = InputError(path, "", "", "empty input");
    if (s.ok()) {
      std::rewind(f);
      ahead_.Finish();
      s = Pass(f, 2);
    }
    std::fclose(f);
    if (!s.ok()) return s;
    builder_.CloseAll(last_ns_);
    return Status::Ok();
  }

 private:
  Status Error(std::string_view field, std::string_view what) const {
    return where_.Error(field, what);
  }

  Status Pass(FILE* f, int pass) {
    LineReader lines(f);
    std::string_view line;
    where_.line = 0;
    uint64_t next_report = 0;
    while (lines.Next(&line)) {
      ++where_.line;
      if (progress_ && lines.consumed() >= next_report) {
        progress_((pass - 1) * size_ + lines.consumed(), 2 * size_);
        next_report = lines.consumed() + (4 << 20);
      }
      size_t i = 0;
      while (i < line.size() && IsSpace(line[i]))
        ++i;
      if (i == line.size() || line[i] == '#') continue;
      content_ = true;
      if (line[i] == '%') {
        if (pass == 1) {
          PLX_RETURN_IF_ERROR(Split(line.substr(i + 1)));
          PLX_RETURN_IF_ERROR(defs_.HeaderLine(fields_, where_));
        }
        continue;
      }
      if (defs_.open()) return Error("%EventDef", "not closed by %EndEventDef");
      PLX_RETURN_IF_ERROR(pass == 1 ? LookAhead(line.substr(i)) : EventLine(line.substr(i)));
    }
    if (lines.too_long()) {
      ++where_.line;
      return Error("", StrFormat("line longer than %zu MiB", LineReader::kMaxLine >> 20));
    }
    if (defs_.open()) return Error("%EventDef", "not closed by %EndEventDef");
    return Status::Ok();
  }

  // Splits `line` into fields_: words and "quoted strings" ('quoted' too).
  Status Split(std::string_view line) {
    switch (fields_.Split(line)) {
      case LineFields::Result::kOk:
        return Status::Ok();
      case LineFields::Result::kTooMany:
        return Error("", "more than 64 fields");
      case LineFields::Result::kUnterminated:
        return Error("", "unterminated quoted string");
    }
    return Status::Ok();
  }

  // Splits an event line and finds its definition; fields_ are then the
  // fields after the event id.
  Status Fields(std::string_view line, const EventDef** def) {
    PLX_RETURN_IF_ERROR(Split(line));
    const EventDef* d = defs_.Find(fields_[0]);
    if (d == nullptr) return Error("event id", "unknown " + std::string(fields_[0]));
    const size_t n = fields_.size() - 1;
    if (n < d->fields.size()) return Error(d->fields[n].name, "missing (line has too few fields)");
    if (n > d->fields.size()) return Error("", "more fields than the event definition has");
    fields_.DropFirst();
    *def = d;
    return Status::Ok();
  }

  // The first pass reads of the events only what the second needs ahead.
  Status LookAhead(std::string_view line) {
    size_t n = 0;
    while (n < line.size() && !IsSpace(line[n]))
      ++n;
    const EventDef* id_def = defs_.Find(line.substr(0, n));
    if (id_def == nullptr) return Error("event id", "unknown " + std::string(line.substr(0, n)));
    const Kind k = id_def->kind;
    if (k != Kind::kStartLink && k != Kind::kEndLink && k != Kind::kSetVariable &&
        k != Kind::kAddVariable && k != Kind::kSubVariable && k != Kind::kNewEvent) {
      return Status::Ok();
    }
    const EventDef* d;
    PLX_RETURN_IF_ERROR(Fields(line, &d));
    if (k == Kind::kStartLink || k == Kind::kEndLink) {
      const bool start = k == Kind::kStartLink;
      ahead_.Link(start, d->Of(fields_, paje::kKey),
                  d->Of(fields_, start ? paje::kStartContainer : paje::kEndContainer));
    } else {
      ahead_.Value(d->Of(fields_, paje::kType), d->Of(fields_, paje::kValue));
    }
    return Status::Ok();
  }

  Status EventLine(std::string_view line) {
    const EventDef* d;
    PLX_RETURN_IF_ERROR(Fields(line, &d));
    int64_t ns = 0;
    if (d->at[paje::kTime] >= 0) {
      const std::string_view time_field = d->NameOf(paje::kTime);
      if (!ParseSeconds(d->Of(fields_, paje::kTime), &ns)) return Error(time_field, "bad time");
      if (ns < 0) return Error(time_field, "negative time");
      last_ns_ = std::max(last_ns_, ns);
    }
    // Extra numeric fields must hold numbers.
    for (size_t i = 0; i < d->fields.size(); ++i) {
      const Field& fld = d->fields[i];
      if (fld.role != paje::kExtra && fld.role != paje::kTag && fld.role != paje::kSize) continue;
      int64_t iv;
      double dv;
      if (fld.type == FieldType::kInt && !ParseInt(fields_[i], &iv, Plus::kAccepted))
        return Error(fld.name, "bad integer");
      if (fld.type == FieldType::kDouble && !ParseDouble(fields_[i], &dv, Plus::kAccepted)) {
        return Error(fld.name, "bad number");
      }
    }
    return builder_.Event(*d, fields_, ns, where_);
  }

  const Progress& progress_;
  paje::Where where_;
  uint64_t size_ = 0;
  bool content_ = false;  // a line other than blanks and comments
  LineFields fields_{{.quotes = "\"'"}};
  int64_t last_ns_ = 0;
  paje::Definitions defs_;
  paje::Lookahead ahead_;
  paje::Builder builder_;
};

}  // namespace

Status ImportPaje(const std::string& path, TraceBuilder& out, const Progress& progress) {
  Reader reader(path, out, progress);
  return reader.Run();
}

}  // namespace plx::interop
