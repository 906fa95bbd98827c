// ImportChromeJson: streams the top-level array (the file itself, or the
// value of "traceEvents") one event object at a time, keeps each event as a
// compact struct on its thread, and writes everything once the file is read
// (events in a JSON trace are not sorted). See docs/interop.md.
#include <sys/stat.h>

#include "interop/chrome_json/chrome_json.h"
#include "interop/chrome_json/chrome_json_events.h"
#include "interop/chrome_json/chrome_json_scan.h"
#include "interop/text_file.h"

namespace plx::interop {

namespace {

using chrome::Event;
using chrome::JsonMember;
using chrome::JsonType;
using chrome::JsonValue;
using chrome::Kind;

constexpr uint64_t kProgressStep = 16 << 20;

bool IsScalar(const JsonValue& v) {
  return v.type != JsonType::kObject && v.type != JsonType::kArray;
}

const JsonValue* Find(const std::vector<JsonMember>& members, std::string_view key) {
  for (const JsonMember& m : members)
    if (m.key == key) return &m.value;
  return nullptr;
}

// An integer from a number or a string holding one.
bool IntOf(const JsonValue* v, int64_t* out) {
  if (v == nullptr || (v->type != JsonType::kNumber && v->type != JsonType::kString)) return false;
  return ParseInt(v->text, out);
}

bool U64Of(const JsonValue* v, uint64_t* out) {
  if (v == nullptr || (v->type != JsonType::kNumber && v->type != JsonType::kString)) return false;
  return ParseUint(v->text, out);
}

std::string_view StringOf(const JsonValue* v) {
  return v != nullptr && v->type == JsonType::kString ? v->text : std::string_view();
}

bool IsInteger(std::string_view number) {
  return number.find_first_of(".eE") == std::string_view::npos;
}

class Reader {
 public:
  Reader(const std::string& path, TraceBuilder& out, const Progress& progress)
      : path_(path), out_(out), progress_(progress) {}

  Status Run() {
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0) file_size_ = static_cast<uint64_t>(st.st_size);
    if (!in_.Open(path_, file_size_)) return InputError(path_, "", "", in_.error());
    PLX_RETURN_IF_ERROR(Top());
    if (progress_) progress_(file_size_, file_size_);
    chrome::PairFlows(g_, out_);
    chrome::Feed(g_, out_);
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
    if (IntOf(Find(members_, "parallax_time_base_ns"), &base)) {
      if (base >= 0 && base < (int64_t{1} << 60)) {
        g_.base_ns = base;
      } else {
        out_.Note("chrome.bad_time_base");
      }
    }
    return Status::Ok();
  }

  // ---- one event --------------------------------------------------------

  struct Fields {
    const JsonValue* ph = nullptr;
    const JsonValue* name = nullptr;
    const JsonValue* cat = nullptr;
    const JsonValue* pid = nullptr;
    const JsonValue* tid = nullptr;
    const JsonValue* ts = nullptr;
    const JsonValue* dur = nullptr;
    const JsonValue* id = nullptr;
    const JsonValue* id2 = nullptr;
    const JsonValue* args = nullptr;
    const JsonValue* bind_id = nullptr;
    bool flow_in = false, flow_out = false;
  };

