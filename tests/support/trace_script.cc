// Trace scripts: tokenise each line, keep per-process name -> id tables, and
// hand definitions and records to format::TraceWriter.
#include "support/trace_script.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "base/strings.h"
#include "base/varint.h"
#include "format/trace_writer.h"

namespace plx::testing {

namespace {

using format::TraceWriter;

struct Line {
  int number = 0;
  std::vector<std::string> words;         // positional words, the verb first
  std::map<std::string, std::string> kv;  // key=value words
};

// Per process: names defined so far, and the value kind of types and counters.
struct ProcessNames {
  std::map<std::string, uint64_t> strings, categories, states, event_types, counters, comms;
  std::map<uint64_t, uint64_t> event_type_kind, counter_kind;
  uint64_t next_string = 1, next_category = 1000;
};

Status LineError(const Line& l, const std::string& what) {
  return InvalidArgument(StrFormat("trace script line %d: %s", l.number, what.c_str()));
}

bool ParseNumber(const std::string& s, int64_t* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtoll(s.c_str(), &end, 0);
  return *end == 0;
}

bool Tokenise(std::string_view text, Line* line) {
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      ++i;
      continue;
    }
    if (text[i] == '#') break;
    std::string word;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') {
      if (text[i] == '"') {
        size_t close = text.find('"', i + 1);
        if (close == std::string_view::npos) return false;
        word.append(text.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        word += text[i++];
      }
    }
    size_t eq = word.find('=');
    if (eq != std::string::npos && eq > 0 && line->words.size() > 0)
      line->kv[word.substr(0, eq)] = word.substr(eq + 1);
    else
      line->words.push_back(std::move(word));
  }
  return true;
}

class ScriptWriter {
 public:
  explicit ScriptWriter(TraceWriter* w) : w_(w) {}
  Status Apply(const Line& l);

 private:
  Status Num(const Line& l, size_t pos, int64_t* out) {
    if (pos >= l.words.size() || !ParseNumber(l.words[pos], out))
      return LineError(l, StrFormat("word %zu must be a number", pos + 1));
    return Status::Ok();
  }
  Status Key(const Line& l, const char* key, int64_t* out, bool required) {
    auto it = l.kv.find(key);
    if (it == l.kv.end()) {
      if (required) return LineError(l, StrFormat("needs %s=", key));
      return Status::Ok();
    }
    if (!ParseNumber(it->second, out)) return LineError(l, StrFormat("%s= must be a number", key));
    return Status::Ok();
  }
  std::string Get(const Line& l, const char* key) const {
    auto it = l.kv.find(key);
    return it == l.kv.end() ? std::string() : it->second;
  }
  uint64_t Str(uint32_t p, const std::string& s) {
    if (s.empty()) return 0;
    ProcessNames& n = names_[p];
    auto [it, inserted] = n.strings.try_emplace(s, n.next_string);
    if (inserted) w_->Def(p, format::StringDef{n.next_string++, s});
    return it->second;
  }
  uint64_t Category(uint32_t p, const std::string& name) {
    if (name.empty()) return 0;
    ProcessNames& n = names_[p];
    auto it = n.categories.find(name);
    if (it != n.categories.end()) return it->second;
    const uint64_t id = n.next_category++;
    n.categories[name] = id;
    w_->Def(p, format::CategoryDef{id, Str(p, name)});
    return id;
  }
  // A name defined in `table`, or a raw id number.
  Status Ref(const Line& l, const std::map<std::string, uint64_t>& table, const std::string& word,
             uint64_t* id) {
    auto it = table.find(word);
    if (it != table.end()) {
      *id = it->second;
      return Status::Ok();
    }
    int64_t v;
    if (!ParseNumber(word, &v)) return LineError(l, "undefined name " + word);
    *id = static_cast<uint64_t>(v);
    return Status::Ok();
  }
  // members=0,1,2 as the uvarints CommunicatorDef::members holds.
  Status Members(const Line& l, std::string* out) {
    const std::string text = Get(l, "members");
    std::string_view rest = text;
    uint8_t buf[10];
    while (!rest.empty()) {
      int64_t rank;
      if (!ParseNumber(std::string(NextToken(&rest, ',')), &rank) || rank < 0)
        return LineError(l, "members= must be ranks separated by commas");
      const uint8_t* end = PutUvarint(buf, static_cast<uint64_t>(rank));
      out->append(reinterpret_cast<const char*>(buf), static_cast<size_t>(end - buf));
    }
    return Status::Ok();
  }
  Status Record(const Line& l, uint32_t p, uint32_t s, uint64_t t);

