// ImportPaje: reads a Paje trace file (ViTE, PajeNG) through a TraceBuilder.
// The %EventDef header is read generally (any event ids, fields in any order,
// old field names, extra fields). Two passes over the file: the first finds
// both ends of every link (an end may come before its start) and whether each
// variable and event type holds integers, the second writes the trace.
// The mapping onto processes and threads is described in docs/interop.md.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/strings.h"
#include "interop/paje/paje.h"
#include "interop/text_file.h"

namespace plx::interop {

namespace {

enum class Kind : uint8_t {
  kDefineContainerType,
  kDefineStateType,
  kDefineEventType,
  kDefineVariableType,
  kDefineLinkType,
  kDefineEntityValue,
  kCreateContainer,
  kDestroyContainer,
  kSetState,
  kPushState,
  kPopState,
  kResetState,
  kStartLink,
  kEndLink,
  kSetVariable,
  kAddVariable,
  kSubVariable,
  kNewEvent,
};

struct KindName {
  const char* name;
  Kind kind;
};
constexpr KindName kKinds[] = {
    {"PajeDefineContainerType", Kind::kDefineContainerType},
    {"PajeDefineStateType", Kind::kDefineStateType},
    {"PajeDefineEventType", Kind::kDefineEventType},
    {"PajeDefineVariableType", Kind::kDefineVariableType},
    {"PajeDefineLinkType", Kind::kDefineLinkType},
    {"PajeDefineEntityValue", Kind::kDefineEntityValue},
    {"PajeCreateContainer", Kind::kCreateContainer},
    {"PajeDestroyContainer", Kind::kDestroyContainer},
    {"PajeSetState", Kind::kSetState},
    {"PajePushState", Kind::kPushState},
    {"PajePopState", Kind::kPopState},
    {"PajeResetState", Kind::kResetState},
    {"PajeStartLink", Kind::kStartLink},
    {"PajeEndLink", Kind::kEndLink},
    {"PajeSetVariable", Kind::kSetVariable},
    {"PajeAddVariable", Kind::kAddVariable},
    {"PajeSubVariable", Kind::kSubVariable},
    {"PajeNewEvent", Kind::kNewEvent},
};

// What a field means; other names are extra fields, kept but unused.
enum Role : uint8_t {
  kTime,
  kAlias,
  kType,
  kName,
  kContainer,
  kStartContainerType,
  kEndContainerType,
  kStartContainer,
  kEndContainer,
  kValue,
  kKey,
  kColor,
  kTag,
  kSize,
  kRoles,
  kExtra = kRoles,
};

struct RoleName {
  const char* name;
  Role role;
};
// Current names first, then the older ones PajeNG still accepts.
constexpr RoleName kRoleNames[] = {
    {"Time", kTime},
    {"Alias", kAlias},
    {"Type", kType},
    {"Name", kName},
    {"Container", kContainer},
    {"StartContainerType", kStartContainerType},
    {"EndContainerType", kEndContainerType},
    {"StartContainer", kStartContainer},
    {"EndContainer", kEndContainer},
    {"Value", kValue},
    {"Key", kKey},
    {"Color", kColor},
    {"Tag", kTag},
    {"Size", kSize},
    {"ContainerType", kType},
    {"EntityType", kType},
    {"SourceContainerType", kStartContainerType},
    {"DestContainerType", kEndContainerType},
    {"SourceContainer", kStartContainer},
    {"DestContainer", kEndContainer},
};

enum class FieldType : uint8_t { kDate, kInt, kDouble, kHex, kString, kColor };

struct Field {
  std::string name;
  Role role = kExtra;
  FieldType type = FieldType::kString;
};

struct EventDef {
  Kind kind = Kind::kNewEvent;
  bool defined = false;
  std::vector<Field> fields;
  int8_t at[kRoles];  // field index of each role, -1 = absent
};

// The roles each event must have (besides those that are optional).
std::vector<Role> Required(Kind k) {
  switch (k) {
    case Kind::kDefineContainerType:
    case Kind::kDefineStateType:
    case Kind::kDefineEventType:
    case Kind::kDefineVariableType:
    case Kind::kDefineEntityValue:
      return {kType, kName};
    case Kind::kDefineLinkType:
      return {kType, kStartContainerType, kEndContainerType, kName};
    case Kind::kCreateContainer:
      return {kTime, kType, kContainer, kName};
    case Kind::kDestroyContainer:
      return {kTime, kType, kName};
    case Kind::kSetState:
    case Kind::kPushState:
    case Kind::kSetVariable:
    case Kind::kAddVariable:
    case Kind::kSubVariable:
    case Kind::kNewEvent:
      return {kTime, kContainer, kType, kValue};
    case Kind::kPopState:
    case Kind::kResetState:
      return {kTime, kContainer, kType};
    case Kind::kStartLink:
      return {kTime, kContainer, kType, kStartContainer, kValue, kKey};
    case Kind::kEndLink:
      return {kTime, kContainer, kType, kEndContainer, kValue, kKey};
  }
  return {};
}

// "r g b", each 0..1, as 0x1000000 | 0xRRGGBB; 0 when it is not a colour.
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

// How the values of a variable or event type read: bit 1 = not all integers,
// bit 2 = not all numbers.
constexpr uint8_t kNotInt = 1, kNotNumber = 2;
uint8_t Classify(std::string_view v) {
  int64_t i;
  if (ParseInt(v, &i, Plus::kAccepted)) return 0;
  double d;
  return ParseDouble(v, &d, Plus::kAccepted) ? kNotInt : kNotInt | kNotNumber;
}

constexpr uint32_t kNo = 0xffffffffu;

class Reader {
 public:
  Reader(const std::string& path, TraceBuilder& out, const Progress& progress)
      : path_(path), b_(out), progress_(progress) {}

