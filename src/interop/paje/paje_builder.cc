// The Paje builder (see paje_builder.h): parsed event lines as TraceBuilder
// calls.
#include "interop/paje/paje_builder.h"

#include <algorithm>

namespace plx::interop::paje {

namespace {

// How the values of a variable or event type read (Lookahead::ValueFlags).
uint8_t Classify(std::string_view v) {
  int64_t i;
  if (ParseInt(v, &i, Plus::kAccepted)) return 0;
  double d;
  return ParseDouble(v, &d, Plus::kAccepted) ? Lookahead::kNotInt
                                             : Lookahead::kNotInt | Lookahead::kNotNumber;
}

}  // namespace

uint32_t ParseColor(std::string_view s) {
  double c[3];
  for (double& x : c) {
    while (!s.empty() && IsSpace(s.front()))
      s.remove_prefix(1);
    size_t n = 0;
    while (n < s.size() && !IsSpace(s[n]))
      ++n;
    if (n == 0 || !ParseDouble(s.substr(0, n), &x, Plus::kAccepted) || !(x >= 0 && x <= 1))
      return 0;
    s.remove_prefix(n);
  }
  uint32_t rgb = 0;
  for (double x : c)
    rgb = rgb << 8 | static_cast<uint32_t>(x * 255 + 0.5);
  return 0x1000000u | rgb;
}

// ---- Lookahead --------------------------------------------------------------

void Lookahead::Link(bool start, std::string_view key, std::string_view container) {
  auto [kit, new_key] = key_ids_.try_emplace(std::string(key), static_cast<uint32_t>(keys_.size()));
  if (new_key) keys_.emplace_back();
  auto [tit, new_token] =
      token_ids_.try_emplace(std::string(container), static_cast<uint32_t>(tokens_.size()));
  if (new_token) tokens_.emplace_back(container);
  KeyLinks& kl = keys_[kit->second];
  (start ? kl.starts : kl.ends).push_back(tit->second);
}

void Lookahead::Value(std::string_view type, std::string_view value) {
  value_kinds_[std::string(type)] |= Classify(value);
}

void Lookahead::Finish() {
  uint64_t base = 0;
  for (KeyLinks& kl : keys_) {
    kl.base = base;
    base += std::max(kl.starts.size(), kl.ends.size());
  }
}

uint8_t Lookahead::ValueFlags(std::string_view type) const {
  auto it = value_kinds_.find(std::string(type));
  return it == value_kinds_.end() ? 0 : it->second;
}

Lookahead::KeyLinks* Lookahead::LinksOf(std::string_view key) {
  auto it = key_ids_.find(std::string(key));
  return it == key_ids_.end() ? nullptr : &keys_[it->second];
}

// ---- Builder ----------------------------------------------------------------

Status Builder::Event(const EventDef& d, const LineFields& fields, int64_t ns, const Where& where) {
  fields_ = &fields;
  where_ = &where;
  switch (d.kind) {
    case Kind::kDefineContainerType:
    case Kind::kDefineStateType:
    case Kind::kDefineEventType:
    case Kind::kDefineVariableType:
    case Kind::kDefineLinkType:
      return DefineType(d);
    case Kind::kDefineEntityValue:
      return DefineValue(d);
    case Kind::kCreateContainer:
      return CreateContainer(d);
    case Kind::kDestroyContainer:
      return DestroyContainer(d, ns);
    case Kind::kSetState:
    case Kind::kPushState:
    case Kind::kPopState:
    case Kind::kResetState:
      return StateEvent(d, ns);
    case Kind::kStartLink:
    case Kind::kEndLink:
      return LinkEvent(d, ns);
    case Kind::kSetVariable:
    case Kind::kAddVariable:
    case Kind::kSubVariable:
      return VariableEvent(d, ns);
    case Kind::kNewEvent:
      return NewEvent(d, ns);
  }
  return Status::Ok();
}

Status Builder::FindType(const EventDef& d, Role r, Kind want, uint32_t* type) const {
  const std::string_view t = Of(d, r);
  auto it = type_ids_.find(std::string(t));
  if (it == type_ids_.end()) return Error(d.NameOf(r), "unknown type " + std::string(t));
  if (types_[it->second].kind != want) {
    return Error(d.NameOf(r), "wrong kind of type " + std::string(t));
  }
  *type = it->second;
  return Status::Ok();
}
Status Builder::FindContainer(const EventDef& d, Role r, uint32_t* c) const {
  const std::string_view t = Of(d, r);
  auto it = container_ids_.find(std::string(t));
  if (it == container_ids_.end()) return Error(d.NameOf(r), "unknown container " + std::string(t));
  if (containers_[it->second].alias != t && ambiguous_names_.count(it->first) > 0) {
    b_.Note(ImportCounter::kPajeAmbiguousContainerReferences);  // the latest container of that name
  }
  *c = it->second;
  return Status::Ok();
}
// The value `token` names in `type` (made on first use when undefined).
uint32_t Builder::ValueOf(uint32_t type, std::string_view token) {
  TypeInfo& t = types_[type];
  auto [it, added] =
      t.values.try_emplace(std::string(token), static_cast<uint32_t>(values_.size()));
  if (added) values_.push_back({std::string(token), 0, kNo});
  return it->second;
}

Status Builder::DefineType(const EventDef& d) {
  uint32_t parent;
  PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineContainerType, &parent));
  if (d.kind == Kind::kDefineLinkType) {
    uint32_t ignored;
    PLX_RETURN_IF_ERROR(FindType(d, kStartContainerType, Kind::kDefineContainerType, &ignored));
    PLX_RETURN_IF_ERROR(FindType(d, kEndContainerType, Kind::kDefineContainerType, &ignored));
  }
  TypeInfo t;
  t.name = std::string(Of(d, kName));
  t.kind = d.kind;
  t.parent = parent;
  if (d.kind == Kind::kDefineVariableType || d.kind == Kind::kDefineEventType) {
    uint8_t flags = 0;
    for (std::string_view s : {Of(d, kName), Of(d, kAlias)}) {
      if (!s.empty()) flags |= ahead_.ValueFlags(s);
    }
    t.value_kind = (flags & Lookahead::kNotNumber) != 0 ? model::ValueKind::kString
                   : (flags & Lookahead::kNotInt) != 0  ? model::ValueKind::kDouble
                                                        : model::ValueKind::kInt;
    if (d.kind == Kind::kDefineVariableType) {
      if (t.value_kind == model::ValueKind::kString) t.value_kind = model::ValueKind::kDouble;
      t.handle = b_.Counter(t.name, "", t.value_kind);
    } else {
      t.handle = b_.EventType(t.name, t.value_kind);
    }
  }
  const auto id = static_cast<uint32_t>(types_.size());
  types_[parent].has_children |= d.kind == Kind::kDefineContainerType;
  types_.push_back(std::move(t));
  type_ids_[std::string(Of(d, kName))] = id;
  if (d.at[kAlias] >= 0) type_ids_[std::string(Of(d, kAlias))] = id;
  return Status::Ok();
}

