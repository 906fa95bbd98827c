// CutTrace: checks the options, plans what the window's messages and
// collectives lose (cut_plan.h), then writes process by process: its
// definitions as recorded, the event type of the cut's instants, each
// thread's records (stream_cut.h), and attributes saying what was cut.
#include "store/trace_cut.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <limits>
#include <set>

#include "base/strings.h"
#include "format/defs_copy.h"
#include "store/cut_plan.h"
#include "store/stream_cut.h"

namespace plx::store {
namespace {

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

// Per process, the state ids whose slices are kept (empty: all).
StatusOr<std::vector<std::vector<uint8_t>>> KeptStates(const TraceStore& store,
                                                       const CutOptions& options) {
  const auto& files = store.file().processes();
  std::vector<std::vector<uint8_t>> kept(store.trace().processes.size());
  if (options.states.empty()) return kept;
  const std::set<std::string, std::less<>> names(options.states.begin(), options.states.end());
  std::set<std::string, std::less<>> found;
  for (size_t p = 0; p < kept.size(); ++p) {
    const format::ProcessDefs& defs = files.at(store.trace().processes[p].file_id);
    const uint64_t size = defs.states.empty() ? 0 : defs.states.rbegin()->first + 1;
    kept[p].assign(size, 0);
    for (const auto& [id, def] : defs.states) {
      const std::string_view name = defs.Str(def.name);
      if (names.count(name) == 0) continue;
      kept[p][id] = 1;
      found.emplace(name);
    }
  }
  for (const std::string& name : names)
    if (found.count(name) == 0)
      return InvalidArgument(
          StrFormat("%s: no state is called '%s'", store.file().name().c_str(), name.c_str()));
  return kept;
}

void WriteAttribute(format::TraceWriter& writer, uint32_t process, uint64_t* next_string,
                    const std::string& key, const std::string& value) {
  const uint64_t k = (*next_string)++, v = (*next_string)++;
  writer.Def(process, format::StringDef{k, key});
  writer.Def(process, format::StringDef{v, value});
  writer.Def(process, format::AttributeDef{k, v});
}

}  // namespace

StatusOr<CutResult> CutTrace(const TraceStore& store, const std::string& path,
                             const CutOptions& options) {
  const model::Trace& trace = store.trace();
  const std::string& source = store.file().name();
  if (options.from_ns < 0 || options.to_ns < options.from_ns)
    return InvalidArgument(
        StrFormat("%s: the window must not end before it begins", source.c_str()));
  CutPlan plan;
  plan.from = SaturatingAdd(trace.begin_ns, options.from_ns);
  plan.to = SaturatingAdd(trace.begin_ns, options.to_ns);
  plan.keep.assign(trace.processes.size(), options.processes.empty() ? 1 : 0);
  for (uint32_t p : options.processes) {
    if (p >= trace.processes.size())
      return InvalidArgument(
          StrFormat("%s: no process %u (it has %zu)", source.c_str(), p, trace.processes.size()));
    plan.keep[p] = 1;
  }
  auto kept_states = KeptStates(store, options);
  if (!kept_states.ok()) return kept_states.status();

  auto report = [&](std::string_view step) {
    return [&options, step](uint64_t done, uint64_t total) {
      if (options.progress) options.progress(step, done, total);
    };
  };
  PlanCut(store, &plan, report("pairing messages"));

  const std::string temporary = path + ".cutting";
  auto writer = format::TraceWriter::Create(temporary);
  if (!writer.ok()) return writer.status();
  CutResult result;
  StreamCutCounts counts;
  uint64_t total = 0;
  for (uint32_t t = 0; t < store.threads(); ++t)
    if (plan.keep[trace.threads[t].process]) total += trace.threads[t].records;
  auto progress = report("cutting");

  uint32_t thread = 0;
  for (uint32_t p = 0; p < trace.processes.size(); ++p) {
    const uint32_t first_thread = thread;
    while (thread < store.threads() && trace.threads[thread].process == p)
      ++thread;
    if (!plan.keep[p]) continue;
    ++result.processes;
    ProcessCut cut;
    cut.file_process = trace.processes[p].file_id;
    const format::ProcessDefs& defs = store.file().processes().at(cut.file_process);
    format::WriteProcessDefs(defs, cut.file_process, **writer);
    uint64_t next_string = format::NextFreeId(defs.strings);
    cut.marker_type = format::NextFreeId(defs.event_types);
    const uint64_t name = next_string++;
    (*writer)->Def(cut.file_process, format::StringDef{name, "parallax.cut"});
    (*writer)->Def(cut.file_process, format::EventTypeDef{cut.marker_type, name, 0, 3});
    cut.all_states = options.states.empty();
    cut.kept_states = std::move((*kept_states)[p]);

    const uint64_t opened = counts.opened, closed = counts.closed;
    for (uint32_t t = first_thread; t < thread; ++t) {
      CutStream(store, plan, cut, t, **writer, &counts);
      progress(counts.read, total);
    }
    WriteAttribute(**writer, cut.file_process, &next_string, "cut.window",
                   StrFormat("%lld to %lld ns after the first record of %s",
                             static_cast<long long>(options.from_ns),
                             static_cast<long long>(plan.to - trace.begin_ns), source.c_str()));
    WriteAttribute(**writer, cut.file_process, &next_string, "cut.slices_opened",
                   std::to_string(counts.opened - opened));
    WriteAttribute(**writer, cut.file_process, &next_string, "cut.slices_closed",
                   std::to_string(counts.closed - closed));
    WriteAttribute(**writer, cut.file_process, &next_string, "cut.messages_crossing",
                   std::to_string(plan.crossing[p]));
    WriteAttribute(**writer, cut.file_process, &next_string, "cut.collectives_dropped",
                   std::to_string(plan.collectives_out[p]));
    result.messages_crossing += plan.crossing[p];
    result.collectives_dropped += plan.collectives_out[p];
  }
  Status finished = (*writer)->Finish();
  if (finished.ok() && std::rename(temporary.c_str(), path.c_str()) != 0)
    finished = ErrnoError(path, errno);
  if (!finished.ok()) {
    ::unlink(temporary.c_str());
    return finished;
  }
  result.records_read = counts.read;
  result.records_written = counts.written;
  result.slices_opened = counts.opened;
  result.slices_closed = counts.closed;
  result.posts_dropped = counts.posts_dropped;
  result.problems = std::move(counts.problems);
  return result;
}

}  // namespace plx::store