  Status Run() {
    PLX_ASSIGN_OR_RETURN(FILE * f, OpenInput(path_, &size_));
    Status s = Pass(f, 1);
    if (s.ok() && !content_) s = InputError(path_, "", "", "empty input");
    if (s.ok()) {
      std::rewind(f);
      Finish1();
      s = Pass(f, 2);
    }
    std::fclose(f);
    if (!s.ok()) return s;
    CloseAll();
    return Status::Ok();
  }

 private:
  struct TypeInfo {
    std::string name;
    Kind kind = Kind::kDefineContainerType;  // which Define made it
    uint32_t parent = kNo;
    bool has_children = false;
    model::ValueKind value_kind = model::ValueKind::kInt;
    uint32_t handle = kNo;                             // builder counter or event type
    std::unordered_map<std::string, uint32_t> values;  // alias and name -> values_
  };
  struct Value {
    std::string name;
    uint32_t color = 0;
    uint32_t state = kNo;  // builder state, on first use
  };
  struct Container {
    std::string name, alias;
    uint32_t type = 0;
    uint32_t parent = kNo;
    uint32_t thread = kNo;   // main thread
    uint32_t process = kNo;  // when it stands for a process
    uint32_t first_state_type = kNo;
    std::vector<uint32_t> stacks;  // into stacks_
  };
  struct Stack {
    uint32_t thread = kNo;
    std::vector<uint32_t> states;
  };
  struct KeyLinks {
    std::vector<uint32_t> starts, ends;  // container tokens, in file order
    uint32_t starts_seen = 0, ends_seen = 0;
    uint64_t base = 0;  // match numbers base+1, base+2, ...
  };
  struct Variable {
    int64_t i = 0;
    double d = 0;
  };

  Status Error(std::string_view field, std::string_view what) const {
    return InputError(path_, std::to_string(line_no_), field, what);
  }
  std::string_view FieldName(const EventDef& d, Role r) const {
    return d.at[r] >= 0 ? std::string_view(d.fields[d.at[r]].name) : std::string_view();
  }
  std::string_view Tok(const EventDef& d, Role r) const {
    return d.at[r] >= 0 ? fields_[d.at[r]] : std::string_view();
  }

