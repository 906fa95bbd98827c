// Reading the attributes `parallax info` reports (info_notes.h).
#include "cli/info_notes.h"

#include <cstdlib>

namespace plx::cli {

std::string_view AttributeValue(const format::ProcessDefs& defs, std::string_view key) {
  std::string_view value;
  for (const format::AttributeDef& a : defs.attributes)
    if (defs.Str(a.key) == key) value = defs.Str(a.value);
  return value;
}

std::vector<Dropped> DroppedByProcess(const format::TraceFile& file) {
  std::vector<Dropped> out;
  for (const auto& entry : file.processes()) {
    const format::ProcessDefs& defs = entry.second;  // a lambda cannot capture a binding
    const std::string_view error = AttributeValue(defs, "parallax.write_error");
    if (error.empty()) continue;
    auto number = [&defs](std::string_view key) {
      return std::strtoull(std::string(AttributeValue(defs, key)).c_str(), nullptr, 10);
    };
    out.push_back({entry.first, number("parallax.dropped_records"),
                   number("parallax.dropped_chunks"), std::string(error)});
  }
  return out;
}

std::vector<Imported> ImportedCounters(const format::TraceFile& file) {
  std::vector<Imported> out;
  if (file.processes().empty()) return out;
  const format::ProcessDefs& first = file.processes().begin()->second;
  for (const format::AttributeDef& a : first.attributes) {
    const std::string_view key = first.Str(a.key);
    if (!key.starts_with("import.")) continue;
    const std::string_view name = key.substr(7);
    out.push_back(
        {std::string(name), std::string(first.Str(a.value)), interop::FindImportCounter(name)});
  }
  return out;
}

std::vector<std::pair<uint32_t, std::vector<std::pair<std::string, std::string>>>> CutNotes(
    const format::TraceFile& file) {
  std::vector<std::pair<uint32_t, std::vector<std::pair<std::string, std::string>>>> out;
  for (const auto& [process, defs] : file.processes()) {
    std::vector<std::pair<std::string, std::string>> notes;
    for (const format::AttributeDef& a : defs.attributes)
      if (defs.Str(a.key).starts_with("cut."))
        notes.emplace_back(defs.Str(a.key).substr(4), defs.Str(a.value));
    if (!notes.empty()) out.emplace_back(process, std::move(notes));
  }
  return out;
}

}  // namespace plx::cli
