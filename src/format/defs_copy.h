// Writing a process's definitions, as a reader gathered them, into a new
// file: what a tool that rewrites a trace (`parallax cut`) keeps of it.
#pragma once

#include <cstdint>

#include "format/definitions.h"
#include "format/trace_writer.h"

namespace plx::format {

/// Writes every definition of `defs` as process `process` of `writer`: the
/// latest of each kind and id (ProcessDefs keeps no other), strings first,
/// communicators with their members. Definition kinds this build does not
/// know were not kept by the reader and are not written.
void WriteProcessDefs(const ProcessDefs& defs, uint32_t process, TraceWriter& writer);

/// The smallest id above every id `defs` gives a string, event type or the
/// like (`ids` one of ProcessDefs' maps): where new definitions can go.
template <typename Map>
uint64_t NextFreeId(const Map& ids) {
  return ids.empty() ? 1 : ids.rbegin()->first + 1;
}

}  // namespace plx::format