  Status Pass(FILE* f, int pass) {
    pass_ = pass;
    LineReader lines(f);
    std::string_view line;
    line_no_ = 0;
    uint64_t next_report = 0;
    while (lines.Next(&line)) {
      ++line_no_;
      if (progress_ && lines.consumed() >= next_report) {
        progress_((pass - 1) * size_ + lines.consumed(), 2 * size_);
        next_report = lines.consumed() + (4 << 20);
      }
      size_t i = 0;
      while (i < line.size() && IsSpace(line[i]))
        ++i;
      if (i == line.size() || line[i] == '#') continue;
      content_ = true;
      if (line[i] == '%') {
        if (pass == 1) PLX_RETURN_IF_ERROR(HeaderLine(line.substr(i + 1)));
        continue;
      }
      if (in_def_ != kNo) return Error("%EventDef", "not closed by %EndEventDef");
      PLX_RETURN_IF_ERROR(EventLine(line.substr(i)));
    }
    if (lines.too_long()) {
      ++line_no_;
      return Error("", StrFormat("line longer than %zu MiB", LineReader::kMaxLine >> 20));
    }
    if (in_def_ != kNo) return Error("%EventDef", "not closed by %EndEventDef");
    return Status::Ok();
  }

  // Splits `line` into fields_: words and "quoted strings" ('quoted' too).
  Status Split(std::string_view line) {
    switch (fields_.Split(line)) {
      case LineFields::Result::kOk:
        return Status::Ok();
      case LineFields::Result::kTooMany:
        return Error("", "more than 64 fields");
      case LineFields::Result::kUnterminated:
        return Error("", "unterminated quoted string");
    }
    return Status::Ok();
  }

  Status HeaderLine(std::string_view line) {
    PLX_RETURN_IF_ERROR(Split(line));
    if (fields_.size() == 0) return Status::Ok();
    if (fields_[0] == "EventDef") {
      if (in_def_ != kNo) return Error("%EventDef", "inside another %EventDef");
      if (fields_.size() < 3) return Error("%EventDef", "needs an event name and an id");
      const KindName* k = nullptr;
      for (const KindName& kn : kKinds) {
        if (fields_[1] == kn.name) k = &kn;
      }
      if (fields_[1] == "PajeTraceFile") {
        return Error("%EventDef", "PajeTraceFile (a trace in several files) is not supported");
      }
      if (k == nullptr) return Error("%EventDef", "unknown event " + std::string(fields_[1]));
      int64_t id;
      if (!ParseInt(fields_[2], &id, Plus::kAccepted) || id < 0 || id > 65535) {
        return Error("%EventDef", "bad event id " + std::string(fields_[2]));
      }
      const auto uid = static_cast<uint32_t>(id);
      if (uid >= defs_.size()) defs_.resize(uid + 1);
      if (defs_[uid].defined)
        return Error("%EventDef", "event id " + std::to_string(id) + " defined twice");
      defs_[uid] = EventDef();
      defs_[uid].kind = k->kind;
      std::fill(std::begin(defs_[uid].at), std::end(defs_[uid].at), -1);
      in_def_ = uid;
      return Status::Ok();
    }
    if (fields_[0] == "EndEventDef") {
      if (in_def_ == kNo) return Error("%EndEventDef", "without %EventDef");
      EventDef& d = defs_[in_def_];
      for (Role r : Required(d.kind)) {
        if (d.at[r] < 0) {
          for (const RoleName& rn : kRoleNames) {
            if (rn.role == r) return Error(rn.name, "missing from the event definition");
          }
        }
      }
      d.defined = true;
      in_def_ = kNo;
      return Status::Ok();
    }
    if (in_def_ == kNo) return Status::Ok();  // a comment line
    if (fields_.size() != 2) return Error("%field", "needs a name and a type");
    EventDef& d = defs_[in_def_];
    Field fld;
    fld.name = std::string(fields_[0]);
    const std::string_view type = fields_[1];
    if (type == "date") {
      fld.type = FieldType::kDate;
    } else if (type == "int") {
      fld.type = FieldType::kInt;
    } else if (type == "double") {
      fld.type = FieldType::kDouble;
    } else if (type == "hex") {
      fld.type = FieldType::kHex;
    } else if (type == "string") {
      fld.type = FieldType::kString;
    } else if (type == "color") {
      fld.type = FieldType::kColor;
    } else {
      return Error(fields_[0], "unknown field type " + std::string(type));
    }
    for (const RoleName& rn : kRoleNames) {
      if (fields_[0] == rn.name) fld.role = rn.role;
    }
    if (d.fields.size() >= LineFields::kMax - 1) return Error(fields_[0], "too many fields");
    if (fld.role != kExtra) {
      if (d.at[fld.role] >= 0) return Error(fields_[0], "defined twice");
      d.at[fld.role] = static_cast<int8_t>(d.fields.size());
    }
    d.fields.push_back(std::move(fld));
    return Status::Ok();
  }