  Status OneEvent(std::string_view text, uint64_t at) {
    if (!parser_.Parse(text, at, &members_))
      return Error(parser_.error_offset(), "", parser_.error());
    Fields f;
    for (const JsonMember& m : members_) {
      const std::string_view k = m.key;
      const JsonValue* v = &m.value;
      if (k == "ph") {
        f.ph = v;
      } else if (k == "name") {
        f.name = v;
      } else if (k == "cat") {
        f.cat = v;
      } else if (k == "pid") {
        f.pid = v;
      } else if (k == "tid") {
        f.tid = v;
      } else if (k == "ts") {
        f.ts = v;
      } else if (k == "dur") {
        f.dur = v;
      } else if (k == "id") {
        f.id = v;
      } else if (k == "id2") {
        f.id2 = v;
      } else if (k == "args") {
        f.args = v;
      } else if (k == "bind_id") {
        f.bind_id = v;
      } else if (k == "flow_in") {
        f.flow_in = v->type == JsonType::kTrue;
      } else if (k == "flow_out") {
        f.flow_out = v->type == JsonType::kTrue;
      }
    }
    auto is_text = [](const JsonValue* v) {
      return v == nullptr || v->type == JsonType::kString || v->type == JsonType::kNull;
    };
    auto is_id = [](const JsonValue* v) {
      return v == nullptr || v->type == JsonType::kString || v->type == JsonType::kNumber;
    };
    if (f.ph == nullptr) {
      out_.Note("chrome.unknown_phase");
      return Status::Ok();
    }
    if (f.ph->type != JsonType::kString) return Error(f.ph->offset, "ph", "not a string");
    if (!is_text(f.name)) return Error(f.name->offset, "name", "not a string");
    if (!is_text(f.cat)) return Error(f.cat->offset, "cat", "not a string");
    if (!is_id(f.pid)) return Error(f.pid->offset, "pid", "not a number or string");
    if (!is_id(f.tid)) return Error(f.tid->offset, "tid", "not a number or string");
    if (f.args != nullptr) {
      if (f.args->type == JsonType::kObject) {
        if (!args_parser_.Parse(f.args->text, f.args->offset, &args_))
          return Error(args_parser_.error_offset(), "args", args_parser_.error());
      } else {
        f.args = nullptr;
      }
    }
    if (f.args == nullptr) args_.clear();
    const std::string_view ph = f.ph->text;
    if (ph == "M") return Metadata(f);
    int64_t ts = 0;
    if (f.ts == nullptr) {
      out_.Note("chrome.missing_ts");
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
    g_.min_ts = std::min(g_.min_ts, ts);
    const uint32_t name = Intern(f.name);
    const uint32_t cat = Intern(f.cat);
    if (ph.size() != 1) {
      out_.Note("chrome.unknown_phase");
      return Status::Ok();
    }
    switch (ph[0]) {
      case 'B':
      case 'E':
      case 'X': {
        const uint32_t thread = ThreadOf(f.pid, f.tid);
        if (ph[0] == 'X') {
          if (f.dur == nullptr) out_.Note("chrome.complete_without_dur");
          if (dur < 0) {
            out_.Note("chrome.negative_duration");
            dur = 0;
          }
        }
        const Kind kind = ph[0] == 'B' ? Kind::kBegin : ph[0] == 'E' ? Kind::kEnd : Kind::kComplete;
        Push(thread, {ts, dur, name, cat, 0, kind});
        if (f.bind_id != nullptr && (f.flow_in || f.flow_out) && kind != Kind::kEnd) {
          const uint8_t phase = f.flow_in && f.flow_out ? 1 : f.flow_out ? 0 : 2;
          g_.flows.push_back({FlowKey("bind", f.bind_id), phase, ts, thread, flow_seq_++});
        }
        return Status::Ok();
      }
      case 'i':
      case 'I':
      case 'R':
        Instant(ThreadOf(f.pid, f.tid), ts, name, cat);
        return Status::Ok();
      case 'C':
        Counter(f, ThreadOf(f.pid, f.tid), ts, name, cat);
        return Status::Ok();
      case 's':
      case 't':
      case 'f':
        Flow(f, ThreadOf(f.pid, f.tid), ts, cat);
        return Status::Ok();
      case 'b':
      case 'e':
      case 'n':
      case 'S':
      case 'F':
      case 'T':
      case 'p': {
        const uint32_t thread = AsyncThread(f, name);
        if (ph[0] == 'b' || ph[0] == 'S') {
          Push(thread, {ts, 0, name, cat, 0, Kind::kBegin});
        } else if (ph[0] == 'e' || ph[0] == 'F') {
          Push(thread, {ts, 0, name, cat, 0, Kind::kEnd});
        } else {
          Instant(thread, ts, name, cat);
        }
        return Status::Ok();
      }
      case 'O':
      case 'N':
      case 'D':
        out_.Note("chrome.skipped.object");
        return Status::Ok();
      case 'P':
        out_.Note("chrome.skipped.sample");
        return Status::Ok();
      case 'V':
      case 'v':
        out_.Note("chrome.skipped.memory_dump");
        return Status::Ok();
      case 'c':
        out_.Note("chrome.skipped.clock_sync");
        return Status::Ok();
      case '(':
      case ')':
        out_.Note("chrome.skipped.context");
        return Status::Ok();
      default:
        out_.Note("chrome.unknown_phase");
        return Status::Ok();
    }
  }

  uint32_t Intern(const JsonValue* v) { return g_.strings.Intern(StringOf(v)); }

  void Push(uint32_t thread, const Event& e) { g_.threads[thread].events.push_back(e); }

  // ---- processes and threads ---------------------------------------------

  static std::string_view IdText(const JsonValue* v) {
    return v == nullptr ? std::string_view() : v->text;
  }

  uint32_t ProcessOf(const JsonValue* pid) {
    const std::string_view key = IdText(pid);
    const char type = pid == nullptr ? '-' : pid->type == JsonType::kString ? 's' : 'n';
    if (last_process_ != chrome::kNoThread && key == last_pid_ && type == last_pid_type_)
      return last_process_;
    auto [it, inserted] = process_ids_.try_emplace(std::string(key), 0);
    if (inserted) {
      it->second = static_cast<uint32_t>(g_.processes.size());
      chrome::ProcessData p;
      uint64_t n = 0;
      if (pid != nullptr && pid->type == JsonType::kString) {
        p.info.name = std::string(key);
      } else if (U64Of(pid, &n)) {
        p.info.pid = n;
      }
      g_.processes.push_back(std::move(p));
    }
    last_pid_.assign(key);
    last_pid_type_ = type;
    last_process_ = it->second;
    return it->second;
  }

  uint32_t ThreadOf(const JsonValue* pid, const JsonValue* tid) {
    const uint32_t process = ProcessOf(pid);
    const std::string_view tid_text = IdText(tid);
    const char type = tid == nullptr ? '-' : tid->type == JsonType::kString ? 's' : 'n';
    if (last_thread_ != chrome::kNoThread && process == last_thread_process_ &&
        tid_text == last_tid_ && type == last_tid_type_) {
      return last_thread_;
    }
    key_.assign(reinterpret_cast<const char*>(&process), sizeof process);
    key_ += type;
    key_ += tid_text;
    auto [it, inserted] = thread_ids_.try_emplace(key_, 0);
    if (inserted) {
      chrome::ThreadData t;
      t.process = process;
      uint64_t n = 0;
      if (tid != nullptr && tid->type == JsonType::kString) {
        t.name = std::string(tid_text);
      } else if (U64Of(tid, &n)) {
        t.tid = n;
      }
      it->second = NewThread(std::move(t));
    }
    last_thread_process_ = process;
    last_tid_.assign(tid_text);
    last_tid_type_ = type;
    last_thread_ = it->second;
    return it->second;
  }

  uint32_t NewThread(chrome::ThreadData t) {
    const auto id = static_cast<uint32_t>(g_.threads.size());
    g_.processes[t.process].threads.push_back(id);
    g_.threads.push_back(std::move(t));
    return id;
  }

  // Async events go to a thread of their own per (process, category, id).
  uint32_t AsyncThread(const Fields& f, uint32_t name) {
    const uint32_t process = ProcessOf(f.pid);
    key_.assign(reinterpret_cast<const char*>(&process), sizeof process);
    key_ += 'a';
    key_ += StringOf(f.cat);
    key_ += '\x1f';
    key_ += IdText(f.id != nullptr ? f.id : f.id2);
    auto [it, inserted] = thread_ids_.try_emplace(key_, 0);
    if (inserted) {
      chrome::ThreadData t;
      t.process = process;
      t.name = "async " + std::string(g_.strings[name]);
      it->second = NewThread(std::move(t));
      out_.Note("chrome.async_tracks");
    }
    return it->second;
  }

  uint32_t FlowKey(std::string_view prefix, const JsonValue* id) {
    key_.assign(prefix);
    key_ += '\x1f';
    key_ += IdText(id);
    return g_.strings.Intern(key_);
  }

  // ---- payloads -----------------------------------------------------------

  void Instant(uint32_t thread, int64_t ts, uint32_t name, uint32_t cat) {
    const std::string_view c = g_.strings[cat];
    if (c == "parallax.collective" && Find(args_, "op") != nullptr) {
      chrome::CollectiveInfo x;
      int64_t op = 13;
      IntOf(Find(args_, "op"), &op);
      x.op = static_cast<uint8_t>(op);
      x.comm = g_.strings.Intern(StringOf(Find(args_, "comm")));
      IntOf(Find(args_, "root"), &x.root);
      U64Of(Find(args_, "sent"), &x.sent);
      U64Of(Find(args_, "received"), &x.received);
      Push(thread,
           {ts, 0, name, cat, static_cast<uint32_t>(g_.collectives.size()), Kind::kCollective});
      g_.collectives.push_back(x);
      return;
    }
    if (c == "parallax.rma" && Find(args_, "op") != nullptr) {
      chrome::RmaInfo x;
      int64_t op = 3;
      IntOf(Find(args_, "op"), &op);
      x.op = static_cast<uint8_t>(op);
      x.comm = g_.strings.Intern(StringOf(Find(args_, "comm")));
      IntOf(Find(args_, "origin"), &x.origin);
      IntOf(Find(args_, "target"), &x.target);
      U64Of(Find(args_, "bytes"), &x.bytes);
      Push(thread, {ts, 0, name, cat, static_cast<uint32_t>(g_.rmas.size()), Kind::kRma});
      g_.rmas.push_back(x);
      return;
    }
    if (c == "parallax.recv_post" && Find(args_, "peer") != nullptr) {
      chrome::RecvPostInfo x;
      x.comm = g_.strings.Intern(StringOf(Find(args_, "comm")));
      IntOf(Find(args_, "peer"), &x.peer);
      IntOf(Find(args_, "tag"), &x.tag);
      U64Of(Find(args_, "match"), &x.match);
      Push(thread,
           {ts, 0, name, cat, static_cast<uint32_t>(g_.recv_posts.size()), Kind::kRecvPost});
      g_.recv_posts.push_back(x);
      return;
    }
    // The value of a single scalar argument; other arguments are dropped.
    chrome::InstantValue v;
    if (args_.size() == 1 && IsScalar(args_[0].value)) {
      const JsonValue& a = args_[0].value;
      switch (a.type) {
        case JsonType::kNumber:
          if (IsInteger(a.text) && ParseInt(a.text, &v.i)) {
            v.kind = model::ValueKind::kInt;
          } else if (ParseDouble(a.text, &v.d)) {
            v.kind = model::ValueKind::kDouble;
          }
          break;
        case JsonType::kString:
          v.kind = model::ValueKind::kString;
          v.text = g_.texts.size();
          v.text_size = static_cast<uint32_t>(std::min<size_t>(a.text.size(), UINT32_MAX));
          g_.texts.append(a.text.substr(0, v.text_size));
          break;
        case JsonType::kTrue:
        case JsonType::kFalse:
          v.kind = model::ValueKind::kInt;
          v.i = a.type == JsonType::kTrue;
          break;
        default:
          break;
      }
    }
    Push(thread, {ts, 0, name, cat, static_cast<uint32_t>(g_.instants.size()), Kind::kInstant});
    g_.instants.push_back(v);
  }

  // Each argument is a series: "<name>.<key>", or "<name>" for a single one;
  // an id makes it "<name>[<id>]..." (catapult's instance counters).
  void Counter(const Fields& f, uint32_t thread, int64_t ts, uint32_t name, uint32_t cat) {
    std::string base(g_.strings[name]);
    if (f.id != nullptr) base += "[" + std::string(f.id->text) + "]";
    for (const JsonMember& a : args_) {
      chrome::CounterSample s;
      if (a.value.type != JsonType::kNumber) {
        out_.Note("chrome.counter_not_a_number");
        continue;
      }
      if (!(IsInteger(a.value.text) && ParseInt(a.value.text, &s.i))) {
        s.is_int = false;
        if (!ParseDouble(a.value.text, &s.d)) {
          out_.Note("chrome.counter_not_a_number");
          continue;
        }
      }
      const uint32_t series = args_.size() == 1
                                  ? g_.strings.Intern(base)
                                  : g_.strings.Intern(base + "." + std::string(a.key));
      auto [it, inserted] = counter_ids_.try_emplace(series, 0);
      if (inserted) {
        it->second = static_cast<uint32_t>(g_.counters.size());
        g_.counters.push_back({series, cat, false});
      }
      s.counter = it->second;
      g_.counters[s.counter].is_double |= !s.is_int;
      Push(thread,
           {ts, 0, series, cat, static_cast<uint32_t>(g_.counter_samples.size()), Kind::kCounter});
      g_.counter_samples.push_back(s);
    }
  }

  // A flow event that carries a message of ours becomes that send or
  // receive; any other joins the flow points paired after reading.
  void Flow(const Fields& f, uint32_t thread, int64_t ts, uint32_t cat) {
    const char ph = f.ph->text[0];
    if (Find(args_, "peer") != nullptr && ph != 't') {
      chrome::MessageInfo m;
      m.comm = g_.strings.Intern(StringOf(Find(args_, "comm")));
      IntOf(Find(args_, "peer"), &m.peer);
      IntOf(Find(args_, "tag"), &m.tag);
      U64Of(Find(args_, "bytes"), &m.bytes);
      U64Of(Find(args_, "match"), &m.match);
      U64Of(Find(args_, "clock"), &m.clock);
      Push(thread, {ts, 0, 0, 0, static_cast<uint32_t>(g_.messages.size()),
                    ph == 's' ? Kind::kSend : Kind::kRecv});
      g_.messages.push_back(m);
      return;
    }
    if (f.id == nullptr && f.id2 == nullptr) {
      out_.Note("chrome.flow_without_id");
      return;
    }
    const uint8_t phase = ph == 's' ? 0 : ph == 't' ? 1 : 2;
    g_.flows.push_back(
        {FlowKey(g_.strings[cat], f.id != nullptr ? f.id : f.id2), phase, ts, thread, flow_seq_++});
  }

  Status Metadata(const Fields& f) {
    const std::string_view what = StringOf(f.name);
    if (what == "thread_name" || what == "thread_sort_index") {
      const uint32_t t = ThreadOf(f.pid, f.tid);
      if (what == "thread_name") g_.threads[t].name = std::string(StringOf(Find(args_, "name")));
      return Status::Ok();
    }
    chrome::ProcessData& p = g_.processes[ProcessOf(f.pid)];
    if (what == "process_name") {
      p.info.name = std::string(StringOf(Find(args_, "name")));
    } else if (what == "process_labels") {
      p.labels = std::string(StringOf(Find(args_, "labels")));
    } else if (what == "parallax_process") {
      IntOf(Find(args_, "rank"), &p.info.rank);
      U64Of(Find(args_, "pid"), &p.info.pid);
      p.info.host = std::string(StringOf(Find(args_, "host")));
      p.info.executable = std::string(StringOf(Find(args_, "executable")));
      p.info.arguments = std::string(StringOf(Find(args_, "arguments")));
      IntOf(Find(args_, "realtime_minus_monotonic_ns"), &p.info.realtime_minus_monotonic_ns);
    } else if (what == "parallax_communicator") {
      chrome::CommDef c;
      c.name = g_.strings.Intern(StringOf(Find(args_, "name")));
      int64_t kind = 0;
      IntOf(Find(args_, "kind"), &kind);
      c.kind = kind == 1 ? 1 : 0;
      U64Of(Find(args_, "global_id"), &c.global_id);
      const JsonValue* members = Find(args_, "members");
      if (members != nullptr && members->type == JsonType::kArray) {
        // "[0, 1, 2]": integers between the brackets.
        std::string_view rest = members->text.substr(1, members->text.size() - 2);
        while (!rest.empty()) {
          const size_t comma = rest.find(',');
          std::string_view item = rest.substr(0, comma);
          while (!item.empty() && (item.front() == ' ' || item.front() == '\n'))
            item.remove_prefix(1);
          while (!item.empty() && (item.back() == ' ' || item.back() == '\n'))
            item.remove_suffix(1);
          int64_t rank = 0;
          if (ParseInt(item, &rank)) c.members.push_back(rank);
          if (comma == std::string_view::npos) break;
          rest.remove_prefix(comma + 1);
        }
      }
      p.comms.push_back(std::move(c));
    }
    return Status::Ok();
  }

  const std::string& path_;
  TraceBuilder& out_;
  const Progress& progress_;
  chrome::JsonStream in_;
  uint64_t file_size_ = 0;
  chrome::ObjectParser parser_, args_parser_;
  std::vector<JsonMember> members_, args_;
  chrome::Gathered g_;
  std::unordered_map<std::string, uint32_t> process_ids_, thread_ids_;
  std::unordered_map<uint32_t, uint32_t> counter_ids_;  // series name -> Gathered::counters
  std::string key_;
  uint32_t flow_seq_ = 0;
  // The last process and thread looked up (events come in runs).
  std::string last_pid_, last_tid_;
  char last_pid_type_ = 0, last_tid_type_ = 0;
  uint32_t last_process_ = chrome::kNoThread, last_thread_ = chrome::kNoThread;
  uint32_t last_thread_process_ = 0;
};

}  // namespace

Status ImportChromeJson(const std::string& path, TraceBuilder& out, const Progress& progress) {
  return Reader(path, out, progress).Run();
}

}  // namespace plx::interop
