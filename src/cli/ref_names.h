// RefNames: resolves the ids of a record's `ref` fields (spec/records.toml) to
// names, from one process's definitions — for `parallax dump`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "format/definitions.h"

namespace plx::cli {

class RefNames {
 public:
  explicit RefNames(const format::ProcessDefs& defs) : defs_(defs) {}

  /// The name of definition `id` of kind `ref` ("state", "callsite", ...):
  /// nullopt for 0 (none), "<undefined N>" for ids nobody defined.
  std::optional<std::string> Name(std::string_view ref, uint64_t id) const;

 private:
  const format::ProcessDefs& defs_;
};

}  // namespace plx::cli
