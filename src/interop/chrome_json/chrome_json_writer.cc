// ExportChromeJson: a model::Trace as Chrome Trace Event JSON that Perfetto UI
// and about:tracing load. Slices are X events (B for unclosed ones), messages
// flow events (s at the send, f at the receive), counters C events, instants
// and the MPI records Chrome has no phase for i events with their fields in
// args. Times are microseconds with three decimals relative to the trace
// begin, kept in otherData, so nanoseconds survive. See docs/interop.md.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

#include "interop/chrome_json/chrome_json.h"
#include "interop/event_walk.h"
#include "interop/text_file.h"
#include "model/collective_ops.h"
#include "time/message_pairs.h"

namespace plx::interop {

namespace {

// JSON text with the few shapes the exporter writes, over a TextWriter.
class Out {
 public:
  explicit Out(TextWriter& w) : w_(w) {}

  Out& Raw(std::string_view s) {
    w_.Put(s);
    return *this;
  }
  Out& Str(std::string_view s) {
    w_.Put('"');
    size_t plain = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      w_.Put(s.substr(plain, i - plain));
      plain = i + 1;
      if (c == '"' || c == '\\') {
        w_.Put('\\').Put(static_cast<char>(c));
      } else {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\u%04x", c);
        w_.Put(esc);
      }
    }
    w_.Put(s.substr(plain)).Put('"');
    return *this;
  }
  template <typename T>
  Out& Int(T v) {
    if constexpr (std::is_signed_v<T>) {
      w_.PutInt(v);
    } else {
      w_.PutUint(v);
    }
    return *this;
  }
  // A double that reads back as the same double and as a double, not an int.
  Out& Double(double v) {
    if (!std::isfinite(v)) return Raw("null");
    char tmp[40];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    const std::string_view text(tmp, static_cast<size_t>(r.ptr - tmp));
    w_.Put(text);
    if (text.find_first_of(".en") == std::string_view::npos) w_.Put(".0");
    return *this;
  }
  // Nanoseconds as microseconds with three decimals.
  Out& Micros(int64_t ns) {
    w_.PutFixed(ns, 3);
    return *this;
  }
  // A 64-bit id JavaScript can read: a number below 2^53, else a string.
  Out& BigId(uint64_t v) {
    if (v < (uint64_t{1} << 53)) return Int(v);
    w_.Put('"').PutUint(v).Put('"');
    return *this;
  }

 private:
  TextWriter& w_;
};

std::string_view CollectiveName(uint8_t op) {
  const std::string_view name = model::CollectiveOpName(op);
  return name.empty() ? "collective" : name;
}

const char* RmaName(uint8_t op) {
  static const char* const kNames[] = {"put", "get", "accumulate", "other"};
  return op < 4 ? kNames[op] : "other";
}

class Exporter : public EventVisitor {
 public:
  Exporter(const model::Trace& t, Out& out) : t_(t), out_(out) {
    Ids();
    const time::MessagePairs pairs = time::MatchMessages(t);
    flow_id_.assign(t.messages.size(), 0);
    uint64_t next = 1;
    for (const time::MessagePair& p : pairs.pairs) {
      flow_id_[p.send] = flow_id_[p.recv] = next++;
    }
    for (uint32_t r : pairs.unmatched_sends)
      flow_id_[r] = next++;
    for (uint32_t r : pairs.unmatched_recvs)
      flow_id_[r] = next++;
  }

