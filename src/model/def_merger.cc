// DefMerger: name-keyed interning of definitions across processes, flat id
// maps per process, and "<undefined N>" placeholders for dangling references.
#include "model/def_merger.h"

#include <algorithm>
#include <string_view>

#include "base/strings.h"
#include "base/varint.h"
#include "format/layout.h"

namespace plx::model {

namespace {

// A name for a definition whose name string is missing: "<state 7>".
std::string NameOr(const format::ProcessDefs& defs, uint64_t string_id, const char* what,
                   uint64_t id) {
  std::string_view s = defs.Str(string_id);
  if (!s.empty()) return std::string(s);
  return StrFormat("<%s %llu>", what, static_cast<unsigned long long>(id));
}

std::string Undefined(uint64_t id) {
  return StrFormat("<undefined %llu>", static_cast<unsigned long long>(id));
}

ValueKind ToValueKind(uint64_t v) {
  return v <= 3 ? static_cast<ValueKind>(v) : ValueKind::kNone;
}

// A flat map sized by the largest id in `defs` (ids are <= format::kMaxDefId).
template <typename Map>
std::vector<uint32_t> FlatMap(const Map& defs) {
  const uint64_t size = defs.empty() ? 0 : defs.rbegin()->first + 1;
  return std::vector<uint32_t>(static_cast<size_t>(std::min<uint64_t>(size, format::kMaxDefId + 1)),
                               kNone);
}

// format::ProcessDefs does not yet keep clock_offset definitions, nor own the
// bytes of a communicator's members (CommunicatorDef::members views the DEFS
// payload, which is gone after opening). Until it does, these read as absent,
// so the model builds against either.
template <typename Defs>
std::vector<ClockOffset> ClockOffsetsOf(const Defs& defs) {
  std::vector<ClockOffset> out;
  for (const auto& d : defs.clock_offsets) {
    const uint64_t limit = uint64_t{1} << 62;
    out.push_back({static_cast<int64_t>(std::min(d.ns, limit)), d.offset_ns, d.error_ns});
  }
  return out;
}

template <typename Defs>
std::string_view MembersOf(const Defs& defs, uint64_t id) {
  auto it = defs.communicator_members.find(id);
  if (it != defs.communicator_members.end()) return it->second;
  return {};
}

// Packed uvarints; false when they end inside one (the ranks before it are kept).
bool DecodeMembers(std::string_view bytes, std::vector<int64_t>* ranks) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  while (p < end) {
    uint64_t rank;
    if (!GetUvarint(&p, end, &rank)) return false;
    ranks->push_back(static_cast<int64_t>(std::min<uint64_t>(rank, INT64_MAX)));
  }
  return true;
}

template <typename Index, typename Make>
uint32_t Intern(Index& index, std::string key, Make make) {
  auto [it, inserted] = index.try_emplace(std::move(key), 0);
  if (inserted) it->second = make();
  return it->second;
}

}  // namespace

uint32_t DefMerger::Category(const std::string& name) {
  return Intern(categories_, name, [&] {
    trace_->categories.push_back({name});
    return static_cast<uint32_t>(trace_->categories.size() - 1);
  });
}

uint32_t DefMerger::State(const std::string& name, uint32_t category, uint32_t color) {
  std::string key = name;
  key += '\0';
  if (category != kNone) key += trace_->categories[category].name;
  return Intern(states_, std::move(key), [&] {
    trace_->states.push_back({name, category, color});
    return static_cast<uint32_t>(trace_->states.size() - 1);
  });
}

uint32_t DefMerger::Callsite(const std::string& file, uint32_t line, const std::string& function) {
  std::string key = file + '\0' + std::to_string(line) + '\0' + function;
  return Intern(callsites_, std::move(key), [&] {
    trace_->callsites.push_back({file, line, function});
    return static_cast<uint32_t>(trace_->callsites.size() - 1);
  });
}

uint32_t DefMerger::EventType(const std::string& name, uint32_t category, ValueKind kind) {
  return Intern(event_types_, name, [&] {
    trace_->event_types.push_back({name, category, kind});
    return static_cast<uint32_t>(trace_->event_types.size() - 1);
  });
}

uint32_t DefMerger::Counter(const std::string& name, const std::string& unit, ValueKind kind,
                            uint32_t category) {
  return Intern(counters_, name, [&] {
    trace_->counters.push_back({name, unit, kind, category});
    return static_cast<uint32_t>(trace_->counters.size() - 1);
  });
}

