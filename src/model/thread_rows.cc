// ThreadRows: decoding a chunk into one thread's own rows, and appending
// the rows of every thread to a trace in thread order.
#include "model/thread_rows.h"

#include <cstddef>

#include "model/load_trace.h"
#include "model/tables.h"

namespace plx::model {

void DecodeThreadChunk(const format::TraceFile& file, const format::ChunkInfo& chunk,
                       StreamLoader* loader, std::vector<uint8_t>* scratch, ThreadRows* out) {
  const uint64_t before = loader->records();
  const Status s = file.DecodeChunk(chunk, *loader, scratch);
  if (!s.ok()) {
    // Records before the damage were delivered and stay; the rest is lost.
    ++out->damaged;
    out->problems.push_back(DamagedChunkLine(file, s, loader->records() != before));
  }
}

uint64_t AppendThreadRows(const std::vector<ThreadRows*>& parts, Trace* trace, bool release) {
  {
    size_t totals[kTableCount] = {};
    for (const ThreadRows* p : parts) {
      size_t i = 0;
      ForEachTable(*trace, p->rows, [&](auto&, const auto& t) { totals[i++] += t.size(); });
    }
    size_t i = 0;
    ForEachTable(*trace, [&](auto& table) {
      const size_t n = table.size() + totals[i++];
      std::apply([n](auto&... column) { (column.reserve(n), ...); }, table.columns());
    });
  }
  uint64_t records = 0;
  for (uint32_t t = 0; t < parts.size(); ++t) {
    ThreadRows& p = *parts[t];
    const size_t slice_base = trace->slices.size();
    const size_t instant_base = trace->instants.size();
    const uint32_t text_base = static_cast<uint32_t>(trace->texts.size());
    ForEachTable(*trace, p.rows, [&](auto& to, const auto& from) {
      const size_t base = to.size();
      ZipColumns(to.columns(), from.columns(),
                 [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); });
      std::fill(to.thread.begin() + static_cast<ptrdiff_t>(base), to.thread.end(), t);
    });
    trace->texts.insert(trace->texts.end(), p.rows.texts.begin(), p.rows.texts.end());
    if (text_base > 0)
      for (size_t i = instant_base; i < trace->instants.size(); ++i)
        if (trace->instants.text[i] != kNone) trace->instants.text[i] += text_base;
    LoadStats& s = trace->stats;
    s.unclosed_slices += StreamLoader::CloseOpen(p.at, slice_base, &trace->slices);
    s.records += p.at.records;
    s.unknown_record_kinds += p.rows.stats.unknown_record_kinds;
    s.leave_without_enter += p.rows.stats.leave_without_enter;
    s.leave_mismatch += p.rows.stats.leave_mismatch;
    s.lost_records += p.rows.stats.lost_records;
    s.damaged_chunks += p.damaged;
    for (const std::string& line : p.problems)
      AddLoadProblem(trace, line);
    Thread& thread = trace->threads[t];
    thread.records = p.at.records;
    thread.begin_ns = p.at.records > 0 ? p.at.first_ns : 0;
    thread.end_ns = p.at.records > 0 ? p.at.last_ns : 0;
    thread.ended = p.at.ended;
    records += p.at.records;
    if (release) p.rows = Trace();
  }
  return records;
}

}  // namespace plx::model
