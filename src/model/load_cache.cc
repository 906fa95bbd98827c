// LoadCache: per thread, keep the decoded chunks that still hold, decode the
// new ones, then copy every thread's rows into the trace.
#include "model/load_cache.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "model/load_trace.h"
#include "model/stream_loader.h"
#include "model/tables.h"
#include "model/thread_rows.h"

namespace plx::model {

namespace {

// Identifies a decoded chunk: a chunk with the same header holds the same
// records (the payload checksum covers them).
struct ChunkKey {
  uint64_t first_index, tick_begin, tick_end, payload_check;
  uint32_t record_count, raw_size;
  bool operator==(const ChunkKey&) const = default;
};

ChunkKey KeyOf(const format::ChunkHeader& h) {
  return {h.first_index, h.tick_begin, h.tick_end, h.payload_check, h.record_count, h.raw_size};
}

// Every id the old maps mapped maps the same now (new ids may have come).
bool MapsExtend(const ProcessIdMaps& old, const ProcessIdMaps& now) {
  const auto extends = [](const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != kNone && (i >= b.size() || b[i] != a[i])) return false;
    return true;
  };
  return extends(old.states, now.states) && extends(old.callsites, now.callsites) &&
         extends(old.event_types, now.event_types) && extends(old.counters, now.counters) &&
         extends(old.communicators, now.communicators);
}

}  // namespace

struct LoadCache::Part {
  // Where to go back to: before a decoded chunk.
  struct Mark {
    std::vector<size_t> rows;  // per table, in ForEachTable's order
    size_t texts = 0;
    LoadStats stats;
    StreamLoader::Position at;
  };

  Part() : loader(&data.rows, nullptr) {}

  void Reset() {
    data = ThreadRows();
    keys.clear();
    marks.clear();
    reusable = true;
  }

  // Back to before decoded chunk `i` (> 0; Reset is before the first).
  void Rewind(size_t i) {
    if (i >= keys.size()) return;
    const Mark& m = marks[i];
    size_t table = 0;
    ForEachTable(data.rows, [&](auto& t) { ResizeTable(t, m.rows[table++]); });
    data.rows.texts.resize(m.texts);
    data.rows.stats = m.stats;
    data.at = m.at;
    keys.resize(i);
    marks.resize(i);
  }

  Mark Here() const {
    Mark m;
    ForEachTable(data.rows, [&](const auto& t) { m.rows.push_back(t.size()); });
    m.texts = data.rows.texts.size();
    m.stats = data.rows.stats;
    m.at = loader.position();
    return m;
  }

  ThreadRows data;  // the thread's records (thread column 0) and the loader's position
  StreamLoader loader;
  std::vector<ChunkKey> keys;
  std::vector<Mark> marks;  // before each decoded chunk
  // What the rows were decoded with.
  ProcessIdMaps maps;
  format::TickClock clock;
  ClockCorrection correction;
  bool reusable = true;  // false after damage or an undefined id: decode again next time
  bool seen = false;     // by the current load
};

LoadCache::LoadCache() = default;
LoadCache::~LoadCache() = default;

void LoadCache::LoadEvents(const format::TraceFile& file, const std::vector<ProcessIdMaps>& maps,
                           const std::vector<ClockCorrection>& corrections, DefMerger* merger,
                           Trace* trace, const std::function<void(uint64_t, uint64_t)>& progress) {
  for (auto& [key, part] : parts_)
    part->seen = false;
  std::vector<Part*> parts;
  std::vector<uint8_t> scratch;
  const std::vector<uint32_t> no_chunks;
  for (uint32_t t = 0; t < trace->threads.size(); ++t) {
    const Thread& thread = trace->threads[t];
    const uint32_t file_process = trace->processes[thread.process].file_id;
    const ProcessIdMaps& map = maps[thread.process];
    const ClockCorrection& correction = corrections[thread.process];
    const format::TickClock& clock = file.clock(file_process);
    std::unique_ptr<Part>& slot = parts_[{file_process, thread.file_stream}];
    if (slot == nullptr) slot = std::make_unique<Part>();
    Part& p = *slot;
    p.seen = true;
    parts.push_back(&p);
    const format::StreamInfo* info = file.FindStream(file_process, thread.file_stream);
    const std::vector<uint32_t>& chunks = info ? info->chunks : no_chunks;

    // The decoded chunks that still hold: a prefix of the stream's chunks,
    // each wholly below the tick from which the clock converts differently.
    size_t keep = 0;
    if (p.reusable && MapsExtend(p.maps, map) && p.correction == correction) {
      const uint64_t same_below = p.clock.SameBelow(clock);
      while (keep < p.keys.size() && keep < chunks.size() &&
             p.keys[keep] == KeyOf(file.event_chunks()[chunks[keep]].header) &&
             p.keys[keep].tick_end < same_below)
        ++keep;
    }
    counters_.chunks_kept += keep;
    counters_.chunks_redecoded += p.keys.size() - keep;
    if (keep == 0) {
      p.Reset();
    } else {
      p.Rewind(keep);
    }
    p.maps = map;
    p.clock = clock;
    p.correction = correction;
    p.loader.set_merger(merger);
    p.loader.Resume(0, thread.process, &map, &clock, &correction, p.data.at);
    for (size_t i = keep; i < chunks.size(); ++i) {
      const format::ChunkInfo& chunk = file.event_chunks()[chunks[i]];
      p.marks.push_back(p.Here());
      p.keys.push_back(KeyOf(chunk.header));
      const uint64_t undefined = trace->stats.undefined_refs;
      const uint64_t damaged = p.data.damaged;
      DecodeThreadChunk(file, chunk, &p.loader, &scratch, &p.data);
      // A placeholder for an undefined id belongs to this load's definitions.
      if (p.data.damaged != damaged || trace->stats.undefined_refs != undefined) p.reusable = false;
      ++counters_.chunks_decoded;
    }
    p.data.at = p.loader.position();
  }
  for (auto it = parts_.begin(); it != parts_.end();)
    it = it->second->seen ? std::next(it) : parts_.erase(it);

  // Every thread's rows, in thread order, as LoadTrace appends them.
  std::vector<ThreadRows*> rows;
  for (Part* p : parts)
    rows.push_back(&p->data);
  const uint64_t records = AppendThreadRows(rows, trace);
  if (progress) progress(records, records);
}

}  // namespace plx::model
