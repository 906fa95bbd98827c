// ImportChromeJson: streams the top-level array (the file itself, or the
// value of "traceEvents") one event object at a time and checks its members;
// the Gatherer (chrome_json_gather.h) keeps each event as a compact struct on
// its thread, and everything is written once the file is read (events in a
// JSON trace are not sorted). See docs/interop.md.
#include <sys/stat.h>

#include "interop/chrome_json/chrome_json.h"
#include "interop/chrome_json/chrome_json_events.h"
#include "interop/chrome_json/chrome_json_gather.h"
#include "interop/chrome_json/chrome_json_scan.h"
#include "interop/text_file.h"

namespace plx::interop {

namespace {

using chrome::EventFields;
using chrome::JsonMember;
using chrome::JsonType;
using chrome::JsonValue;

constexpr uint64_t kProgressStep = 16 << 20;

class Reader {
 public:
  Reader(const std::string& path, TraceBuilder& out, const Progress& progress)
      : path_(path), out_(out), progress_(progress), gather_(out) {}

  Status Run() {
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0) file_size_ = static_cast<uint64_t>(st.st_size);
    if (!in_.Open(path_, file_size_)) return InputError(path_, "", "", in_.error());
    PLX_RETURN_IF_ERROR(Top());
    if (progress_) progress_(file_size_, file_size_);
    chrome::PairFlows(gather_.gathered(), out_);
    chrome::Feed(gather_.gathered(), out_);
    return Status::Ok();
  }

 private:
  Status Error(uint64_t offset, std::string_view field, std::string_view what) {
    return InputError(path_, "offset " + std::to_string(offset), field, what);
  }
  Status StreamError() {
    return Error(in_.error_offset(), "", in_.error().empty() ? "bad JSON" : in_.error());
  }
  Status EndError(const char* what) {
    return in_.error().empty() ? Error(in_.offset(), "", what) : StreamError();
  }

  Status Top() {
    int c = in_.Peek();
    if (c == 0xef) {  // a UTF-8 byte order mark
      for (int i = 0; i < 3; ++i)
        in_.Advance();
      c = in_.Peek();
    }
    if (c == '[') {
      PLX_RETURN_IF_ERROR(EventArray(true));
    } else if (c == '{') {
      PLX_RETURN_IF_ERROR(TopObject());
    } else if (c < 0) {
      return EndError("empty input");
    } else {
      return Error(in_.offset(), "", "not a JSON trace (expected '[' or '{')");
    }
    if (in_.Peek() >= 0) return Error(in_.offset(), "", "unexpected data after the trace");
    if (!in_.error().empty()) return StreamError();
    return Status::Ok();
  }

  Status TopObject() {
    in_.Advance();
    if (in_.Peek() == '}') {
      in_.Advance();
      return Status::Ok();
    }
    for (;;) {
      int c = in_.Peek();
      if (c != '"') {
        return c < 0 ? EndError("unexpected end of input")
                     : Error(in_.offset(), "", "expected a member name");
      }
      std::string_view text;
      uint64_t at = 0;
      if (!in_.Cut(&text, &at)) return StreamError();
      const std::string key(text.substr(1, text.size() - 2));
      if (in_.Peek() != ':') return EndError("expected ':'");
      in_.Advance();
      c = in_.Peek();
      if (key == "traceEvents") {
        if (c != '[') return Error(in_.offset(), "traceEvents", "not an array");
        PLX_RETURN_IF_ERROR(EventArray(false));
      } else if (key == "otherData" && c == '{') {
        if (!in_.Cut(&text, &at)) return StreamError();
        PLX_RETURN_IF_ERROR(OtherData(text, at));
      } else if (c < 0) {
        return EndError("unexpected end of input");
      } else if (!in_.Skip()) {
        return StreamError();
      }
      c = in_.Peek();
      if (c == ',') {
        in_.Advance();
      } else if (c == '}') {
        in_.Advance();
        return Status::Ok();
      } else {
        return c < 0 ? EndError("unexpected end of input")
                     : Error(in_.offset(), "", "expected ',' or '}'");
      }
    }
  }

