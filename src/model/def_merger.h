// DefMerger: merges the definitions of every process of a .plx file into the
// global tables of a Trace (equal names become one id) and gives each process
// flat local-id -> global-index maps for the loader's per-record path.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "format/definitions.h"
#include "model/trace.h"

namespace plx::model {

/// Local id -> global index for one process; kNone where the id is undefined.
/// Each vector is sized by the largest id the process defines, plus one.
struct ProcessIdMaps {
  std::vector<uint32_t> states;
  std::vector<uint32_t> callsites;
  std::vector<uint32_t> event_types;
  std::vector<uint32_t> counters;
  std::vector<uint32_t> communicators;
};

/// What a reference points to, for the placeholder of an undefined id.
enum class RefKind : uint8_t { kState, kCallsite, kEventType, kCounter, kCommunicator };

inline uint32_t LookupId(const std::vector<uint32_t>& map, uint64_t id) {
  return id < map.size() ? map[id] : kNone;
}

class DefMerger {
 public:
  /// Fills trace->processes from the file, in file process order.
  explicit DefMerger(Trace* trace) : trace_(trace) {}

  /// Merges one process's definitions (it becomes Trace::processes[index]).
  ProcessIdMaps AddProcess(uint32_t index, const format::ProcessDefs& defs);

  /// The global index for an id the process does not define: a placeholder
  /// named "<undefined N>" (kNone for communicators). Counts undefined_refs.
  /// Cold path: called only when the flat map has no entry.
  uint32_t Undefined(RefKind kind, uint32_t process, uint64_t id);

 private:
  uint32_t Category(const std::string& name);
  uint32_t State(const std::string& name, uint32_t category, uint32_t color);
  uint32_t Callsite(const std::string& file, uint32_t line, const std::string& function);
  uint32_t EventType(const std::string& name, uint32_t category, ValueKind kind);
  uint32_t Counter(const std::string& name, const std::string& unit, ValueKind kind,
                   uint32_t category);
  uint32_t LocalCategory(const format::ProcessDefs& defs, uint64_t id);

  Trace* trace_;
  std::unordered_map<std::string, uint32_t> categories_;
  std::unordered_map<std::string, uint32_t> states_;  // name '\0' category name
  std::unordered_map<std::string, uint32_t> callsites_;
  std::unordered_map<std::string, uint32_t> event_types_;
  std::unordered_map<std::string, uint32_t> counters_;
  std::map<std::tuple<RefKind, uint32_t, uint64_t>, uint32_t> undefined_;
  // Communicators' members by their encoded bytes, decoded once: every
  // process lists MPI_COMM_WORLD's ranks. `complete` is false when the
  // bytes end inside a rank.
  struct Members {
    MemberList list;
    bool complete = true;
  };
  struct BytesHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, Members, BytesHash, std::equal_to<>> members_;
};

}  // namespace plx::model
