// RefNames: per-kind lookups in ProcessDefs.
#include "cli/ref_names.h"

#include <fmt/core.h>

namespace plx::cli {

namespace {

template <typename Map>
const typename Map::mapped_type* Find(const Map& map, uint64_t id) {
  auto it = map.find(id);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

std::optional<std::string> RefNames::Name(std::string_view ref, uint64_t id) const {
  if (id == 0) return std::nullopt;
  auto named = [&](const auto* def) -> std::optional<std::string> {
    if (def == nullptr) return std::nullopt;
    return std::string(defs_.Str(def->name));
  };
  std::optional<std::string> name;
  if (ref == "state") {
    name = named(Find(defs_.states, id));
  } else if (ref == "event_type") {
    name = named(Find(defs_.event_types, id));
  } else if (ref == "counter") {
    name = named(Find(defs_.counters, id));
  } else if (ref == "communicator") {
    name = named(Find(defs_.communicators, id));
  } else if (ref == "category") {
    name = named(Find(defs_.categories, id));
  } else if (ref == "callsite") {
    if (const format::CallsiteDef* c = Find(defs_.callsites, id))
      name = fmt::format("{}:{}", defs_.Str(c->file), c->line);
  } else if (ref == "string") {
    if (defs_.strings.count(id)) name = std::string(defs_.Str(id));
  }
  if (!name) return fmt::format("<undefined {}>", id);
  return name;
}

}  // namespace plx::cli
