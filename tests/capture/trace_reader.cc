// Canonical record visitor over TraceFile for the capture tests.
#include "capture/trace_reader.h"

#include <vector>

namespace plx::testing {

namespace {

using namespace plx::format;

class Canonicaliser : public EventVisitorBase {
 public:
  using EventVisitorBase::On;
  Canonicaliser(const ProcessDefs& defs, const TickClock& clock, RecordContext ctx,
                const RecordFn& fn)
      : defs_(defs), clock_(clock), ctx_(ctx), fn_(fn) {}

  void On(uint64_t tick, const EnterRecord& r) {
    Canon c{1, StateName(r.state)};
    c.has_callsite = r.callsite != 0;
    Emit(tick, c);
  }
  void On(uint64_t tick, const LeaveRecord& r) { Emit(tick, {2, StateName(r.state)}); }
  void On(uint64_t tick, const EventIntRecord& r) {
    Canon c{3, TypeName(r.type)};
    c.a = r.value;
    c.has_callsite = r.callsite != 0;
    Emit(tick, c);
  }
  void On(uint64_t tick, const EventDoubleRecord& r) {
    Canon c{4, TypeName(r.type)};
    c.x = r.value;
    c.has_callsite = r.callsite != 0;
    Emit(tick, c);
  }
  void On(uint64_t tick, const EventStringRecord& r) {
    Canon c{5, TypeName(r.type)};
    c.text = std::string(r.text);
    c.has_callsite = r.callsite != 0;
    Emit(tick, c);
  }
  void On(uint64_t tick, const SendRecord& r) {
    Emit(tick, Message(6, r.comm, r.peer, r.tag, r.bytes, r.clock));
  }
  void On(uint64_t tick, const RecvRecord& r) {
    Emit(tick, Message(7, r.comm, r.peer, r.tag, r.bytes, r.clock));
  }
  void On(uint64_t tick, const CounterIntRecord& r) {
    Canon c{8, CounterName(r.counter)};
    c.a = r.value;
    Emit(tick, c);
  }
  void On(uint64_t tick, const CounterDoubleRecord& r) {
    Canon c{9, CounterName(r.counter)};
    c.x = r.value;
    Emit(tick, c);
  }
  void On(uint64_t tick, const RmaRecord& r) {
    Canon c{10, CommName(r.comm)};
    c.a = static_cast<int64_t>(r.op);
    c.b = r.origin;
    c.c = r.target;
    c.d = static_cast<int64_t>(r.bytes);
    Emit(tick, c);
  }
  void On(uint64_t tick, const ThreadBeginRecord&) { Emit(tick, {11, ""}); }
  void On(uint64_t tick, const ThreadEndRecord&) { Emit(tick, {12, ""}); }
  void On(uint64_t tick, const ControlRecord& r) {
    Canon c{13, ""};
    c.a = static_cast<int64_t>(r.on);
    Emit(tick, c);
  }
  void On(uint64_t tick, const LostRecord& r) {
    Canon c{14, ""};
    c.a = static_cast<int64_t>(r.count);
    Emit(tick, c);
  }

 private:
  template <typename Map>
  std::string_view NameOf(const Map& map, uint64_t id) const {
    auto it = map.find(id);
    return it == map.end() ? std::string_view("<undefined>") : defs_.Str(it->second.name);
  }
  std::string_view StateName(uint64_t id) const { return NameOf(defs_.states, id); }
  std::string_view TypeName(uint64_t id) const { return NameOf(defs_.event_types, id); }
  std::string_view CounterName(uint64_t id) const { return NameOf(defs_.counters, id); }
  std::string_view CommName(uint64_t id) const { return NameOf(defs_.communicators, id); }
  Canon Message(uint8_t kind, uint64_t comm, int64_t peer, int64_t tag, uint64_t bytes,
                uint64_t clock) const {
    Canon c{kind, CommName(comm)};
    c.a = peer;
    c.b = tag;
    c.c = static_cast<int64_t>(bytes);
    c.d = static_cast<int64_t>(clock);
    return c;
  }
  void Emit(uint64_t tick, const Canon& c) {
    ctx_.tick = tick;
    ctx_.ns = clock_.ToNs(tick, &hint_);
    fn_(ctx_, c);
  }

  const ProcessDefs& defs_;
  const TickClock& clock_;
  RecordContext ctx_;
  const RecordFn& fn_;
  size_t hint_ = 0;
};

}  // namespace

Status VisitRecords(const format::TraceFile& file, const RecordFn& fn) {
  std::vector<uint8_t> scratch;
  for (const StreamInfo& s : file.streams()) {
    const ProcessDefs& defs = file.processes().at(s.process);
    std::string_view name;
    if (auto it = defs.streams.find(s.stream); it != defs.streams.end())
      name = defs.Str(it->second.name);
    Canonicaliser v(defs, file.clock(s.process), RecordContext{&s, name, 0, 0}, fn);
    for (uint32_t i : s.chunks)
      PLX_RETURN_IF_ERROR(file.DecodeChunk(file.event_chunks()[i], v, &scratch));
  }
  return Status::Ok();
}

}  // namespace plx::testing