  // Splits an event line and finds its definition.
  Status Fields(std::string_view line, const EventDef** def) {
    PLX_RETURN_IF_ERROR(Split(line));
    int64_t id;
    if (!ParseInt(fields_[0], &id, Plus::kAccepted) || id < 0 ||
        static_cast<uint64_t>(id) >= defs_.size() || !defs_[id].defined) {
      return Error("event id", "unknown " + std::string(fields_[0]));
    }
    const EventDef& d = defs_[id];
    const size_t n = fields_.size() - 1;
    if (n < d.fields.size()) return Error(d.fields[n].name, "missing (line has too few fields)");
    if (n > d.fields.size()) return Error("", "more fields than the event definition has");
    fields_.DropFirst();  // so that fields_[i] is field i
    *def = &d;
    return Status::Ok();
  }

  Status EventLine(std::string_view line) {
    // The first pass reads only what the second needs to know ahead.
    if (pass_ == 1) {
      size_t n = 0;
      while (n < line.size() && !IsSpace(line[n]))
        ++n;
      int64_t id;
      if (!ParseInt(line.substr(0, n), &id, Plus::kAccepted) || id < 0 ||
          static_cast<uint64_t>(id) >= defs_.size() || !defs_[id].defined) {
        return Error("event id", "unknown " + std::string(line.substr(0, n)));
      }
      const Kind k = defs_[id].kind;
      if (k != Kind::kStartLink && k != Kind::kEndLink && k != Kind::kSetVariable &&
          k != Kind::kAddVariable && k != Kind::kSubVariable && k != Kind::kNewEvent) {
        return Status::Ok();
      }
      const EventDef* d;
      PLX_RETURN_IF_ERROR(Fields(line, &d));
      if (k == Kind::kStartLink || k == Kind::kEndLink) {
        KeyLinks& kl = KeyOf(Tok(*d, kKey));
        const uint32_t c = Token(Tok(*d, k == Kind::kStartLink ? kStartContainer : kEndContainer));
        (k == Kind::kStartLink ? kl.starts : kl.ends).push_back(c);
      } else {
        value_kinds_[std::string(Tok(*d, kType))] |= Classify(Tok(*d, kValue));
      }
      return Status::Ok();
    }
    const EventDef* dp;
    PLX_RETURN_IF_ERROR(Fields(line, &dp));
    const EventDef& d = *dp;
    int64_t ns = 0;
    if (d.at[kTime] >= 0) {
      if (!ParseSeconds(Tok(d, kTime), &ns)) return Error(FieldName(d, kTime), "bad time");
      if (ns < 0) return Error(FieldName(d, kTime), "negative time");
      last_ns_ = std::max(last_ns_, ns);
    }
    // Extra numeric fields must hold numbers.
    for (size_t i = 0; i < d.fields.size(); ++i) {
      const Field& fld = d.fields[i];
      if (fld.role != kExtra && fld.role != kTag && fld.role != kSize) continue;
      int64_t iv;
      double dv;
      if (fld.type == FieldType::kInt && !ParseInt(fields_[i], &iv, Plus::kAccepted))
        return Error(fld.name, "bad integer");
      if (fld.type == FieldType::kDouble && !ParseDouble(fields_[i], &dv, Plus::kAccepted)) {
        return Error(fld.name, "bad number");
      }
    }
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
        return CreateContainer(d, ns);
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

  // --- Pass 1 tables.
  KeyLinks& KeyOf(std::string_view key) {
    auto [it, added] = key_ids_.try_emplace(std::string(key), static_cast<uint32_t>(keys_.size()));
    if (added) keys_.emplace_back();
    return keys_[it->second];
  }
  uint32_t Token(std::string_view t) {
    auto [it, added] =
        token_ids_.try_emplace(std::string(t), static_cast<uint32_t>(tokens_.size()));
    if (added) tokens_.emplace_back(t);
    return it->second;
  }
  void Finish1() {
    uint64_t base = 0;
    for (KeyLinks& kl : keys_) {
      kl.base = base;
      base += std::max(kl.starts.size(), kl.ends.size());
    }
  }

  // --- Types, values, containers.
  Status FindType(const EventDef& d, Role r, Kind want, uint32_t* type) const {
    const std::string_view t = Tok(d, r);
    auto it = type_ids_.find(std::string(t));
    if (it == type_ids_.end()) return Error(FieldName(d, r), "unknown type " + std::string(t));
    if (types_[it->second].kind != want) {
      return Error(FieldName(d, r), "wrong kind of type " + std::string(t));
    }
    *type = it->second;
    return Status::Ok();
  }
  Status FindContainer(const EventDef& d, Role r, uint32_t* c) const {
    const std::string_view t = Tok(d, r);
    auto it = container_ids_.find(std::string(t));
    if (it == container_ids_.end())
      return Error(FieldName(d, r), "unknown container " + std::string(t));
    if (containers_[it->second].alias != t && ambiguous_names_.count(it->first) > 0) {
      b_.Note("paje.ambiguous_container_references");  // the latest container of that name
    }
    *c = it->second;
    return Status::Ok();
  }
  // The value `token` names in `type` (made on first use when undefined).
  uint32_t ValueOf(uint32_t type, std::string_view token) {
    TypeInfo& t = types_[type];
    auto [it, added] =
        t.values.try_emplace(std::string(token), static_cast<uint32_t>(values_.size()));
    if (added) values_.push_back({std::string(token), 0, kNo});
    return it->second;
  }

  Status DefineType(const EventDef& d) {
    uint32_t parent;
    PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineContainerType, &parent));
    if (d.kind == Kind::kDefineLinkType) {
      uint32_t ignored;
      PLX_RETURN_IF_ERROR(FindType(d, kStartContainerType, Kind::kDefineContainerType, &ignored));
      PLX_RETURN_IF_ERROR(FindType(d, kEndContainerType, Kind::kDefineContainerType, &ignored));
    }
    TypeInfo t;
    t.name = std::string(Tok(d, kName));
    t.kind = d.kind;
    t.parent = parent;
    if (d.kind == Kind::kDefineVariableType || d.kind == Kind::kDefineEventType) {
      uint8_t flags = 0;
      for (std::string_view s : {Tok(d, kName), Tok(d, kAlias)}) {
        auto it = value_kinds_.find(std::string(s));
        if (!s.empty() && it != value_kinds_.end()) flags |= it->second;
      }
      t.value_kind = (flags & kNotNumber) != 0 ? model::ValueKind::kString
                     : (flags & kNotInt) != 0  ? model::ValueKind::kDouble
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
    type_ids_[std::string(Tok(d, kName))] = id;
    if (d.at[kAlias] >= 0) type_ids_[std::string(Tok(d, kAlias))] = id;
    return Status::Ok();
  }

