// What `parallax info` reads from a trace's process attributes: the
// writes the capture runtime could not make, an importer's counters, and
// what `parallax cut` left out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/trace_file.h"
#include "interop/import_counters.gen.h"

namespace plx::cli {

/// The last value of attribute `key` in a process's definitions ("" if none).
std::string_view AttributeValue(const format::ProcessDefs& defs, std::string_view key);

/// What the capture runtime could not write (it stopped at a failed write and
/// left "parallax.dropped_*" attributes; docs/format.md).
struct Dropped {
  uint32_t process;
  uint64_t records, chunks;
  std::string error;
};
std::vector<Dropped> DroppedByProcess(const format::TraceFile& file);

/// An import counter of an imported trace: an attribute "import.NAME" that
/// TraceBuilder leaves on the first process, and what this build knows of NAME
/// (nullptr: a counter of an older or newer version).
struct Imported {
  std::string name;
  std::string count;
  const interop::ImportCounterInfo* info;
};
std::vector<Imported> ImportedCounters(const format::TraceFile& file);

/// A cut trace (`parallax cut`): per process, its "cut.*" attributes in
/// order, "cut." left out of the keys.
std::vector<std::pair<uint32_t, std::vector<std::pair<std::string, std::string>>>> CutNotes(
    const format::TraceFile& file);

}  // namespace plx::cli