Status Builder::DefineValue(const EventDef& d) {
  const std::string_view t = Of(d, kType);
  auto it = type_ids_.find(std::string(t));
  if (it == type_ids_.end()) return Error(d.NameOf(kType), "unknown type " + std::string(t));
  const uint32_t v = ValueOf(it->second, Of(d, kName));
  if (d.at[kColor] >= 0) {
    values_[v].color = ParseColor(Of(d, kColor));
    if (values_[v].color == 0) b_.Note(ImportCounter::kPajeBadColors);
  }
  if (d.at[kAlias] >= 0) types_[it->second].values[std::string(Of(d, kAlias))] = v;
  return Status::Ok();
}

Status Builder::CreateContainer(const EventDef& d) {
  uint32_t type, parent;
  PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineContainerType, &type));
  PLX_RETURN_IF_ERROR(FindContainer(d, kContainer, &parent));
  Container c;
  c.name = std::string(Of(d, kName));
  c.alias = d.at[kAlias] >= 0 ? std::string(Of(d, kAlias)) : c.name;
  c.type = type;
  c.parent = parent;
  const auto id = static_cast<uint32_t>(containers_.size());
  containers_.push_back(std::move(c));
  auto [it, added] = container_ids_.try_emplace(containers_[id].name, id);
  if (!added) {
    // Legal (names repeat under different parents); only a reference by
    // such a name is ambiguous (FindContainer counts those).
    ambiguous_names_.insert(containers_[id].name);
    it->second = id;
  }
  container_ids_[containers_[id].alias] = id;
  // Leaf containers are threads from their creation, so that threads keep
  // the order of the file; others become threads at their first event.
  if (!types_[type].has_children) ThreadOf(id);
  return Status::Ok();
}

uint32_t Builder::ProcessFor(uint32_t c) {
  const uint32_t pc = c == 0 || containers_[c].parent == 0 ? c : containers_[c].parent;
  Container& p = containers_[pc];
  if (p.process == kNo) {
    ProcessInfo info;
    info.name = p.name;
    // Parallax writes a process's MPI rank as its alias "R<rank>".
    int64_t rank;
    const auto index = static_cast<int64_t>(ranks_.size());
    info.rank = p.alias.size() > 1 && p.alias[0] == 'R' &&
                        ParseInt(std::string_view(p.alias).substr(1), &rank, Plus::kAccepted) &&
                        rank >= 0
                    ? rank
                    : index;
    p.process = b_.AddProcess(info);
    ranks_.push_back(info.rank);
  }
  return p.process;
}
uint32_t Builder::ThreadOf(uint32_t c) {
  if (containers_[c].thread == kNo) {
    const uint32_t process = ProcessFor(c);
    containers_[c].thread = b_.AddThread(process, {0, containers_[c].name});
  }
  return containers_[c].thread;
}

