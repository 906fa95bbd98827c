#include "interop/trace_builder.h"

#include "base/strings.h"
#include "base/varint.h"

namespace plx::interop {

Status InputError(std::string_view file, std::string_view where, std::string_view field,
                  std::string_view what) {
  std::string m(file);
  if (!where.empty()) m += ":" + std::string(where);
  m += ": ";
  if (!field.empty()) m += std::string(field) + ": ";
  m += what;
  return DataLoss(std::move(m));
}

StatusOr<std::unique_ptr<TraceBuilder>> TraceBuilder::Create(const std::string& path,
                                                             format::WriterOptions options) {
  auto writer = format::TraceWriter::Create(path, options);
  if (!writer.ok()) return writer.status();
  return std::unique_ptr<TraceBuilder>(new TraceBuilder(std::move(writer).value()));
}

TraceBuilder::TraceBuilder(std::unique_ptr<format::TraceWriter> writer)
    : writer_(std::move(writer)) {
  strings_.emplace_back();
  callsites_.emplace_back();
}

TraceBuilder::~TraceBuilder() = default;

namespace {

// Marks `id` in `defined`; true when it was not marked before.
bool FirstUse(std::vector<bool>& defined, uint32_t id) {
  if (id >= defined.size()) defined.resize(id + 1 + defined.size() / 2);
  if (defined[id]) return false;
  defined[id] = true;
  return true;
}

}  // namespace

uint32_t TraceBuilder::Intern(std::string_view text) {
  if (text.empty()) return 0;
  auto [it, inserted] =
      string_ids_.try_emplace(std::string(text), static_cast<uint32_t>(strings_.size()));
  if (inserted) strings_.emplace_back(text);
  return it->second;
}

uint32_t TraceBuilder::CategoryId(std::string_view name) {
  uint32_t s = Intern(name);
  auto [it, inserted] = category_ids_.try_emplace(s, static_cast<uint32_t>(categories_.size()));
  if (inserted) categories_.push_back(s);
  return it->second;
}

uint32_t TraceBuilder::AddProcess(const ProcessInfo& info) {
  auto process = static_cast<uint32_t>(processes_.size());
  processes_.emplace_back();
  format::ProcessDef def;
  def.pid = info.pid;
  def.rank = info.rank;
  def.host = DefineString(process, Intern(info.host));
  def.executable = DefineString(process, Intern(info.executable));
  def.arguments = DefineString(process, Intern(info.arguments));
  def.name = DefineString(process, Intern(info.name));
  writer_->Def(process, def);
  // Ticks are nanoseconds; the wall clock is realtime_ns at monotonic_ns.
  format::ClockDef clock;
  clock.domain = 0;
  clock.ticks_per_second = 1e9;
  if (info.realtime_minus_monotonic_ns >= 0) {
    clock.realtime_ns = static_cast<uint64_t>(info.realtime_minus_monotonic_ns);
  } else {
    clock.monotonic_ns = static_cast<uint64_t>(-(info.realtime_minus_monotonic_ns + 1)) + 1;
  }
  writer_->Def(process, clock);
  return process;
}

uint32_t TraceBuilder::AddThread(uint32_t process, const ThreadInfo& info) {
  ProcessState& p = processes_[process];
  ThreadState t;
  t.process = process;
  t.stream = p.streams++;
  writer_->Def(process,
               format::StreamDef{t.stream, info.tid, DefineString(process, Intern(info.name))});
  threads_.push_back(t);
  return static_cast<uint32_t>(threads_.size() - 1);
}

uint32_t TraceBuilder::State(std::string_view name, std::string_view category, uint32_t color) {
  uint32_t s = Intern(name);
  auto [it, inserted] = state_ids_.try_emplace(s, static_cast<uint32_t>(states_.size()));
  if (inserted) states_.push_back({s, CategoryId(category), color});
  return it->second;
}

uint32_t TraceBuilder::EventType(std::string_view name, model::ValueKind kind,
                                 std::string_view category) {
  uint32_t s = Intern(name);
  auto [it, inserted] = event_type_ids_.try_emplace(s, static_cast<uint32_t>(event_types_.size()));
  if (inserted) event_types_.push_back({s, CategoryId(category), kind});
  return it->second;
}

uint32_t TraceBuilder::Counter(std::string_view name, std::string_view unit, model::ValueKind kind,
                               std::string_view category) {
  uint32_t s = Intern(name);
  auto [it, inserted] = counter_ids_.try_emplace(s, static_cast<uint32_t>(counters_.size()));
  if (inserted) counters_.push_back({s, Intern(unit), CategoryId(category), kind});
  return it->second;
}

uint32_t TraceBuilder::Callsite(std::string_view file, uint32_t line, std::string_view function) {
  CallsiteInfo c{Intern(file), line, Intern(function)};
  auto [it, inserted] = callsite_ids_.try_emplace(std::make_tuple(c.file, c.line, c.function),
                                                  static_cast<uint32_t>(callsites_.size()));
  if (inserted) callsites_.push_back(c);
  return it->second;
}

uint32_t TraceBuilder::Communicator(uint32_t process, std::string_view name, uint8_t kind,
                                    uint64_t global_id, std::span<const int64_t> members) {
  ProcessState& p = processes_[process];
  uint64_t id = p.next_comm++;
  std::string packed;
  for (int64_t m : members) {
    uint8_t buf[kMaxVarintBytes];
    uint8_t* end = PutUvarint(buf, static_cast<uint64_t>(m < 0 ? 0 : m));
    packed.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(end - buf));
  }
  writer_->Def(process, format::CommunicatorDef{id, DefineString(process, Intern(name)), kind,
                                                global_id, packed});
  return static_cast<uint32_t>(id);
}

