// The Chrome JSON gatherer (see chrome_json_gather.h).
#include "interop/chrome_json/chrome_json_gather.h"

#include <algorithm>

#include "interop/text_file.h"

namespace plx::interop::chrome {

namespace {

bool IsScalar(const JsonValue& v) {
  return v.type != JsonType::kObject && v.type != JsonType::kArray;
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

std::string_view IdText(const JsonValue* v) {
  return v == nullptr ? std::string_view() : v->text;
}

}  // namespace

const JsonValue* Find(const std::vector<JsonMember>& members, std::string_view key) {
  for (const JsonMember& m : members)
    if (m.key == key) return &m.value;
  return nullptr;
}

bool IntOf(const JsonValue* v, int64_t* out) {
  if (v == nullptr || (v->type != JsonType::kNumber && v->type != JsonType::kString)) return false;
  return ParseInt(v->text, out);
}

EventFields FieldsOf(const std::vector<JsonMember>& members) {
  EventFields f;
  for (const JsonMember& m : members) {
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
  return f;
}

void Gatherer::Event(const EventFields& f, const std::vector<JsonMember>& args, int64_t ts,
                     int64_t dur) {
  args_ = &args;
  const std::string_view ph = f.ph->text;
  g_.min_ts = std::min(g_.min_ts, ts);
  const uint32_t name = Intern(f.name);
  const uint32_t cat = Intern(f.cat);
  if (ph.size() != 1) {
    out_.Note(ImportCounter::kChromeUnknownPhase);
    return;
  }
  switch (ph[0]) {
    case 'B':
    case 'E':
    case 'X': {
      const uint32_t thread = ThreadOf(f.pid, f.tid);
      if (ph[0] == 'X') {
        if (f.dur == nullptr) out_.Note(ImportCounter::kChromeCompleteWithoutDur);
        if (dur < 0) {
          out_.Note(ImportCounter::kChromeNegativeDuration);
          dur = 0;
        }
      }
      const Kind kind = ph[0] == 'B' ? Kind::kBegin : ph[0] == 'E' ? Kind::kEnd : Kind::kComplete;
      Push(thread, {ts, dur, name, cat, 0, kind});
      if (f.bind_id != nullptr && (f.flow_in || f.flow_out) && kind != Kind::kEnd) {
        const uint8_t phase = f.flow_in && f.flow_out ? 1 : f.flow_out ? 0 : 2;
        g_.flows.push_back({FlowKey("bind", f.bind_id), phase, ts, thread, flow_seq_++});
      }
      return;
    }
    case 'i':
    case 'I':
    case 'R':
      Instant(ThreadOf(f.pid, f.tid), ts, name, cat);
      return;
    case 'C':
      Counter(f, ThreadOf(f.pid, f.tid), ts, name, cat);
      return;
    case 's':
    case 't':
    case 'f':
      Flow(f, ThreadOf(f.pid, f.tid), ts, cat);
      return;
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
      return;
    }
    case 'O':
    case 'N':
    case 'D':
      out_.Note(ImportCounter::kChromeSkippedObject);
      return;
    case 'P':
      out_.Note(ImportCounter::kChromeSkippedSample);
      return;
    case 'V':
    case 'v':
      out_.Note(ImportCounter::kChromeSkippedMemoryDump);
      return;
    case 'c':
      out_.Note(ImportCounter::kChromeSkippedClockSync);
      return;
    case '(':
    case ')':
      out_.Note(ImportCounter::kChromeSkippedContext);
      return;
    default:
      out_.Note(ImportCounter::kChromeUnknownPhase);
      return;
  }
}

uint32_t Gatherer::Intern(const JsonValue* v) {
  return g_.strings.Intern(StringOf(v));
}

// ---- processes and threads ---------------------------------------------

uint32_t Gatherer::ProcessOf(const JsonValue* pid) {
  const std::string_view key = IdText(pid);
  const char type = pid == nullptr ? '-' : pid->type == JsonType::kString ? 's' : 'n';
  if (last_process_ != kNoThread && key == last_pid_ && type == last_pid_type_)
    return last_process_;
  auto [it, inserted] = process_ids_.try_emplace(std::string(key), 0);
  if (inserted) {
    it->second = static_cast<uint32_t>(g_.processes.size());
    ProcessData p;
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

uint32_t Gatherer::ThreadOf(const JsonValue* pid, const JsonValue* tid) {
  const uint32_t process = ProcessOf(pid);
  const std::string_view tid_text = IdText(tid);
  const char type = tid == nullptr ? '-' : tid->type == JsonType::kString ? 's' : 'n';
  if (last_thread_ != kNoThread && process == last_thread_process_ && tid_text == last_tid_ &&
      type == last_tid_type_) {
    return last_thread_;
  }
  key_.assign(reinterpret_cast<const char*>(&process), sizeof process);
  key_ += type;
  key_ += tid_text;
  auto [it, inserted] = thread_ids_.try_emplace(key_, 0);
  if (inserted) {
    ThreadData t;
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

uint32_t Gatherer::NewThread(ThreadData t) {
  const auto id = static_cast<uint32_t>(g_.threads.size());
  g_.processes[t.process].threads.push_back(id);
  g_.threads.push_back(std::move(t));
  return id;
}

// Async events go to a thread of their own per (process, category, id).
uint32_t Gatherer::AsyncThread(const EventFields& f, uint32_t name) {
  const uint32_t process = ProcessOf(f.pid);
  key_.assign(reinterpret_cast<const char*>(&process), sizeof process);
  key_ += 'a';
  key_ += StringOf(f.cat);
  key_ += '\x1f';
  key_ += IdText(f.id != nullptr ? f.id : f.id2);
  auto [it, inserted] = thread_ids_.try_emplace(key_, 0);
  if (inserted) {
    ThreadData t;
    t.process = process;
    t.name = "async " + std::string(g_.strings[name]);
    it->second = NewThread(std::move(t));
    out_.Note(ImportCounter::kChromeAsyncTracks);
  }
  return it->second;
}

uint32_t Gatherer::FlowKey(std::string_view prefix, const JsonValue* id) {
  key_.assign(prefix);
  key_ += '\x1f';
  key_ += IdText(id);
  return g_.strings.Intern(key_);
}

// ---- payloads -----------------------------------------------------------

void Gatherer::Instant(uint32_t thread, int64_t ts, uint32_t name, uint32_t cat) {
  const std::string_view c = g_.strings[cat];
  if (c == "parallax.collective" && Find(*args_, "op") != nullptr) {
    CollectiveInfo x;
    int64_t op = 13;
    IntOf(Find(*args_, "op"), &op);
    x.op = static_cast<uint8_t>(op);
    x.comm = g_.strings.Intern(StringOf(Find(*args_, "comm")));
    IntOf(Find(*args_, "root"), &x.root);
    U64Of(Find(*args_, "sent"), &x.sent);
    U64Of(Find(*args_, "received"), &x.received);
    Push(thread,
         {ts, 0, name, cat, static_cast<uint32_t>(g_.collectives.size()), Kind::kCollective});
    g_.collectives.push_back(x);
    return;
  }
  if (c == "parallax.rma" && Find(*args_, "op") != nullptr) {
    RmaInfo x;
    int64_t op = 3;
    IntOf(Find(*args_, "op"), &op);
    x.op = static_cast<uint8_t>(op);
    x.comm = g_.strings.Intern(StringOf(Find(*args_, "comm")));
    IntOf(Find(*args_, "origin"), &x.origin);
    IntOf(Find(*args_, "target"), &x.target);
    U64Of(Find(*args_, "bytes"), &x.bytes);
    Push(thread, {ts, 0, name, cat, static_cast<uint32_t>(g_.rmas.size()), Kind::kRma});
    g_.rmas.push_back(x);
    return;
  }
  if (c == "parallax.recv_post" && Find(*args_, "peer") != nullptr) {
    RecvPostInfo x;
    x.comm = g_.strings.Intern(StringOf(Find(*args_, "comm")));
    IntOf(Find(*args_, "peer"), &x.peer);
    IntOf(Find(*args_, "tag"), &x.tag);
    U64Of(Find(*args_, "match"), &x.match);
    Push(thread, {ts, 0, name, cat, static_cast<uint32_t>(g_.recv_posts.size()), Kind::kRecvPost});
    g_.recv_posts.push_back(x);
    return;
  }
  // The value of a single scalar argument; other arguments are dropped.
  InstantValue v;
  if (args_->size() == 1 && IsScalar((*args_)[0].value)) {
    const JsonValue& a = (*args_)[0].value;
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
void Gatherer::Counter(const EventFields& f, uint32_t thread, int64_t ts, uint32_t name,
                       uint32_t cat) {
  std::string base(g_.strings[name]);
  if (f.id != nullptr) base += "[" + std::string(f.id->text) + "]";
  for (const JsonMember& a : *args_) {
    CounterSample s;
    if (a.value.type != JsonType::kNumber) {
      out_.Note(ImportCounter::kChromeCounterNotANumber);
      continue;
    }
    if (!(IsInteger(a.value.text) && ParseInt(a.value.text, &s.i))) {
      s.is_int = false;
      if (!ParseDouble(a.value.text, &s.d)) {
        out_.Note(ImportCounter::kChromeCounterNotANumber);
        continue;
      }
    }
    const uint32_t series = args_->size() == 1 ? g_.strings.Intern(base)
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
void Gatherer::Flow(const EventFields& f, uint32_t thread, int64_t ts, uint32_t cat) {
  const char ph = f.ph->text[0];
  if (Find(*args_, "peer") != nullptr && ph != 't') {
    MessageInfo m;
    m.comm = g_.strings.Intern(StringOf(Find(*args_, "comm")));
    IntOf(Find(*args_, "peer"), &m.peer);
    IntOf(Find(*args_, "tag"), &m.tag);
    U64Of(Find(*args_, "bytes"), &m.bytes);
    U64Of(Find(*args_, "match"), &m.match);
    U64Of(Find(*args_, "clock"), &m.clock);
    Push(thread, {ts, 0, 0, 0, static_cast<uint32_t>(g_.messages.size()),
                  ph == 's' ? Kind::kSend : Kind::kRecv});
    g_.messages.push_back(m);
    return;
  }
  if (f.id == nullptr && f.id2 == nullptr) {
    out_.Note(ImportCounter::kChromeFlowWithoutId);
    return;
  }
  const uint8_t phase = ph == 's' ? 0 : ph == 't' ? 1 : 2;
  g_.flows.push_back(
      {FlowKey(g_.strings[cat], f.id != nullptr ? f.id : f.id2), phase, ts, thread, flow_seq_++});
}

void Gatherer::Metadata(const EventFields& f, const std::vector<JsonMember>& args) {
  args_ = &args;
  const std::string_view what = StringOf(f.name);
  if (what == "thread_name" || what == "thread_sort_index") {
    const uint32_t t = ThreadOf(f.pid, f.tid);
    if (what == "thread_name") g_.threads[t].name = std::string(StringOf(Find(*args_, "name")));
    return;
  }
  ProcessData& p = g_.processes[ProcessOf(f.pid)];
  if (what == "process_name") {
    p.info.name = std::string(StringOf(Find(*args_, "name")));
  } else if (what == "process_labels") {
    p.labels = std::string(StringOf(Find(*args_, "labels")));
  } else if (what == "parallax_process") {
    IntOf(Find(*args_, "rank"), &p.info.rank);
    U64Of(Find(*args_, "pid"), &p.info.pid);
    p.info.host = std::string(StringOf(Find(*args_, "host")));
    p.info.executable = std::string(StringOf(Find(*args_, "executable")));
    p.info.arguments = std::string(StringOf(Find(*args_, "arguments")));
    IntOf(Find(*args_, "realtime_minus_monotonic_ns"), &p.info.realtime_minus_monotonic_ns);
  } else if (what == "parallax_communicator") {
    CommDef c;
    c.name = g_.strings.Intern(StringOf(Find(*args_, "name")));
    int64_t kind = 0;
    IntOf(Find(*args_, "kind"), &kind);
    c.kind = kind == 1 ? 1 : 0;
    U64Of(Find(*args_, "global_id"), &c.global_id);
    const JsonValue* members = Find(*args_, "members");
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
}

}  // namespace plx::interop::chrome