  // The array of events; the array form of a file may lack its closing ']'.
  Status EventArray(bool whole_file) {
    in_.Advance();
    uint64_t next_progress = kProgressStep;
    for (;;) {
      int c = in_.Peek();
      if (c == ']') {
        in_.Advance();
        return Status::Ok();
      }
      if (c < 0) {
        if (whole_file && in_.error().empty()) return Status::Ok();
        return EndError("unexpected end of input in traceEvents");
      }
      if (c != '{') return Error(in_.offset(), "traceEvents", "an element is not an object");
      std::string_view text;
      uint64_t at = 0;
      if (!in_.Cut(&text, &at)) return StreamError();
      PLX_RETURN_IF_ERROR(OneEvent(text, at));
      if (progress_ && in_.offset() >= next_progress) {
        progress_(std::min(in_.file_offset(), file_size_), file_size_);
        next_progress = in_.offset() + kProgressStep;
      }
      c = in_.Peek();
      if (c == ',') {
        in_.Advance();
      } else if (c == ']') {
        in_.Advance();
        return Status::Ok();
      } else if (c < 0 && whole_file && in_.error().empty()) {
        return Status::Ok();
      } else {
        return c < 0 ? EndError("unexpected end of input in traceEvents")
                     : Error(in_.offset(), "", "expected ',' or ']'");
      }
    }
  }

  Status OtherData(std::string_view text, uint64_t at) {
    if (!parser_.Parse(text, at, &members_))
      return Error(parser_.error_offset(), "otherData", parser_.error());
    int64_t base = 0;
    if (chrome::IntOf(chrome::Find(members_, "parallax_time_base_ns"), &base)) {
      if (base >= 0 && base < (int64_t{1} << 60)) {
        gather_.gathered().base_ns = base;
      } else {
        out_.Note(ImportCounter::kChromeBadTimeBase);
      }
    }
    return Status::Ok();
  }

  // ---- one event --------------------------------------------------------

  Status OneEvent(std::string_view text, uint64_t at) {
    if (!parser_.Parse(text, at, &members_))
      return Error(parser_.error_offset(), "", parser_.error());
    const EventFields f = chrome::FieldsOf(members_);
    auto is_text = [](const JsonValue* v) {
      return v == nullptr || v->type == JsonType::kString || v->type == JsonType::kNull;
    };
    auto is_id = [](const JsonValue* v) {
      return v == nullptr || v->type == JsonType::kString || v->type == JsonType::kNumber;
    };
    if (f.ph == nullptr) {
      out_.Note(ImportCounter::kChromeUnknownPhase);
      return Status::Ok();
    }
    if (f.ph->type != JsonType::kString) return Error(f.ph->offset, "ph", "not a string");
    if (!is_text(f.name)) return Error(f.name->offset, "name", "not a string");
    if (!is_text(f.cat)) return Error(f.cat->offset, "cat", "not a string");
    if (!is_id(f.pid)) return Error(f.pid->offset, "pid", "not a number or string");
    if (!is_id(f.tid)) return Error(f.tid->offset, "tid", "not a number or string");
    if (f.args != nullptr && f.args->type == JsonType::kObject) {
      if (!args_parser_.Parse(f.args->text, f.args->offset, &args_))
        return Error(args_parser_.error_offset(), "args", args_parser_.error());
    } else {
      args_.clear();  // arguments other than an object are ignored
    }
    if (f.ph->text == "M") {
      gather_.Metadata(f, args_);
      return Status::Ok();
    }
    int64_t ts = 0;
    if (f.ts == nullptr) {
      out_.Note(ImportCounter::kChromeMissingTs);
      return Status::Ok();
    }
    if (f.ts->type != JsonType::kNumber) return Error(f.ts->offset, "ts", "not a number");
    if (!chrome::MicrosToNanos(f.ts->text, &ts)) return Error(f.ts->offset, "ts", "out of range");
    int64_t dur = 0;
    if (f.dur != nullptr) {
      if (f.dur->type != JsonType::kNumber) return Error(f.dur->offset, "dur", "not a number");
      if (!chrome::MicrosToNanos(f.dur->text, &dur))
        return Error(f.dur->offset, "dur", "out of range");
    }
    gather_.Event(f, args_, ts, dur);
    return Status::Ok();
  }

  const std::string& path_;
  TraceBuilder& out_;
  const Progress& progress_;
  chrome::JsonStream in_;
  uint64_t file_size_ = 0;
  chrome::ObjectParser parser_, args_parser_;
  std::vector<JsonMember> members_, args_;
  chrome::Gatherer gather_;
};

}  // namespace

Status ImportChromeJson(const std::string& path, TraceBuilder& out, const Progress& progress) {
  return Reader(path, out, progress).Run();
}

}  // namespace plx::interop