Status Builder::DestroyContainer(const EventDef& d, int64_t ns) {
  uint32_t c;
  PLX_RETURN_IF_ERROR(FindContainer(d, kName, &c));
  for (uint32_t s : containers_[c].stacks) {
    Stack& st = stacks_[s];
    while (!st.states.empty()) {
      if (!b_.Leave(st.thread, Clamp(st.thread, ns), st.states.back())) return Backwards(d, c);
      st.states.pop_back();
    }
  }
  return Status::Ok();
}

// A time before the thread's last event (PajeNG accepts a little disorder
// in real traces) is moved up to it and counted.
int64_t Builder::Clamp(uint32_t thread, int64_t ns) {
  if (ns >= b_.LastTime(thread)) return ns;
  b_.Note(ImportCounter::kPajeTimesMovedForward);
  return b_.LastTime(thread);
}

Status Builder::Backwards(const EventDef& d, uint32_t c) const {
  return Error(d.NameOf(kTime), "before the previous event of container " + containers_[c].name);
}

Status Builder::StateEvent(const EventDef& d, int64_t ns) {
  uint32_t c, type;
  PLX_RETURN_IF_ERROR(FindContainer(d, kContainer, &c));
  PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineStateType, &type));
  Stack& st = StackOf(c, type);
  if (d.kind != Kind::kPushState) {  // Set and Reset end what is open, Pop the innermost
    while (!st.states.empty()) {
      if (!b_.Leave(st.thread, Clamp(st.thread, ns), st.states.back())) return Backwards(d, c);
      st.states.pop_back();
      if (d.kind == Kind::kPopState) return Status::Ok();
    }
    if (d.kind == Kind::kPopState) {
      b_.Note(ImportCounter::kPajePopsWithoutPush);
      return Status::Ok();
    }
  }
  if (d.kind == Kind::kPopState || d.kind == Kind::kResetState) return Status::Ok();
  Value& v = values_[ValueOf(type, Of(d, kValue))];
  if (v.state == kNo) v.state = b_.State(v.name, "user", v.color);
  if (!b_.Enter(st.thread, Clamp(st.thread, ns), v.state)) return Backwards(d, c);
  st.states.push_back(v.state);
  return Status::Ok();
}

// The stack of `type` in container `c`: the first state type of a container
// uses its thread, each further one a thread of its own (Paje state types
// nest independently, a thread's slices must nest).
Builder::Stack& Builder::StackOf(uint32_t c, uint32_t type) {
  const uint64_t key = uint64_t{c} << 32 | type;
  auto it = stack_ids_.find(key);
  if (it != stack_ids_.end()) return stacks_[it->second];
  Stack st;
  Container& con = containers_[c];
  if (con.first_state_type == kNo || con.first_state_type == type) {
    con.first_state_type = type;
    st.thread = ThreadOf(c);
  } else {
    const uint32_t process = b_.ProcessOf(ThreadOf(c));
    st.thread = b_.AddThread(process, {0, containers_[c].name + " (" + types_[type].name + ")"});
  }
  const auto id = static_cast<uint32_t>(stacks_.size());
  stacks_.push_back(std::move(st));
  containers_[c].stacks.push_back(id);
  stack_ids_.emplace(key, id);
  return stacks_[id];
}