  Status DefineValue(const EventDef& d) {
    const std::string_view t = Tok(d, kType);
    auto it = type_ids_.find(std::string(t));
    if (it == type_ids_.end()) return Error(FieldName(d, kType), "unknown type " + std::string(t));
    const uint32_t v = ValueOf(it->second, Tok(d, kName));
    if (d.at[kColor] >= 0) {
      values_[v].color = ParseColor(Tok(d, kColor));
      if (values_[v].color == 0) b_.Note("paje.bad_colors");
    }
    if (d.at[kAlias] >= 0) types_[it->second].values[std::string(Tok(d, kAlias))] = v;
    return Status::Ok();
  }

  Status CreateContainer(const EventDef& d, int64_t /*ns*/) {
    uint32_t type, parent;
    PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineContainerType, &type));
    PLX_RETURN_IF_ERROR(FindContainer(d, kContainer, &parent));
    Container c;
    c.name = std::string(Tok(d, kName));
    c.alias = d.at[kAlias] >= 0 ? std::string(Tok(d, kAlias)) : c.name;
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

  uint32_t ProcessFor(uint32_t c) {
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
  uint32_t ThreadOf(uint32_t c) {
    if (containers_[c].thread == kNo) {
      const uint32_t process = ProcessFor(c);
      containers_[c].thread = b_.AddThread(process, {0, containers_[c].name});
    }
    return containers_[c].thread;
  }

  Status DestroyContainer(const EventDef& d, int64_t ns) {
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
  int64_t Clamp(uint32_t thread, int64_t ns) {
    if (ns >= b_.LastTime(thread)) return ns;
    b_.Note("paje.times_moved_forward");
    return b_.LastTime(thread);
  }

  Status Backwards(const EventDef& d, uint32_t c) const {
    return Error(FieldName(d, kTime),
                 "before the previous event of container " + containers_[c].name);
  }

  Status StateEvent(const EventDef& d, int64_t ns) {
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
        b_.Note("paje.pops_without_push");
        return Status::Ok();
      }
    }
    if (d.kind == Kind::kPopState || d.kind == Kind::kResetState) return Status::Ok();
    Value& v = values_[ValueOf(type, Tok(d, kValue))];
    if (v.state == kNo) v.state = b_.State(v.name, "user", v.color);
    if (!b_.Enter(st.thread, Clamp(st.thread, ns), v.state)) return Backwards(d, c);
    st.states.push_back(v.state);
    return Status::Ok();
  }