uint32_t DefMerger::LocalCategory(const format::ProcessDefs& defs, uint64_t id) {
  if (id == 0) return kNone;
  auto it = defs.categories.find(id);
  if (it != defs.categories.end()) return Category(NameOr(defs, it->second.name, "category", id));
  ++trace_->stats.undefined_refs;
  return Category(model::Undefined(id));
}

ProcessIdMaps DefMerger::AddProcess(uint32_t index, const format::ProcessDefs& defs) {
  Process& p = trace_->processes[index];
  p.file_id = defs.id;
  if (defs.process) {
    p.pid = defs.process->pid;
    p.rank = defs.process->rank;
    p.host = defs.Str(defs.process->host);
    p.executable = defs.Str(defs.process->executable);
    p.arguments = defs.Str(defs.process->arguments);
    p.name = defs.Str(defs.process->name);
  }
  if (defs.clock)
    p.realtime_minus_monotonic_ns = static_cast<int64_t>(defs.clock->realtime_ns) -
                                    static_cast<int64_t>(defs.clock->monotonic_ns);
  p.clock_offsets = ClockOffsetsOf(defs);

  // Categories first, so their order follows the definitions, used or not.
  for (const auto& [id, d] : defs.categories)
    Category(NameOr(defs, d.name, "category", id));
  ProcessIdMaps maps;
  maps.states = FlatMap(defs.states);
  for (const auto& [id, d] : defs.states) {
    const uint32_t category = LocalCategory(defs, d.category);
    maps.states[id] = State(NameOr(defs, d.name, "state", id), category,
                            static_cast<uint32_t>(d.color & 0x1ffffff));
  }
  maps.callsites = FlatMap(defs.callsites);
  for (const auto& [id, d] : defs.callsites) {
    maps.callsites[id] = Callsite(std::string(defs.Str(d.file)),
                                  static_cast<uint32_t>(std::min<uint64_t>(d.line, UINT32_MAX)),
                                  std::string(defs.Str(d.function)));
  }
  maps.event_types = FlatMap(defs.event_types);
  for (const auto& [id, d] : defs.event_types) {
    maps.event_types[id] = EventType(NameOr(defs, d.name, "event type", id),
                                     LocalCategory(defs, d.category), ToValueKind(d.value_kind));
  }
  maps.counters = FlatMap(defs.counters);
  for (const auto& [id, d] : defs.counters) {
    maps.counters[id] = Counter(NameOr(defs, d.name, "counter", id), std::string(defs.Str(d.unit)),
                                d.value_kind == 2 ? ValueKind::kDouble : ValueKind::kInt,
                                LocalCategory(defs, d.category));
  }
  // Communicators stay per process: their ids and peers only mean something there.
  maps.communicators = FlatMap(defs.communicators);
  for (const auto& [id, d] : defs.communicators) {
    model::Communicator c{index,
                          id,
                          NameOr(defs, d.name, "communicator", id),
                          static_cast<uint8_t>(d.kind == 1 ? 1 : 0),
                          d.global_id,
                          {}};
    const std::string_view bytes = MembersOf(defs, id);
    auto known = members_.find(bytes);
    if (known == members_.end()) {
      std::vector<int64_t> ranks;
      const bool complete = DecodeMembers(bytes, &ranks);
      known = members_.emplace(std::string(bytes), Members{std::move(ranks), complete}).first;
    }
    c.members = known->second.list;
    if (!known->second.complete) {
      trace_->problems.push_back(
          StrFormat("process %u: communicator %llu: members end inside a rank (%zu ranks kept)",
                    defs.id, static_cast<unsigned long long>(id), c.members.size()));
    }
    trace_->communicators.push_back(std::move(c));
    maps.communicators[id] = static_cast<uint32_t>(trace_->communicators.size() - 1);
  }
  return maps;
}

uint32_t DefMerger::Undefined(RefKind kind, uint32_t process, uint64_t id) {
  ++trace_->stats.undefined_refs;
  if (kind == RefKind::kCommunicator) return kNone;
  auto [it, inserted] = undefined_.try_emplace({kind, process, id}, kNone);
  if (!inserted) return it->second;
  const std::string name = model::Undefined(id);
  switch (kind) {
    case RefKind::kState:
      it->second = State(name, kNone, 0);
      break;
    case RefKind::kCallsite:
      it->second = Callsite(name, 0, "");
      break;
    case RefKind::kEventType:
      it->second = EventType(name, kNone, ValueKind::kNone);
      break;
    case RefKind::kCounter:
      it->second = Counter(name, "", ValueKind::kInt, kNone);
      break;
    case RefKind::kCommunicator:
      break;
  }
  return it->second;
}

}  // namespace plx::model