Status Builder::LinkEvent(const EventDef& d, int64_t ns) {
  uint32_t c, type;
  const bool start = d.kind == Kind::kStartLink;
  PLX_RETURN_IF_ERROR(FindContainer(d, start ? kStartContainer : kEndContainer, &c));
  PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineLinkType, &type));
  Lookahead::KeyLinks* links = ahead_.LinksOf(Of(d, kKey));
  if (links == nullptr) return Error(d.NameOf(kKey), "changed between passes");
  Lookahead::KeyLinks& kl = *links;
  const uint32_t n = start ? kl.starts_seen++ : kl.ends_seen++;
  const std::vector<uint32_t>& other = start ? kl.ends : kl.starts;
  if (n >= other.size()) {
    b_.Note(ImportCounter::kPajeLinksWithoutOtherEnd);
    return Status::Ok();
  }
  auto oit = container_ids_.find(ahead_.Token(other[n]));
  if (oit == container_ids_.end()) {
    b_.Note(ImportCounter::kPajeLinksToUnknownContainers);
    return Status::Ok();
  }
  const uint32_t self = ThreadOf(c), peer_thread = ThreadOf(oit->second);
  const uint32_t process = b_.ProcessOf(self), peer_process = b_.ProcessOf(peer_thread);
  const uint8_t kind = process == peer_process ? 1 : 0;
  const uint32_t value = ValueOf(type, Of(d, kValue));
  const uint64_t ckey = uint64_t{process} << 33 | uint64_t{kind} << 32 | value;
  auto [cit, added] = comms_.try_emplace(ckey, 0u);
  if (added) {
    const std::string& name = values_[value].name;
    uint64_t global = 0;
    if (kind == 0) global = global_ids_.try_emplace(name, global_ids_.size() + 1).first->second;
    cit->second = b_.Communicator(process, name, kind, global, {});
  }
  const int64_t peer = kind == 1 ? b_.StreamOf(peer_thread) : ranks_[peer_process];
  int64_t tag = 0, size = 0;
  if (d.at[kTag] >= 0 && !ParseInt(Of(d, kTag), &tag, Plus::kAccepted))
    return Error(d.NameOf(kTag), "bad integer");
  if (d.at[kSize] >= 0 && !ParseInt(Of(d, kSize), &size, Plus::kAccepted)) {
    return Error(d.NameOf(kSize), "bad integer");
  }
  const uint64_t match = kl.base + n + 1;
  ns = Clamp(self, ns);
  const auto bytes = static_cast<uint64_t>(std::max<int64_t>(size, 0));
  const bool ok = start ? b_.Send(self, ns, cit->second, peer, tag, bytes, match)
                        : b_.Recv(self, ns, cit->second, peer, tag, bytes, match);
  return ok ? Status::Ok() : Backwards(d, c);
}

Status Builder::VariableEvent(const EventDef& d, int64_t ns) {
  uint32_t c, type;
  PLX_RETURN_IF_ERROR(FindContainer(d, kContainer, &c));
  PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineVariableType, &type));
  const TypeInfo& t = types_[type];
  Variable& v = variables_[uint64_t{c} << 32 | type];
  const int sign = d.kind == Kind::kSetVariable ? 0 : d.kind == Kind::kAddVariable ? 1 : -1;
  const uint32_t thread = ThreadOf(c);
  ns = Clamp(thread, ns);
  bool ok;
  if (t.value_kind == model::ValueKind::kInt) {
    int64_t x;
    if (!ParseInt(Of(d, kValue), &x, Plus::kAccepted))
      return Error(d.NameOf(kValue), "bad integer");
    // Wrapping arithmetic: damaged input must not overflow.
    const auto ux = static_cast<uint64_t>(x), ui = static_cast<uint64_t>(v.i);
    v.i = static_cast<int64_t>(sign == 0 ? ux : sign > 0 ? ui + ux : ui - ux);
    ok = b_.CounterInt(thread, ns, t.handle, v.i);
  } else {
    double x;
    if (!ParseDouble(Of(d, kValue), &x, Plus::kAccepted))
      return Error(d.NameOf(kValue), "bad number");
    v.d = sign == 0 ? x : v.d + sign * x;
    ok = b_.CounterDouble(thread, ns, t.handle, v.d);
  }
  return ok ? Status::Ok() : Backwards(d, c);
}

Status Builder::NewEvent(const EventDef& d, int64_t ns) {
  uint32_t c, type;
  PLX_RETURN_IF_ERROR(FindContainer(d, kContainer, &c));
  PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineEventType, &type));
  const TypeInfo& t = types_[type];
  const uint32_t thread = ThreadOf(c);
  ns = Clamp(thread, ns);
  const std::string_view text = Of(d, kValue);
  int64_t i;
  double x;
  bool ok;
  if (t.value_kind == model::ValueKind::kInt && ParseInt(text, &i, Plus::kAccepted)) {
    ok = b_.InstantInt(thread, ns, t.handle, i);
  } else if (t.value_kind == model::ValueKind::kDouble && ParseDouble(text, &x, Plus::kAccepted)) {
    ok = b_.InstantDouble(thread, ns, t.handle, x);
  } else {
    // A defined entity value reads as its name.
    auto it = t.values.find(std::string(text));
    ok = b_.InstantString(thread, ns, t.handle,
                          it == t.values.end() ? text : std::string_view(values_[it->second].name));
  }
  return ok ? Status::Ok() : Backwards(d, c);
}

void Builder::CloseAll(int64_t end_ns) {
  uint64_t closed = 0;
  for (Stack& st : stacks_) {
    for (; !st.states.empty(); st.states.pop_back(), ++closed) {
      b_.Leave(st.thread, std::max(end_ns, b_.LastTime(st.thread)), st.states.back());
    }
  }
  if (closed > 0) b_.Note(ImportCounter::kPajeStatesOpenAtEnd, closed);
}

}  // namespace plx::interop::paje