  // The stack of `type` in container `c`: the first state type of a container
  // uses its thread, each further one a thread of its own (Paje state types
  // nest independently, a thread's slices must nest).
  Stack& StackOf(uint32_t c, uint32_t type) {
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

  Status LinkEvent(const EventDef& d, int64_t ns) {
    uint32_t c, type;
    const bool start = d.kind == Kind::kStartLink;
    PLX_RETURN_IF_ERROR(FindContainer(d, start ? kStartContainer : kEndContainer, &c));
    PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineLinkType, &type));
    auto kit = key_ids_.find(std::string(Tok(d, kKey)));
    if (kit == key_ids_.end()) return Error(FieldName(d, kKey), "changed between passes");
    KeyLinks& kl = keys_[kit->second];
    const uint32_t n = start ? kl.starts_seen++ : kl.ends_seen++;
    const std::vector<uint32_t>& other = start ? kl.ends : kl.starts;
    if (n >= other.size()) {
      b_.Note("paje.links_without_other_end");
      return Status::Ok();
    }
    auto oit = container_ids_.find(tokens_[other[n]]);
    if (oit == container_ids_.end()) {
      b_.Note("paje.links_to_unknown_containers");
      return Status::Ok();
    }
    const uint32_t self = ThreadOf(c), peer_thread = ThreadOf(oit->second);
    const uint32_t process = b_.ProcessOf(self), peer_process = b_.ProcessOf(peer_thread);
    const uint8_t kind = process == peer_process ? 1 : 0;
    const uint32_t value = ValueOf(type, Tok(d, kValue));
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
    if (d.at[kTag] >= 0 && !ParseInt(Tok(d, kTag), &tag, Plus::kAccepted))
      return Error(FieldName(d, kTag), "bad integer");
    if (d.at[kSize] >= 0 && !ParseInt(Tok(d, kSize), &size, Plus::kAccepted)) {
      return Error(FieldName(d, kSize), "bad integer");
    }
    const uint64_t match = kl.base + n + 1;
    ns = Clamp(self, ns);
    const auto bytes = static_cast<uint64_t>(std::max<int64_t>(size, 0));
    const bool ok = start ? b_.Send(self, ns, cit->second, peer, tag, bytes, match)
                          : b_.Recv(self, ns, cit->second, peer, tag, bytes, match);
    return ok ? Status::Ok() : Backwards(d, c);
  }

