// The Paje header parser (see paje_defs.h).
#include "interop/paje/paje_defs.h"

#include <algorithm>

#include "interop/trace_builder.h"

namespace plx::interop::paje {

namespace {

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

}  // namespace

Status Where::Error(std::string_view field, std::string_view what) const {
  return InputError(path, std::to_string(line), field, what);
}

Status Definitions::HeaderLine(const LineFields& fields, const Where& where) {
  if (fields.size() == 0) return Status::Ok();
  if (fields[0] == "EventDef") return Begin(fields, where);
  if (fields[0] == "EndEventDef") return End(where);
  if (!open()) return Status::Ok();  // a comment line
  return AddField(fields, where);
}

Status Definitions::Begin(const LineFields& fields, const Where& where) {
  if (open()) return where.Error("%EventDef", "inside another %EventDef");
  if (fields.size() < 3) return where.Error("%EventDef", "needs an event name and an id");
  const KindName* k = nullptr;
  for (const KindName& kn : kKinds) {
    if (fields[1] == kn.name) k = &kn;
  }
  if (fields[1] == "PajeTraceFile") {
    return where.Error("%EventDef", "PajeTraceFile (a trace in several files) is not supported");
  }
  if (k == nullptr) return where.Error("%EventDef", "unknown event " + std::string(fields[1]));
  int64_t id;
  if (!ParseInt(fields[2], &id, Plus::kAccepted) || id < 0 || id > 65535) {
    return where.Error("%EventDef", "bad event id " + std::string(fields[2]));
  }
  const auto uid = static_cast<uint32_t>(id);
  if (uid >= defs_.size()) defs_.resize(uid + 1);
  if (defs_[uid].defined) {
    return where.Error("%EventDef", "event id " + std::to_string(id) + " defined twice");
  }
  defs_[uid] = EventDef();
  defs_[uid].kind = k->kind;
  std::fill(std::begin(defs_[uid].at), std::end(defs_[uid].at), -1);
  open_ = uid;
  return Status::Ok();
}

Status Definitions::End(const Where& where) {
  if (!open()) return where.Error("%EndEventDef", "without %EventDef");
  EventDef& d = defs_[open_];
  for (Role r : Required(d.kind)) {
    if (d.at[r] < 0) {
      for (const RoleName& rn : kRoleNames) {
        if (rn.role == r) return where.Error(rn.name, "missing from the event definition");
      }
    }
  }
  d.defined = true;
  open_ = kNone;
  return Status::Ok();
}

Status Definitions::AddField(const LineFields& fields, const Where& where) {
  if (fields.size() != 2) return where.Error("%field", "needs a name and a type");
  EventDef& d = defs_[open_];
  Field fld;
  fld.name = std::string(fields[0]);
  const std::string_view type = fields[1];
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
    return where.Error(fields[0], "unknown field type " + std::string(type));
  }
  for (const RoleName& rn : kRoleNames) {
    if (fields[0] == rn.name) fld.role = rn.role;
  }
  // An event line is its id and the fields, at most LineFields::kMax in all.
  if (d.fields.size() >= LineFields::kMax - 1) return where.Error(fields[0], "too many fields");
  if (fld.role != kExtra) {
    if (d.at[fld.role] >= 0) return where.Error(fields[0], "defined twice");
    d.at[fld.role] = static_cast<int8_t>(d.fields.size());
  }
  d.fields.push_back(std::move(fld));
  return Status::Ok();
}

const EventDef* Definitions::Find(std::string_view id) const {
  int64_t n;
  if (!ParseInt(id, &n, Plus::kAccepted) || n < 0 || static_cast<uint64_t>(n) >= defs_.size() ||
      !defs_[static_cast<size_t>(n)].defined) {
    return nullptr;
  }
  return &defs_[static_cast<size_t>(n)];
}

}  // namespace plx::interop::paje