void TraceBuilder::Attribute(uint32_t process, std::string_view key, std::string_view value) {
  writer_->Def(process, format::AttributeDef{DefineString(process, Intern(key)),
                                             DefineString(process, Intern(value))});
}

uint64_t TraceBuilder::DefineString(uint32_t process, uint32_t id) {
  if (id != 0 && FirstUse(processes_[process].strings, id)) {
    writer_->Def(process, format::StringDef{id, strings_[id]});
  }
  return id;
}

uint64_t TraceBuilder::DefineCategory(uint32_t process, uint32_t id) {
  if (FirstUse(processes_[process].categories, id)) {
    writer_->Def(process, format::CategoryDef{id + 1, DefineString(process, categories_[id])});
  }
  return id + 1;
}

uint64_t TraceBuilder::DefineState(uint32_t process, uint32_t state) {
  if (FirstUse(processes_[process].states, state)) {
    const StateInfo& s = states_[state];
    writer_->Def(process, format::StateDef{state + 1, DefineString(process, s.name),
                                           DefineCategory(process, s.category), s.color});
  }
  return state + 1;
}

uint64_t TraceBuilder::DefineEventType(uint32_t process, uint32_t type) {
  if (FirstUse(processes_[process].event_types, type)) {
    const EventTypeInfo& e = event_types_[type];
    writer_->Def(process, format::EventTypeDef{type + 1, DefineString(process, e.name),
                                               DefineCategory(process, e.category),
                                               static_cast<uint64_t>(e.kind)});
  }
  return type + 1;
}

uint64_t TraceBuilder::DefineCounter(uint32_t process, uint32_t counter) {
  if (FirstUse(processes_[process].counters, counter)) {
    const CounterInfo& c = counters_[counter];
    writer_->Def(process,
                 format::CounterDef{counter + 1, DefineString(process, c.name),
                                    DefineString(process, c.unit), static_cast<uint64_t>(c.kind),
                                    DefineCategory(process, c.category)});
  }
  return counter + 1;
}

uint64_t TraceBuilder::DefineCallsite(uint32_t process, uint32_t callsite) {
  if (callsite != 0 && FirstUse(processes_[process].callsites, callsite)) {
    const CallsiteInfo& c = callsites_[callsite];
    writer_->Def(process, format::CallsiteDef{callsite, DefineString(process, c.file), c.line,
                                              DefineString(process, c.function)});
  }
  return callsite;
}

bool TraceBuilder::Accept(uint32_t thread, int64_t ns) {
  ThreadState& t = threads_[thread];
  if (ns < 0 || ns < t.last_ns) return false;
  t.last_ns = ns;
  ++events_;
  return true;
}

template <typename R>
void TraceBuilder::Write(uint32_t thread, int64_t ns, const R& record) {
  const ThreadState& t = threads_[thread];
  writer_->Event(t.process, t.stream, static_cast<uint64_t>(ns), record);
}