  void Metadata() {
    for (uint32_t p = 0; p < t_.processes.size(); ++p) {
      const model::Process& proc = t_.processes[p];
      if (!proc.name.empty()) {
        ProcessMeta(p, "process_name").Raw("\"name\":").Str(proc.name).Raw("}}");
      }
      ProcessMeta(p, "process_sort_index").Raw("\"sort_index\":").Int(p).Raw("}}");
      ProcessMeta(p, "parallax_process").Raw("\"rank\":").Int(proc.rank);
      out_.Raw(",\"pid\":").Int(proc.pid).Raw(",\"host\":").Str(proc.host);
      out_.Raw(",\"executable\":").Str(proc.executable).Raw(",\"arguments\":").Str(proc.arguments);
      out_.Raw(",\"realtime_minus_monotonic_ns\":").Int(proc.realtime_minus_monotonic_ns);
      out_.Raw("}}");
    }
    for (const model::Communicator& c : t_.communicators) {
      ProcessMeta(c.process, "parallax_communicator").Raw("\"name\":").Str(c.name);
      out_.Raw(",\"kind\":").Int(c.kind).Raw(",\"global_id\":").BigId(c.global_id);
      out_.Raw(",\"members\":[");
      for (size_t i = 0; i < c.members.size(); ++i) {
        if (i > 0) out_.Raw(",");
        out_.Int(c.members[i]);
      }
      out_.Raw("]}}");
    }
    for (uint32_t th = 0; th < t_.threads.size(); ++th) {
      const model::Thread& thread = t_.threads[th];
      if (!thread.name.empty()) {
        Begin("M", th).Raw(",\"name\":\"thread_name\",\"args\":{\"name\":").Str(thread.name);
        out_.Raw("}}");
      }
      Begin("M", th).Raw(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
      out_.Int(th).Raw("}}");
    }
  }

  void Enter(uint32_t r) override {
    const model::SliceTable& s = t_.slices;
    const model::State& state = t_.states[s.state[r]];
    const bool unclosed = (s.flags[r] & model::SliceTable::kUnclosed) != 0;
    Begin(unclosed ? "B" : "X", s.thread[r]).Raw(",\"ts\":").Micros(s.begin[r] - t_.begin_ns);
    if (!unclosed) out_.Raw(",\"dur\":").Micros(s.end[r] - s.begin[r]);
    out_.Raw(",\"name\":").Str(state.name).Raw(",\"cat\":").Str(Category(state.category));
    out_.Raw("}");
  }

  void Message(uint32_t r) override {
    const model::MessageTable& m = t_.messages;
    const bool send = m.is_send[r] != 0;
    Begin(send ? "s" : "f", m.thread[r]).Raw(",\"ts\":").Micros(m.time[r] - t_.begin_ns);
    if (!send) out_.Raw(",\"bp\":\"e\"");
    out_.Raw(",\"id\":").Int(flow_id_[r]).Raw(",\"name\":\"message\",\"cat\":\"parallax.message\"");
    out_.Raw(",\"args\":{");
    if (m.comm[r] != model::kNone)
      out_.Raw("\"comm\":").Str(t_.communicators[m.comm[r]].name).Raw(",");
    out_.Raw("\"peer\":").Int(m.peer[r]).Raw(",\"tag\":").Int(m.tag[r]);
    out_.Raw(",\"bytes\":").Int(m.bytes[r]).Raw(",\"match\":").Int(m.match[r]);
    out_.Raw(",\"clock\":").Int(m.clock[r]).Raw("}}");
  }

  void RecvPost(uint32_t r) override {
    const model::RecvPostTable& p = t_.recv_posts;
    InstantHead(p.thread[r], p.time[r], "recv post", "parallax.recv_post");
    CommArg(p.comm[r]);
    out_.Raw("\"peer\":").Int(p.peer[r]).Raw(",\"tag\":").Int(p.tag[r]);
    out_.Raw(",\"match\":").Int(p.match[r]).Raw("}}");
  }

  void Collective(uint32_t r) override {
    const model::CollectiveTable& c = t_.collectives;
    InstantHead(c.thread[r], c.time[r], CollectiveName(c.op[r]), "parallax.collective");
    CommArg(c.comm[r]);
    out_.Raw("\"op\":").Int(c.op[r]).Raw(",\"root\":").Int(c.root[r]);
    out_.Raw(",\"sent\":").Int(c.sent[r]).Raw(",\"received\":").Int(c.received[r]).Raw("}}");
  }

  void Rma(uint32_t r) override {
    const model::RmaTable& m = t_.rma;
    InstantHead(m.thread[r], m.time[r], RmaName(m.op[r]), "parallax.rma");
    CommArg(m.comm[r]);
    out_.Raw("\"op\":").Int(m.op[r]).Raw(",\"origin\":").Int(m.origin[r]);
    out_.Raw(",\"target\":").Int(m.target[r]).Raw(",\"bytes\":").Int(m.bytes[r]).Raw("}}");
  }

  void CounterSample(uint32_t r) override {
    const model::CounterTable& c = t_.counter_samples;
    const model::Counter& def = t_.counters[c.counter[r]];
    Begin("C", c.thread[r]).Raw(",\"ts\":").Micros(c.time[r] - t_.begin_ns);
    out_.Raw(",\"name\":").Str(def.name).Raw(",\"cat\":").Str(Category(def.category, "counter"));
    out_.Raw(",\"args\":{\"value\":");
    if (def.value_kind == model::ValueKind::kDouble) {
      out_.Double(c.value[r]);
    } else {
      out_.Int(static_cast<int64_t>(c.value[r]));
    }
    out_.Raw("}}");
  }

  void Instant(uint32_t r) override {
    const model::InstantTable& i = t_.instants;
    const model::EventType& type = t_.event_types[i.type[r]];
    InstantHead(i.thread[r], i.time[r], type.name, Category(type.category));
    switch (i.kind[r]) {
      case model::ValueKind::kInt:
        out_.Raw("\"value\":").Int(i.int_value[r]);
        break;
      case model::ValueKind::kDouble:
        out_.Raw("\"value\":").Double(i.double_value[r]);
        break;
      case model::ValueKind::kString:
        out_.Raw("\"value\":").Str(i.text[r] == model::kNone ? "" : t_.texts[i.text[r]]);
        break;
      case model::ValueKind::kNone:
        break;
    }
    out_.Raw("}}");
  }

 private:
  // pids and tids as the trace has them when they tell processes (threads of
  // a process) apart, else their position.
  void Ids() {
    pid_.resize(t_.processes.size());
    bool distinct = true;
    std::vector<uint64_t> seen;
    for (const model::Process& p : t_.processes) {
      distinct &= p.pid != 0 && std::find(seen.begin(), seen.end(), p.pid) == seen.end();
      seen.push_back(p.pid);
    }
    for (size_t p = 0; p < pid_.size(); ++p)
      pid_[p] = distinct ? static_cast<int64_t>(t_.processes[p].pid) : static_cast<int64_t>(p + 1);
    tid_.resize(t_.threads.size());
    for (size_t p = 0; p < t_.processes.size(); ++p) {
      std::vector<uint32_t> own;
      bool unique = true;
      seen.clear();
      for (uint32_t th = 0; th < t_.threads.size(); ++th) {
        if (t_.threads[th].process != p) continue;
        own.push_back(th);
        unique &= std::find(seen.begin(), seen.end(), t_.threads[th].tid) == seen.end();
        seen.push_back(t_.threads[th].tid);
      }
      for (size_t k = 0; k < own.size(); ++k) {
        tid_[own[k]] =
            unique ? static_cast<int64_t>(t_.threads[own[k]].tid) : static_cast<int64_t>(k + 1);
      }
    }
  }

  std::string_view Category(uint32_t c, std::string_view fallback = "user") const {
    return c == model::kNone ? fallback : std::string_view(t_.categories[c].name);
  }

  // Opens an event object: ph, pid and tid.
  Out& Begin(const char* ph, uint32_t thread) {
    Separator();
    out_.Raw("{\"ph\":\"").Raw(ph).Raw("\",\"pid\":").Int(pid_[t_.threads[thread].process]);
    return out_.Raw(",\"tid\":").Int(tid_[thread]);
  }

  // A process metadata event up to the inside of its args.
  Out& ProcessMeta(uint32_t process, const char* name) {
    Separator();
    out_.Raw("{\"ph\":\"M\",\"pid\":").Int(pid_[process]).Raw(",\"tid\":0,\"name\":\"");
    return out_.Raw(name).Raw("\",\"args\":{");
  }

  // A thread-scoped instant up to the inside of its args.
  void InstantHead(uint32_t thread, int64_t time, std::string_view name, std::string_view cat) {
    Begin("i", thread).Raw(",\"s\":\"t\",\"ts\":").Micros(time - t_.begin_ns);
    out_.Raw(",\"name\":").Str(name).Raw(",\"cat\":").Str(cat).Raw(",\"args\":{");
  }

  void CommArg(uint32_t comm) {
    if (comm != model::kNone) out_.Raw("\"comm\":").Str(t_.communicators[comm].name).Raw(",");
  }

  void Separator() {
    out_.Raw(first_ ? "\n" : ",\n");
    first_ = false;
  }

  const model::Trace& t_;
  Out& out_;
  std::vector<int64_t> pid_, tid_;
  std::vector<uint64_t> flow_id_;  // by message row
  bool first_ = true;
};

}  // namespace

Status ExportChromeJson(const model::Trace& trace, const std::string& path,
                        const Progress& progress) {
  const bool gz = std::string_view(path).ends_with(".gz");
  PLX_ASSIGN_OR_RETURN(auto writer, TextWriter::Create(path, gz ? TextWriter::Compression::kGzip
                                                                : TextWriter::Compression::kNone));
  Out out(*writer);
  out.Raw("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"parallax_time_base_ns\":\"");
  out.Int(trace.begin_ns).Raw("\",\"source\":").Str(trace.source).Raw("},\n\"traceEvents\":[");
  Exporter exporter(trace, out);
  exporter.Metadata();
  WalkTrace(trace, exporter, progress);
  out.Raw("\n]}\n");
  return writer->Finish();
}

}  // namespace plx::interop
