// ExportPaje: a model::Trace as a Paje trace file (ViTE, PajeNG). Processes
// and threads become a two-level container tree, slices Push/PopState, paired
// messages links, counters variables, instants events; times are seconds with
// nine decimals after the trace's begin, so nanoseconds stay exact.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "interop/event_walk.h"
#include "interop/paje/paje.h"
#include "interop/text_file.h"
#include "time/message_pairs.h"

namespace plx::interop {

namespace {

// The header: every event this writer uses, with its fields. PajeStartLink and
// PajeEndLink carry two extra fields (Tag, Size) that readers may ignore.
constexpr char kHeader[] =
    "%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n%  Alias string\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineLinkType 2\n%  Alias string\n%  Type string\n"
    "%  StartContainerType string\n%  EndContainerType string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineVariableType 3\n%  Alias string\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineEventType 4\n%  Alias string\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 5\n%  Alias string\n%  Type string\n%  Name string\n"
    "%  Color color\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 6\n%  Alias string\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeCreateContainer 7\n%  Time date\n%  Alias string\n%  Type string\n"
    "%  Container string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 8\n%  Time date\n%  Type string\n%  Name string\n"
    "%EndEventDef\n"
    "%EventDef PajePushState 9\n%  Time date\n%  Container string\n%  Type string\n"
    "%  Value string\n%EndEventDef\n"
    "%EventDef PajePopState 10\n%  Time date\n%  Container string\n%  Type string\n"
    "%EndEventDef\n"
    "%EventDef PajeStartLink 11\n%  Time date\n%  Container string\n%  Type string\n"
    "%  StartContainer string\n%  Value string\n%  Key string\n%  Tag int\n%  Size int\n"
    "%EndEventDef\n"
    "%EventDef PajeEndLink 12\n%  Time date\n%  Container string\n%  Type string\n"
    "%  EndContainer string\n%  Value string\n%  Key string\n%  Tag int\n%  Size int\n"
    "%EndEventDef\n"
    "%EventDef PajeSetVariable 13\n%  Time date\n%  Container string\n%  Type string\n"
    "%  Value double\n%EndEventDef\n"
    "%EventDef PajeNewEvent 14\n%  Time date\n%  Container string\n%  Type string\n"
    "%  Value string\n%EndEventDef\n";

// Paje text over a TextWriter.
class Out {
 public:
  explicit Out(TextWriter& w) : w_(w) {}
  void Put(std::string_view s) { w_.Put(s); }
  void Char(char c) { w_.Put(c); }
  void Int(int64_t v) { w_.PutInt(v); }
  // Seconds with nine decimals: exact for any nanosecond count.
  void Time(int64_t ns) { w_.PutFixed(ns, 9); }
  // A double that reads back as a double (always with '.', 'e', "nan" or "inf").
  void Double(double v) { w_.PutReal(v); }
  // A quoted Paje string: Paje has no escapes.
  void Quoted(std::string_view s) { w_.PutQuoted(s); }
  void End() { w_.Put('\n'); }

 private:
  TextWriter& w_;
};

std::string ColorText(uint32_t color) {
  char tmp[64];
  std::snprintf(tmp, sizeof tmp, "%.4f %.4f %.4f", ((color >> 16) & 0xff) / 255.0,
                ((color >> 8) & 0xff) / 255.0, (color & 0xff) / 255.0);
  return tmp;
}

class Writer : public EventVisitor {
 public:
  Writer(const model::Trace& t, Out& out) : t_(t), o_(out) {}

  // No "#" comment line first: ViTE warns of an unidentified definition.
  void Definitions() {
    o_.Put(kHeader);
    o_.Put("0 P 0 \"Process\"\n0 T P \"Thread\"\n1 S T \"State\"\n2 L 0 T T \"Message\"\n");
    for (size_t c = 0; c < t_.counters.size(); ++c) {
      o_.Put("3 V");
      o_.Int(static_cast<int64_t>(c));
      o_.Put(" T ");
      o_.Quoted(t_.counters[c].name);
      o_.End();
    }
    for (size_t e = 0; e < t_.event_types.size(); ++e) {
      o_.Put("4 E");
      o_.Int(static_cast<int64_t>(e));
      o_.Put(" T ");
      o_.Quoted(t_.event_types[e].name);
      o_.End();
    }
    for (size_t s = 0; s < t_.states.size(); ++s) {
      const model::State& st = t_.states[s];
      o_.Put(st.color != 0 ? "5 s" : "6 s");
      o_.Int(static_cast<int64_t>(s));
      o_.Put(" S ");
      o_.Quoted(st.name);
      if (st.color != 0) {
        o_.Char(' ');
        o_.Quoted(ColorText(st.color));
      }
      o_.End();
    }
    // Link values are communicator names, one entity value per name.
    for (const model::Communicator& c : t_.communicators) {
      auto [it, added] = comm_values_.emplace(c.name, comm_values_.size());
      if (!added) continue;
      o_.Put("6 c");
      o_.Int(static_cast<int64_t>(it->second));
      o_.Put(" L ");
      o_.Quoted(c.name);
      o_.End();
    }
    comm_value_.resize(t_.communicators.size());
    for (size_t c = 0; c < t_.communicators.size(); ++c)
      comm_value_[c] = comm_values_.at(t_.communicators[c].name);

    // Containers: process aliases carry the MPI rank ("R<rank>"; "P<index>"
    // for processes without one), thread aliases their index.
    std::unordered_set<int64_t> ranks;
    process_alias_.resize(t_.processes.size());
    for (size_t p = 0; p < t_.processes.size(); ++p) {
      const model::Process& pr = t_.processes[p];
      const bool ranked = pr.rank >= 0 && ranks.insert(pr.rank).second;
      process_alias_[p] = (ranked ? "R" : "P") + std::to_string(ranked ? pr.rank : int64_t(p));
      o_.Put("7 0.000000000 ");
      o_.Put(process_alias_[p]);
      o_.Put(" P 0 ");
      o_.Quoted(pr.name.empty() ? "process " + std::to_string(p) : pr.name);
      o_.End();
      for (size_t th = 0; th < t_.threads.size(); ++th) {
        if (t_.threads[th].process != p) continue;
        o_.Put("7 0.000000000 T");
        o_.Int(static_cast<int64_t>(th));
        o_.Put(" T ");
        o_.Put(process_alias_[p]);
        o_.Char(' ');
        const model::Thread& td = t_.threads[th];
        o_.Quoted(td.name.empty() ? "thread " + std::to_string(td.tid) : td.name);
        o_.End();
      }
    }

    // The link of each message: its pair's number as the key.
    const time::MessagePairs pairs = time::MatchMessages(t_);
    link_.assign(t_.messages.size(), kNoLink);
    for (size_t i = 0; i < pairs.pairs.size(); ++i) {
      link_[pairs.pairs[i].send] = static_cast<uint32_t>(i);
      link_[pairs.pairs[i].recv] = static_cast<uint32_t>(i);
    }
  }