bool TraceBuilder::Enter(uint32_t thread, int64_t ns, uint32_t state, uint32_t callsite) {
  if (!Accept(thread, ns)) return false;
  uint32_t p = threads_[thread].process;
  Write(thread, ns, format::EnterRecord{DefineState(p, state), DefineCallsite(p, callsite)});
  return true;
}

bool TraceBuilder::Leave(uint32_t thread, int64_t ns, uint32_t state) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::LeaveRecord{DefineState(threads_[thread].process, state)});
  return true;
}

bool TraceBuilder::Send(uint32_t thread, int64_t ns, uint32_t comm, int64_t peer, int64_t tag,
                        uint64_t bytes, uint64_t match, uint64_t clock) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::SendRecord{comm, peer, tag, bytes, clock, match});
  return true;
}

bool TraceBuilder::Recv(uint32_t thread, int64_t ns, uint32_t comm, int64_t peer, int64_t tag,
                        uint64_t bytes, uint64_t match, uint64_t clock) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::RecvRecord{comm, peer, tag, bytes, clock, match});
  return true;
}

bool TraceBuilder::RecvPost(uint32_t thread, int64_t ns, uint32_t comm, int64_t peer, int64_t tag,
                            uint64_t match) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::RecvPostRecord{comm, peer, tag, match});
  return true;
}

bool TraceBuilder::Collective(uint32_t thread, int64_t ns, uint8_t op, uint32_t comm, int64_t root,
                              uint64_t sent, uint64_t received) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::CollectiveRecord{op, comm, root, sent, received});
  return true;
}

bool TraceBuilder::Rma(uint32_t thread, int64_t ns, uint8_t op, uint32_t comm, int64_t origin,
                       int64_t target, uint64_t bytes) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::RmaRecord{op, comm, origin, target, bytes});
  return true;
}

bool TraceBuilder::CounterInt(uint32_t thread, int64_t ns, uint32_t counter, int64_t value) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns,
        format::CounterIntRecord{DefineCounter(threads_[thread].process, counter), value});
  return true;
}

bool TraceBuilder::CounterDouble(uint32_t thread, int64_t ns, uint32_t counter, double value) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns,
        format::CounterDoubleRecord{DefineCounter(threads_[thread].process, counter), value});
  return true;
}

bool TraceBuilder::Instant(uint32_t thread, int64_t ns, uint32_t type, uint32_t callsite) {
  return InstantInt(thread, ns, type, 0, callsite);
}

bool TraceBuilder::InstantInt(uint32_t thread, int64_t ns, uint32_t type, int64_t value,
                              uint32_t callsite) {
  if (!Accept(thread, ns)) return false;
  uint32_t p = threads_[thread].process;
  Write(thread, ns,
        format::EventIntRecord{DefineEventType(p, type), DefineCallsite(p, callsite), value});
  return true;
}

bool TraceBuilder::InstantDouble(uint32_t thread, int64_t ns, uint32_t type, double value,
                                 uint32_t callsite) {
  if (!Accept(thread, ns)) return false;
  uint32_t p = threads_[thread].process;
  Write(thread, ns,
        format::EventDoubleRecord{DefineEventType(p, type), DefineCallsite(p, callsite), value});
  return true;
}

bool TraceBuilder::InstantString(uint32_t thread, int64_t ns, uint32_t type, std::string_view text,
                                 uint32_t callsite) {
  if (!Accept(thread, ns)) return false;
  uint32_t p = threads_[thread].process;
  Write(thread, ns,
        format::EventStringRecord{DefineEventType(p, type), DefineCallsite(p, callsite), text});
  return true;
}

bool TraceBuilder::ThreadBegin(uint32_t thread, int64_t ns) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::ThreadBeginRecord{});
  return true;
}

bool TraceBuilder::ThreadEnd(uint32_t thread, int64_t ns) {
  if (!Accept(thread, ns)) return false;
  Write(thread, ns, format::ThreadEndRecord{});
  return true;
}

void TraceBuilder::Note(ImportCounter counter, uint64_t n) {
  const std::string_view name = NameOf(counter);
  auto it = stats_.find(name);
  if (it == stats_.end()) it = stats_.emplace(std::string(name), 0).first;
  it->second += n;
}

Status TraceBuilder::Finish() {
  if (!processes_.empty()) {
    for (const auto& [name, count] : stats_) {
      Attribute(0, "import." + name, std::to_string(count));
    }
  }
  return writer_->Finish();
}

}  // namespace plx::interop