  TraceWriter* w_;
  std::map<uint32_t, ProcessNames> names_;
};

uint64_t KindNumber(const std::string& kind) {
  if (kind == "int") return 1;
  if (kind == "double") return 2;
  if (kind == "string") return 3;
  return 0;
}

Status ScriptWriter::Apply(const Line& l) {
  const std::string& verb = l.words[0];
  int64_t p = 0;
  PLX_RETURN_IF_ERROR(Num(l, 1, &p));
  const uint32_t pid = static_cast<uint32_t>(p);
  ProcessNames& n = names_[pid];
  if (verb == "process") {
    format::ProcessDef d;
    int64_t v = 0;
    PLX_RETURN_IF_ERROR(Key(l, "pid", &v, false));
    d.pid = static_cast<uint64_t>(v);
    v = -1;
    PLX_RETURN_IF_ERROR(Key(l, "rank", &v, false));
    d.rank = v;
    d.host = Str(pid, Get(l, "host"));
    d.executable = Str(pid, Get(l, "exe"));
    d.arguments = Str(pid, Get(l, "args"));
    d.name = Str(pid, Get(l, "name"));
    w_->Def(pid, d);
    return Status::Ok();
  }
  if (verb == "clock") {
    format::ClockDef d;
    int64_t v = 0;
    auto tsc = l.kv.find("tsc");
    if (tsc != l.kv.end()) {
      d.domain = 1;
      d.ticks_per_second = std::strtod(tsc->second.c_str(), nullptr);
    }
    PLX_RETURN_IF_ERROR(Key(l, "realtime", &v, false));
    d.realtime_ns = static_cast<uint64_t>(v);
    v = 0;
    PLX_RETURN_IF_ERROR(Key(l, "monotonic", &v, false));
    d.monotonic_ns = static_cast<uint64_t>(v);
    w_->Def(pid, d);
    return Status::Ok();
  }
  if (verb == "sync") {
    int64_t tick = 0, ns = 0;
    PLX_RETURN_IF_ERROR(Key(l, "tick", &tick, true));
    PLX_RETURN_IF_ERROR(Key(l, "ns", &ns, true));
    w_->Def(pid, format::ClockSyncDef{static_cast<uint64_t>(tick), static_cast<uint64_t>(ns)});
    return Status::Ok();
  }
  if (verb == "attribute") {
    if (l.words.size() != 4) return LineError(l, "attribute needs a key and a value");
    w_->Def(pid, format::AttributeDef{Str(pid, l.words[2]), Str(pid, l.words[3])});
    return Status::Ok();
  }
  int64_t second = 0;
  PLX_RETURN_IF_ERROR(Num(l, 2, &second));
  const uint64_t id = static_cast<uint64_t>(second);
  if (verb == "thread") {
    int64_t tid = 0;
    PLX_RETURN_IF_ERROR(Key(l, "tid", &tid, false));
    w_->Def(pid, format::StreamDef{id, static_cast<uint64_t>(tid), Str(pid, Get(l, "name"))});
    return Status::Ok();
  }
  const bool is_def = verb == "category" || verb == "state" || verb == "event_type" ||
                      verb == "callsite" || verb == "counter_def" || verb == "comm";
  if (is_def) {
    if (l.words.size() < 4) return LineError(l, verb + " needs a name");
    const std::string& name = l.words[3];
    if (verb == "category") {
      n.categories[name] = id;
      w_->Def(pid, format::CategoryDef{id, Str(pid, name)});
    } else if (verb == "state") {
      uint64_t color = 0;
      std::string c = Get(l, "color");
      if (!c.empty()) color = (1u << 24) | std::strtoul(c.c_str() + (c[0] == '#'), nullptr, 16);
      n.states[name] = id;
      w_->Def(pid, format::StateDef{id, Str(pid, name), Category(pid, Get(l, "category")), color});
    } else if (verb == "event_type") {
      std::string kind = Get(l, "kind");
      n.event_types[name] = id;
      n.event_type_kind[id] = kind.empty() ? 1 : KindNumber(kind);
      w_->Def(pid, format::EventTypeDef{id, Str(pid, name), Category(pid, Get(l, "category")),
                                        n.event_type_kind[id]});
    } else if (verb == "callsite") {
      int64_t line = 0;
      PLX_RETURN_IF_ERROR(Num(l, 4, &line));
      w_->Def(pid, format::CallsiteDef{id, Str(pid, name), static_cast<uint64_t>(line),
                                       Str(pid, Get(l, "function"))});
    } else if (verb == "counter_def") {
      n.counters[name] = id;
      n.counter_kind[id] = Get(l, "kind") == "double" ? 2 : 1;
      w_->Def(pid, format::CounterDef{id, Str(pid, name), Str(pid, Get(l, "unit")),
                                      n.counter_kind[id], Category(pid, Get(l, "category"))});
    } else {
      n.comms[name] = id;
      int64_t global = 0;
      PLX_RETURN_IF_ERROR(Key(l, "global", &global, false));
      std::string members;
      PLX_RETURN_IF_ERROR(Members(l, &members));
      w_->Def(pid,
              format::CommunicatorDef{id, Str(pid, name), Get(l, "kind") == "streams" ? 1u : 0u,
                                      static_cast<uint64_t>(global), members});
    }
    return Status::Ok();
  }
  int64_t t = 0;
  PLX_RETURN_IF_ERROR(Key(l, "t", &t, true));
  return Record(l, pid, static_cast<uint32_t>(id), static_cast<uint64_t>(t));
}

