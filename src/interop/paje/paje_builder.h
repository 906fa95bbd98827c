// The part of the Paje importer that turns parsed event lines into
// TraceBuilder calls: types and values, containers as processes and threads,
// states, links, variables and events. What it needs before the first event
// (both ends of every link, whether a type's values are all integers) the
// reader's first pass gathers in a Lookahead. Internal to the Paje importer;
// the mapping is described in docs/interop.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/status.h"
#include "interop/paje/paje_defs.h"
#include "interop/trace_builder.h"

namespace plx::interop::paje {

inline constexpr uint32_t kNo = 0xffffffffu;

/// What the first pass finds ahead of the events that need it.
class Lookahead {
 public:
  /// A link's end (`start` or not) with its key, at container `container`.
  void Link(bool start, std::string_view key, std::string_view container);
  /// A value of the variable or event type `type`.
  void Value(std::string_view type, std::string_view value);
  /// After the pass: gives the links of each key their match numbers.
  void Finish();

  /// How the values of a type read, by name or alias: kNotInt when some are
  /// not integers, kNotNumber when some are not numbers; 0 when unseen.
  static constexpr uint8_t kNotInt = 1, kNotNumber = 2;
  uint8_t ValueFlags(std::string_view type) const;

  struct KeyLinks {
    std::vector<uint32_t> starts, ends;  // container tokens, in file order
    uint32_t starts_seen = 0, ends_seen = 0;
    uint64_t base = 0;  // match numbers base+1, base+2, ...
  };
  /// The links of `key`, nullptr when the first pass saw none.
  KeyLinks* LinksOf(std::string_view key);
  /// The container named by a token of Link().
  const std::string& Token(uint32_t token) const { return tokens_[token]; }

 private:
  std::unordered_map<std::string, uint32_t> key_ids_;
  std::vector<KeyLinks> keys_;
  std::unordered_map<std::string, uint32_t> token_ids_;
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, uint8_t> value_kinds_;
};

/// "r g b", each 0..1, as 0x1000000 | 0xRRGGBB; 0 when it is not a colour.
uint32_t ParseColor(std::string_view text);

class Builder {
 public:
  Builder(TraceBuilder& out, Lookahead& ahead) : b_(out), ahead_(ahead) {}

  /// One event line of definition `d`: `fields` are those after the event
  /// id, `ns` its time (0 when it has none).
  Status Event(const EventDef& d, const LineFields& fields, int64_t ns, const Where& where);
  /// Ends the states still open at the end of the file at `end_ns` (or their
  /// thread's last event), as PajeNG ends them.
  void CloseAll(int64_t end_ns);

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
  struct Variable {
    int64_t i = 0;
    double d = 0;
  };

  // The current line's field of role `r`, and errors about it.
  std::string_view Of(const EventDef& d, Role r) const { return d.Of(*fields_, r); }
  Status Error(std::string_view field, std::string_view what) const {
    return where_->Error(field, what);
  }
  Status Backwards(const EventDef& d, uint32_t c) const;

  // Types, values, containers.
  Status FindType(const EventDef& d, Role r, Kind want, uint32_t* type) const;
  Status FindContainer(const EventDef& d, Role r, uint32_t* c) const;
  uint32_t ValueOf(uint32_t type, std::string_view token);
  Status DefineType(const EventDef& d);
  Status DefineValue(const EventDef& d);
  Status CreateContainer(const EventDef& d);
  Status DestroyContainer(const EventDef& d, int64_t ns);
  uint32_t ProcessFor(uint32_t c);
  uint32_t ThreadOf(uint32_t c);
  int64_t Clamp(uint32_t thread, int64_t ns);

  // What happens on them.
  Status StateEvent(const EventDef& d, int64_t ns);
  Stack& StackOf(uint32_t c, uint32_t type);
  Status LinkEvent(const EventDef& d, int64_t ns);
  Status VariableEvent(const EventDef& d, int64_t ns);
  Status NewEvent(const EventDef& d, int64_t ns);

  TraceBuilder& b_;
  Lookahead& ahead_;
  const LineFields* fields_ = nullptr;  // of the line Event() is at
  const Where* where_ = nullptr;

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

}  // namespace plx::interop::paje