  void Destroy() {
    for (size_t th = 0; th < t_.threads.size(); ++th) {
      o_.Put("8 ");
      o_.Time(t_.end_ns - t_.begin_ns);
      o_.Put(" T T");
      o_.Int(static_cast<int64_t>(th));
      o_.End();
    }
    for (size_t p = 0; p < t_.processes.size(); ++p) {
      o_.Put("8 ");
      o_.Time(t_.end_ns - t_.begin_ns);
      o_.Put(" P ");
      o_.Put(process_alias_[p]);
      o_.End();
    }
  }

  void Enter(uint32_t r) override {
    Head("9 ", t_.slices.begin[r], t_.slices.thread[r]);
    o_.Put(" S s");
    o_.Int(t_.slices.state[r]);
    o_.End();
  }
  void Leave(uint32_t r) override {
    Head("10 ", t_.slices.end[r], t_.slices.thread[r]);
    o_.Put(" S");
    o_.End();
  }
  void Message(uint32_t r) override {
    const model::MessageTable& m = t_.messages;
    if (link_[r] == kNoLink) return;  // a link needs both ends
    o_.Put(m.is_send[r] ? "11 " : "12 ");
    o_.Time(m.time[r] - t_.begin_ns);
    o_.Put(" 0 L T");
    o_.Int(m.thread[r]);
    o_.Put(" c");
    o_.Int(static_cast<int64_t>(comm_value_[m.comm[r]]));
    o_.Put(" m");
    o_.Int(link_[r]);
    o_.Char(' ');
    o_.Int(m.tag[r]);
    o_.Char(' ');
    o_.Int(static_cast<int64_t>(m.bytes[r]));
    o_.End();
  }
  void CounterSample(uint32_t r) override {
    const model::CounterTable& c = t_.counter_samples;
    Head("13 ", c.time[r], c.thread[r]);
    o_.Put(" V");
    o_.Int(c.counter[r]);
    o_.Char(' ');
    if (t_.counters[c.counter[r]].value_kind == model::ValueKind::kInt) {
      o_.Int(static_cast<int64_t>(c.value[r]));
    } else {
      o_.Double(c.value[r]);
    }
    o_.End();
  }
  void Instant(uint32_t r) override {
    const model::InstantTable& i = t_.instants;
    Head("14 ", i.time[r], i.thread[r]);
    o_.Put(" E");
    o_.Int(i.type[r]);
    o_.Char(' ');
    switch (i.kind[r]) {
      case model::ValueKind::kInt:
        o_.Int(i.int_value[r]);
        break;
      case model::ValueKind::kDouble:
        o_.Double(i.double_value[r]);
        break;
      case model::ValueKind::kString:
        o_.Quoted(i.text[r] == model::kNone ? "" : t_.texts[i.text[r]]);
        break;
      case model::ValueKind::kNone:
        o_.Quoted("");
        break;
    }
    o_.End();
  }

 private:
  static constexpr uint32_t kNoLink = 0xffffffffu;
  void Head(std::string_view event, int64_t ns, uint32_t thread) {
    o_.Put(event);
    o_.Time(ns - t_.begin_ns);
    o_.Put(" T");
    o_.Int(thread);
  }

  const model::Trace& t_;
  Out& o_;
  std::vector<std::string> process_alias_;
  std::unordered_map<std::string, size_t> comm_values_;
  std::vector<size_t> comm_value_;
  std::vector<uint32_t> link_;
};

}  // namespace

Status ExportPaje(const model::Trace& trace, const std::string& path, const Progress& progress) {
  PLX_ASSIGN_OR_RETURN(auto text, TextWriter::Create(path));
  Out out(*text);
  Writer writer(trace, out);
  writer.Definitions();
  WalkTrace(trace, writer, progress);
  writer.Destroy();
  return text->Finish();
}

}  // namespace plx::interop
