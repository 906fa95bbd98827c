// WriteProcessDefs: every kind of ProcessDefs back through TraceWriter::Def.
#include "format/defs_copy.h"

namespace plx::format {

void WriteProcessDefs(const ProcessDefs& defs, uint32_t process, TraceWriter& writer) {
  for (const auto& [id, text] : defs.strings)
    writer.Def(process, StringDef{id, text});
  if (defs.process) writer.Def(process, *defs.process);
  if (defs.clock) writer.Def(process, *defs.clock);
  for (const ClockSyncDef& d : defs.syncs)
    writer.Def(process, d);
  for (const auto& [id, d] : defs.streams)
    writer.Def(process, d);
  for (const auto& [id, d] : defs.categories)
    writer.Def(process, d);
  for (const auto& [id, d] : defs.states)
    writer.Def(process, d);
  for (const auto& [id, d] : defs.event_types)
    writer.Def(process, d);
  for (const auto& [id, d] : defs.callsites)
    writer.Def(process, d);
  for (const auto& [id, d] : defs.counters)
    writer.Def(process, d);
  for (const auto& [id, d] : defs.communicators) {
    CommunicatorDef c = d;
    if (auto m = defs.communicator_members.find(id); m != defs.communicator_members.end())
      c.members = m->second;
    writer.Def(process, c);
  }
  for (const ClockOffsetDef& d : defs.clock_offsets)
    writer.Def(process, d);
  for (const AttributeDef& d : defs.attributes)
    writer.Def(process, d);
}

}  // namespace plx::format
