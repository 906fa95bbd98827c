// The definitions of one process of a .plx file, gathered from all its DEFS
// chunks (a later definition with the same kind and id replaces the earlier).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/records.gen.h"

namespace plx::format {

struct ProcessDefs {
  uint32_t id = 0;  // the process number used in chunk headers
  std::optional<ProcessDef> process;
  std::optional<ClockDef> clock;
  std::vector<ClockSyncDef> syncs;  // in file order
  std::map<uint64_t, std::string> strings;
  std::map<uint64_t, StreamDef> streams;
  std::map<uint64_t, CategoryDef> categories;
  std::map<uint64_t, StateDef> states;
  std::map<uint64_t, EventTypeDef> event_types;
  std::map<uint64_t, CallsiteDef> callsites;
  std::map<uint64_t, CounterDef> counters;
  std::map<uint64_t, CommunicatorDef> communicators;     // `members` is empty: see below
  std::map<uint64_t, std::string> communicator_members;  // by communicator id
  std::vector<ClockOffsetDef> clock_offsets;             // in file order
  std::vector<AttributeDef> attributes;
  uint64_t unknown_records = 0;  // definition kinds this build does not know
  uint64_t bad_ids = 0;          // ids above kMaxDefId (ignored)

  /// The string with this id; empty for 0 or an unknown id.
  std::string_view Str(uint64_t string_id) const;

  /// Decodes one DEFS payload into these definitions. On damage returns false
  /// and fills *error; records before the damage are kept.
  bool Apply(const uint8_t* begin, const uint8_t* end, DecodeError* error);
};

}  // namespace plx::format