Status ScriptWriter::Record(const Line& l, uint32_t p, uint32_t s, uint64_t t) {
  const std::string& verb = l.words[0];
  ProcessNames& n = names_[p];
  auto num = [&](const char* key, int64_t* v) { return Key(l, key, v, true); };
  if (verb == "enter" || verb == "leave") {
    if (l.words.size() < 4) return LineError(l, verb + " needs a state");
    uint64_t state;
    PLX_RETURN_IF_ERROR(Ref(l, n.states, l.words[3], &state));
    if (verb == "leave") {
      w_->Event(p, s, t, format::LeaveRecord{state});
      return Status::Ok();
    }
    int64_t callsite = 0;
    PLX_RETURN_IF_ERROR(Key(l, "callsite", &callsite, false));
    w_->Event(p, s, t, format::EnterRecord{state, static_cast<uint64_t>(callsite)});
    return Status::Ok();
  }
  if (verb == "event") {
    if (l.words.size() < 4) return LineError(l, "event needs a type");
    uint64_t type;
    PLX_RETURN_IF_ERROR(Ref(l, n.event_types, l.words[3], &type));
    int64_t callsite = 0;
    PLX_RETURN_IF_ERROR(Key(l, "callsite", &callsite, false));
    const uint64_t cs = static_cast<uint64_t>(callsite);
    const std::string value = Get(l, "value");
    auto kind = n.event_type_kind.find(type);
    const uint64_t k = kind == n.event_type_kind.end() ? 1 : kind->second;
    if (k == 3) {
      w_->Event(p, s, t, format::EventStringRecord{type, cs, value});
    } else if (k == 2) {
      w_->Event(p, s, t, format::EventDoubleRecord{type, cs, std::strtod(value.c_str(), nullptr)});
    } else {
      int64_t v = 0;
      if (!value.empty() && !ParseNumber(value, &v)) return LineError(l, "value= not a number");
      w_->Event(p, s, t, format::EventIntRecord{type, cs, v});
    }
    return Status::Ok();
  }
  if (verb == "send" || verb == "recv") {
    uint64_t comm = 0;
    PLX_RETURN_IF_ERROR(Ref(l, n.comms, Get(l, "comm"), &comm));
    int64_t peer, tag, bytes, clock = 0, match = 0;
    PLX_RETURN_IF_ERROR(num("peer", &peer));
    PLX_RETURN_IF_ERROR(num("tag", &tag));
    PLX_RETURN_IF_ERROR(num("bytes", &bytes));
    PLX_RETURN_IF_ERROR(Key(l, "clock", &clock, false));
    PLX_RETURN_IF_ERROR(Key(l, "match", &match, false));
    if (verb == "send")
      w_->Event(p, s, t,
                format::SendRecord{comm, peer, tag, static_cast<uint64_t>(bytes),
                                   static_cast<uint64_t>(clock), static_cast<uint64_t>(match)});
    else
      w_->Event(p, s, t,
                format::RecvRecord{comm, peer, tag, static_cast<uint64_t>(bytes),
                                   static_cast<uint64_t>(clock), static_cast<uint64_t>(match)});
    return Status::Ok();
  }
  if (verb == "collective") {
    uint64_t comm = 0;
    PLX_RETURN_IF_ERROR(Ref(l, n.comms, Get(l, "comm"), &comm));
    int64_t op, root = -1, sent = 0, received = 0;
    PLX_RETURN_IF_ERROR(num("op", &op));
    PLX_RETURN_IF_ERROR(Key(l, "root", &root, false));
    PLX_RETURN_IF_ERROR(Key(l, "sent", &sent, false));
    PLX_RETURN_IF_ERROR(Key(l, "received", &received, false));
    w_->Event(
        p, s, t,
        format::CollectiveRecord{static_cast<uint64_t>(op), comm, root, static_cast<uint64_t>(sent),
                                 static_cast<uint64_t>(received)});
    return Status::Ok();
  }
  if (verb == "post") {
    uint64_t comm = 0;
    PLX_RETURN_IF_ERROR(Ref(l, n.comms, Get(l, "comm"), &comm));
    int64_t peer, tag, match;
    PLX_RETURN_IF_ERROR(num("peer", &peer));
    PLX_RETURN_IF_ERROR(num("tag", &tag));
    PLX_RETURN_IF_ERROR(num("match", &match));
    w_->Event(p, s, t, format::RecvPostRecord{comm, peer, tag, static_cast<uint64_t>(match)});
    return Status::Ok();
  }
  if (verb == "counter") {
    if (l.words.size() < 4) return LineError(l, "counter needs a counter");
    uint64_t counter;
    PLX_RETURN_IF_ERROR(Ref(l, n.counters, l.words[3], &counter));
    const std::string value = Get(l, "value");
    if (n.counter_kind[counter] == 2) {
      w_->Event(p, s, t, format::CounterDoubleRecord{counter, std::strtod(value.c_str(), nullptr)});
    } else {
      int64_t v;
      if (!ParseNumber(value, &v)) return LineError(l, "value= not a number");
      w_->Event(p, s, t, format::CounterIntRecord{counter, v});
    }
    return Status::Ok();
  }
  if (verb == "rma") {
    uint64_t comm = 0;
    PLX_RETURN_IF_ERROR(Ref(l, n.comms, Get(l, "comm"), &comm));
    int64_t op, origin, target, bytes;
    PLX_RETURN_IF_ERROR(num("op", &op));
    PLX_RETURN_IF_ERROR(num("origin", &origin));
    PLX_RETURN_IF_ERROR(num("target", &target));
    PLX_RETURN_IF_ERROR(num("bytes", &bytes));
    w_->Event(p, s, t,
              format::RmaRecord{static_cast<uint64_t>(op), comm, origin, target,
                                static_cast<uint64_t>(bytes)});
    return Status::Ok();
  }
  if (verb == "thread_begin") {
    w_->Event(p, s, t, format::ThreadBeginRecord{});
    return Status::Ok();
  }
  if (verb == "thread_end") {
    w_->Event(p, s, t, format::ThreadEndRecord{});
    return Status::Ok();
  }
  if (verb == "control" || verb == "lost") {
    int64_t v;
    PLX_RETURN_IF_ERROR(num(verb == "control" ? "on" : "count", &v));
    if (verb == "control")
      w_->Event(p, s, t, format::ControlRecord{static_cast<uint64_t>(v)});
    else
      w_->Event(p, s, t, format::LostRecord{static_cast<uint64_t>(v)});
    return Status::Ok();
  }
  if (verb == "raw") {
    int64_t kind;
    PLX_RETURN_IF_ERROR(num("kind", &kind));
    const std::string hex = Get(l, "hex");
    std::vector<uint8_t> body;
    for (size_t i = 0; i + 1 < hex.size(); i += 2)
      body.push_back(static_cast<uint8_t>(std::strtoul(hex.substr(i, 2).c_str(), nullptr, 16)));
    w_->RawEvent(p, s, t, static_cast<uint8_t>(kind), body);
    return Status::Ok();
  }
  return LineError(l, "unknown statement " + verb);
}

}  // namespace

