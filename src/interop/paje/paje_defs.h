// The %EventDef header of a Paje file: the event ids it defines, each one's
// kind and fields, and which field plays which role. Read generally: any
// event ids, fields in any order, the older field names PajeNG still accepts,
// extra fields. Internal to the Paje importer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "interop/text_file.h"

namespace plx::interop::paje {

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

enum class FieldType : uint8_t { kDate, kInt, kDouble, kHex, kString, kColor };

struct Field {
  std::string name;
  Role role = kExtra;
  FieldType type = FieldType::kString;
};

struct EventDef {
  Kind kind = Kind::kNewEvent;
  bool defined = false;  // its %EndEventDef was read
  std::vector<Field> fields;
  int8_t at[kRoles];  // field index of each role, -1 = absent

  /// The field of role `r` among an event line's fields (those after its
  /// event id); "" when the event has no such field.
  std::string_view Of(const LineFields& line, Role r) const {
    return at[r] >= 0 ? line[static_cast<size_t>(at[r])] : std::string_view();
  }
  /// The name of the field of role `r` ("" when absent), for errors.
  std::string_view NameOf(Role r) const {
    return at[r] >= 0 ? std::string_view(fields[static_cast<size_t>(at[r])].name)
                      : std::string_view();
  }
};

/// Where a line is, for InputError's "FILE:LINE: FIELD: WHAT".
struct Where {
  std::string_view path;
  uint64_t line = 0;
  Status Error(std::string_view field, std::string_view what) const;
};

/// The event definitions of one file, as its header lines come.
class Definitions {
 public:
  /// One header line (after its '%'), split: "EventDef NAME ID" opens a
  /// definition, each "FIELD TYPE" line after it adds a field, and
  /// "EndEventDef" checks that the event has the fields its kind needs.
  /// Other lines outside a definition are comments.
  Status HeaderLine(const LineFields& fields, const Where& where);
  /// Whether an %EventDef waits for its %EndEventDef.
  bool open() const { return open_ != kNone; }
  /// The complete definition of event id `id` (as written), nullptr when
  /// there is none.
  const EventDef* Find(std::string_view id) const;

 private:
  static constexpr uint32_t kNone = 0xffffffffu;
  Status Begin(const LineFields& fields, const Where& where);
  Status End(const Where& where);
  Status AddField(const LineFields& fields, const Where& where);

  std::vector<EventDef> defs_;  // by event id
  uint32_t open_ = kNone;
};

}  // namespace plx::interop::paje