  Status VariableEvent(const EventDef& d, int64_t ns) {
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
      if (!ParseInt(Tok(d, kValue), &x, Plus::kAccepted))
        return Error(FieldName(d, kValue), "bad integer");
      // Wrapping arithmetic: damaged input must not overflow.
      const auto ux = static_cast<uint64_t>(x), ui = static_cast<uint64_t>(v.i);
      v.i = static_cast<int64_t>(sign == 0 ? ux : sign > 0 ? ui + ux : ui - ux);
      ok = b_.CounterInt(thread, ns, t.handle, v.i);
    } else {
      double x;
      if (!ParseDouble(Tok(d, kValue), &x, Plus::kAccepted))
        return Error(FieldName(d, kValue), "bad number");
      v.d = sign == 0 ? x : v.d + sign * x;
      ok = b_.CounterDouble(thread, ns, t.handle, v.d);
    }
    return ok ? Status::Ok() : Backwards(d, c);
  }

  Status NewEvent(const EventDef& d, int64_t ns) {
    uint32_t c, type;
    PLX_RETURN_IF_ERROR(FindContainer(d, kContainer, &c));
    PLX_RETURN_IF_ERROR(FindType(d, kType, Kind::kDefineEventType, &type));
    const TypeInfo& t = types_[type];
    const uint32_t thread = ThreadOf(c);
    ns = Clamp(thread, ns);
    const std::string_view text = Tok(d, kValue);
    int64_t i;
    double x;
    bool ok;
    if (t.value_kind == model::ValueKind::kInt && ParseInt(text, &i, Plus::kAccepted)) {
      ok = b_.InstantInt(thread, ns, t.handle, i);
    } else if (t.value_kind == model::ValueKind::kDouble &&
               ParseDouble(text, &x, Plus::kAccepted)) {
      ok = b_.InstantDouble(thread, ns, t.handle, x);
    } else {
      // A defined entity value reads as its name.
      auto it = t.values.find(std::string(text));
      ok = b_.InstantString(
          thread, ns, t.handle,
          it == t.values.end() ? text : std::string_view(values_[it->second].name));
    }
    return ok ? Status::Ok() : Backwards(d, c);
  }

  // States still open at the end of the file end with the trace (as PajeNG
  // ends them).
  void CloseAll() {
    uint64_t closed = 0;
    for (Stack& st : stacks_) {
      for (; !st.states.empty(); st.states.pop_back(), ++closed) {
        b_.Leave(st.thread, std::max(last_ns_, b_.LastTime(st.thread)), st.states.back());
      }
    }
    if (closed > 0) b_.Note("paje.states_open_at_end", closed);
  }

  const std::string& path_;
  TraceBuilder& b_;
  const Progress& progress_;
  uint64_t size_ = 0;
  int pass_ = 1;
  uint64_t line_no_ = 0;
  bool content_ = false;  // a line other than blanks and comments
  LineFields fields_{{.quotes = "\"'"}};
  int64_t last_ns_ = 0;

  std::vector<EventDef> defs_;
  uint32_t in_def_ = kNo;

  std::unordered_map<std::string, uint32_t> key_ids_;
  std::vector<KeyLinks> keys_;
  std::unordered_map<std::string, uint32_t> token_ids_;
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, uint8_t> value_kinds_;

  std::vector<TypeInfo> types_ = {
      TypeInfo{"0", Kind::kDefineContainerType, kNo, false, model::ValueKind::kInt, kNo, {}}};
  std::unordered_map<std::string, uint32_t> type_ids_ = {{"0", 0}};
  std::vector<Value> values_;
  std::vector<Container> containers_ = {Container{"0", "0", 0, kNo, kNo, kNo, kNo, {}}};
  std::unordered_map<std::string, uint32_t> container_ids_ = {{"0", 0}};
  std::unordered_set<std::string> ambiguous_names_;  // names of more than one container
  std::vector<Stack> stacks_;
  std::unordered_map<uint64_t, uint32_t> stack_ids_;
  std::unordered_map<uint64_t, Variable> variables_;
  std::unordered_map<uint64_t, uint32_t> comms_;
  std::unordered_map<std::string, uint64_t> global_ids_;
  std::vector<int64_t> ranks_;  // by builder process
};

}  // namespace

Status ImportPaje(const std::string& path, TraceBuilder& out, const Progress& progress) {
  Reader reader(path, out, progress);
  return reader.Run();
}

}  // namespace plx::interop