Status WriteTraceScript(const std::string& script, const std::string& path) {
  std::vector<Line> lines;
  format::WriterOptions options;
  std::string_view rest = script;
  int number = 0;
  while (!rest.empty()) {
    std::string_view text = NextToken(&rest, '\n');
    Line l;
    l.number = ++number;
    if (!Tokenise(text, &l)) return LineError(l, "unclosed quote");
    if (l.words.empty()) continue;
    if (l.words[0] == "option") {
      for (const auto& [key, value] : l.kv) {
        int64_t v;
        if (!ParseNumber(value, &v)) return LineError(l, key + "= must be a number");
        if (key == "chunk")
          options.chunk_raw_size = static_cast<size_t>(v);
        else if (key == "zstd")
          options.zstd_level = static_cast<int>(v);
        else if (key == "index")
          options.write_index = v != 0;
        else
          return LineError(l, "unknown option " + key);
      }
      continue;
    }
    lines.push_back(std::move(l));
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<TraceWriter> writer, TraceWriter::Create(path, options));
  ScriptWriter sw(writer.get());
  for (const Line& l : lines)
    PLX_RETURN_IF_ERROR(sw.Apply(l));
  return writer->Finish();
}

std::string MpiScriptPreamble(int ranks) {
  std::string members;
  for (int r = 0; r < ranks; ++r)
    members += (r ? "," : "") + std::to_string(r);
  std::string s;
  for (int r = 0; r < ranks; ++r) {
    const std::string p = std::to_string(r);
    s += "process " + p + " rank=" + p + "\nthread " + p + " 0\n";
    s += "state " + p + " 1 MPI_Send category=comm\nstate " + p + " 2 MPI_Recv category=comm\n";
    s += "state " + p + " 3 MPI_Ssend category=comm\nstate " + p + " 4 MPI_Barrier category=comm\n";
    s += "state " + p + " 5 MPI_Bcast category=comm\nstate " + p + " 6 MPI_Reduce category=comm\n";
    s += "state " + p + " 9 compute\n";
    s += "comm " + p + " 1 world global=1 members=" + members + "\n";
  }
  return s;
}

}  // namespace plx::testing
